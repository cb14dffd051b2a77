"""Cluster snapshots read and written through the door (without loading the topology side or
the rule catalogue, which ``ksafe cluster snapshot`` never needs)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from cluster_engine.ingest import load_snapshot
from cluster_engine.snapshot import Snapshot
from cluster_engine.snapshot_json import dump_json


def read_snapshot(source: Path) -> Snapshot:
    """A cluster snapshot: a folder of captured tool outputs, one capture, or YAML/JSON."""
    return load_snapshot(source)


def snapshot_json(snapshot: Snapshot) -> Iterator[str]:
    """``snapshot.model_dump_json(indent=2)`` in pieces, to write as they come."""
    return dump_json(snapshot)
