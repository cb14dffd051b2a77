"""The native snapshot: the model itself as YAML or JSON (``ksafe schema snapshot``).

Validation errors are located: ``path:line`` from the YAML node (or the JSON text, re-read as
YAML only when there is an error to place) that holds the offending value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from cluster_engine.errors import ClusterInputError, load_json, load_yaml, read_input
from cluster_engine.snapshot import Snapshot
from linter import inputs

NATIVE_SUFFIXES = (".yaml", ".yml", ".json")


def load_native(path: Path) -> Snapshot:
    text = read_input(path)
    return parse_native(str(path), text, json_text=path.suffix == ".json")


def parse_native(path: str, text: str, json_text: bool = False) -> Snapshot:
    data: Any = load_json(text, path) if json_text else load_yaml(text, path)
    if not isinstance(data, dict):
        raise ClusterInputError(path, 1, "expected a mapping (snapshot_version, nodes, ...)")
    try:
        return Snapshot.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        loc = tuple(first["loc"])
        where = ".".join(str(p) for p in loc) or "snapshot"
        # An unknown key is shown at the key itself, any other error at the value.
        line, col = inputs.node_position(text, loc, at_key=first["type"] == "extra_forbidden")
        raise ClusterInputError(path, line, f"{where}: {first['msg']}", col) from None
