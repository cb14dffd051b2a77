"""The snapshot's JSON written in pieces is, byte for byte, ``model_dump_json(indent=2)``."""

from __future__ import annotations

from pathlib import Path

import pytest

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest import load_snapshot
from cluster_engine.partitions import Partition, Partitions
from cluster_engine.snapshot import Snapshot
from cluster_engine.snapshot_json import dump_json
from tests.conftest import corpus_files, corpus_id

SNAPSHOTS = Path(__file__).resolve().parents[2] / "fixtures" / "cluster" / "snapshots"


def same(snapshot: Snapshot) -> None:
    assert "".join(dump_json(snapshot)) == snapshot.model_dump_json(indent=2)


@pytest.mark.parametrize("path", sorted(p for p in SNAPSHOTS.iterdir() if p.name != "README.md"))
def test_fixture_snapshots(path: Path) -> None:
    same(load_snapshot(path))


@pytest.mark.parametrize("path", corpus_files("cli", "*.txt"), ids=corpus_id)
def test_snapshots_of_real_captures(path: Path) -> None:
    try:
        snapshot = load_snapshot(path)
    except ClusterInputError:
        pytest.skip("a capture the assembler refuses (pinned in test_corpus)")
    same(snapshot)


def test_every_kind_of_partition_and_name() -> None:
    parts = [
        Partition(topic='é "q" \\ \u2028', partition=1, replicas=(3, 1), leader=3, isr=(3,)),
        Partition(
            topic='é "q" \\ \u2028',
            partition=0,
            replicas=(1, 2),
            leader=None,
            elr=(),
            last_known_elr=(2,),
            adding_replicas=(2,),
            removing_replicas=(1,),
        ),
    ]
    snapshot = Snapshot.model_validate(
        {
            "cluster_id": 'x\n"partitions": []',
            "topics": [
                {"name": 'é "q" \\ \u2028', "partitions": Partitions.of(parts)},
                {"name": "empty", "described_configs": {"partitions": "[]"}},
                {"name": "t", "partitions": [{"partition": 0, "replicas": [1]}]},
            ],
            "configs": {"topics": {"t": {'\n      "partitions": []': "v"}}},
        }
    )
    same(snapshot)
    same(Snapshot())
