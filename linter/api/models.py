"""What the commands that are not checks need from the models: describe() texts parsed and
printed back, cluster snapshots assembled, the rule catalogue, the JSON schemas."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest import load_snapshot
from cluster_engine.snapshot import Snapshot
from cluster_engine.snapshot_json import dump_json
from linter.config import ConfigError
from linter.gitbase import GitError
from linter.inputs import MalformedInput
from linter.topology.model import Description
from linter.topology.parse import TopologyParseError, parse_file
from linter.topology.render import render, to_jsonable
from linter.topology.streams_config import StreamsConfigError
from rules.catalogue import ALL_RULES
from rules.framework import Rule, find_rule

# Errors a user can cause with their input, each saying where (``path:line:col: ...``).
INPUT_ERRORS: tuple[type[Exception], ...] = (
    TopologyParseError,
    StreamsConfigError,
    ClusterInputError,
    ConfigError,
    GitError,
    MalformedInput,
)


def parse_topologies(files: Sequence[Path]) -> list[Description]:
    """Each describe() text read into its model."""
    return [parse_file(f) for f in files]


def topology_json(models: Sequence[Description]) -> str:
    """The models as JSON (one object for one model, else a list)."""
    payload = [to_jsonable(m) for m in models]
    return json.dumps(payload[0] if len(payload) == 1 else payload, indent=2)


def topology_text(models: Sequence[Description]) -> str:
    """The models as canonical describe() text (sets sorted)."""
    return "".join(render(m) for m in models)


def read_snapshot(source: Path) -> Snapshot:
    """A cluster snapshot: a folder of captured tool outputs, one capture, or YAML/JSON."""
    return load_snapshot(source)


def snapshot_json(snapshot: Snapshot) -> Iterator[str]:
    """``snapshot.model_dump_json(indent=2)`` in pieces, to write as they come."""
    return dump_json(snapshot)


def rules() -> tuple[Rule, ...]:
    """Every rule, in catalogue order."""
    return ALL_RULES


def rule(ref: str) -> Rule | None:
    """The rule with this id (``KS201``) or name (``store-renamed``), if any."""
    return find_rule(ALL_RULES, ref)
