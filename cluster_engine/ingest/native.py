"""The native snapshot: the model itself as YAML or JSON (``ksafe schema snapshot``).

Validation errors are located: ``path:line`` from the YAML node (or the JSON text, re-read as
YAML only when there is an error to place) that holds the offending value.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
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
        line, col = _locate(text, loc, at_key=first["type"] == "extra_forbidden")
        raise ClusterInputError(path, line, f"{where}: {first['msg']}", col) from None


def _locate(
    text: str, loc: Sequence[int | str], at_key: bool = False
) -> tuple[int | None, int | None]:
    """Line and column of the deepest YAML node along a pydantic error location."""
    try:
        node = inputs.compose_yaml(text, "<snapshot>")
    except inputs.MalformedInput:
        return None, None
    if node is None:
        return None, None
    found = node
    for n, part in enumerate(loc):
        child = _child(found, part, key=at_key and n == len(loc) - 1)
        if child is None:
            break
        found = child
    return found.start_mark.line + 1, found.start_mark.column + 1


def _child(node: yaml.Node, part: int | str, key: bool = False) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, value in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == str(part):
                found: yaml.Node = k if key else value
                return found
        return None
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int):
        if 0 <= part < len(node.value):
            child: yaml.Node = node.value[part]
            return child
        return None
    return None
