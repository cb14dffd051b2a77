"""The snapshot model: validation, queries, the hand-written 3-broker fixture."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from cluster_engine.snapshot import (
    Configs,
    Partition,
    ReassignmentState,
    Snapshot,
    Topic,
    throttled_replicas,
)
from tests.conftest import FIXTURES

THREE_BROKERS = FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml"


def load(path: Path) -> Snapshot:
    return Snapshot.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def test_three_broker_fixture_holds_what_the_simulator_needs() -> None:
    s = load(THREE_BROKERS)
    assert s.index.broker_ids == (1, 2, 3)
    assert s.index.controller_ids == (101, 102, 103)
    assert s.metadata_version is not None
    assert (s.metadata_version.level, s.metadata_version.label) == (27, "4.1-IV1")
    assert s.elr_enabled
    assert s.kraft_version == 0
    assert {t.name: (t.partition_count, t.replication_factor) for t in s.topics} == {
        "orders": (6, 3),
        "payments": (3, 3),
    }
    assert s.min_insync_replicas("orders") == 2
    assert not s.unclean_leader_election("orders")
    assert len(s.index.partitions_on(1)) == 9
    assert [p.partition for p in s.index.leaders_by_broker[1]] == [0, 3, 0]
    assert s.index.partition_size("orders", 0) == 1 << 30
    assert list(s.index.in_flight()) == []


def test_json_round_trip_is_identity() -> None:
    s = load(THREE_BROKERS)
    assert Snapshot.model_validate_json(s.model_dump_json()) == s


def test_effective_config_precedence() -> None:
    s = Snapshot(
        topics=(Topic(name="t", described_configs={"retention.ms": "5"}),),
        configs=Configs(
            cluster_default={"min.insync.replicas": "2"},
            brokers={1: {"min.insync.replicas": "3"}},
            broker_static={2: {"log.retention.ms": "9"}},
            topics={"t": {"unclean.leader.election.enable": "true"}},
        ),
    )
    assert s.min_insync_replicas("t") == 2
    assert s.min_insync_replicas("t", broker=1) == 3
    assert s.min_insync_replicas("other") == 2
    assert s.unclean_leader_election("t")
    assert not s.unclean_leader_election("other")
    assert s.effective_config("retention.ms", topic="t") == "5"
    via_broker = s.effective_config(
        "retention.ms", topic="t", broker=2, broker_key="log.retention.ms"
    )
    assert via_broker == "9"
    assert s.effective_config("nothing", default="d") == "d"
    assert Snapshot().min_insync_replicas("t") == 1


def test_topic_fills_partition_topic_names_and_checks_them() -> None:
    t = Topic.model_validate({"name": "a", "partitions": [{"partition": 0, "replicas": [1]}]})
    assert t.partitions[0].key == ("a", 0)
    with pytest.raises(ValidationError, match="listed twice"):
        Topic.model_validate(
            {"name": "a", "partitions": [{"partition": 0, "replicas": [1]}] * 2}
        )
    with pytest.raises(ValidationError, match="names topic"):
        Topic(name="a", partitions=(Partition(topic="b", partition=0, replicas=(1,)),))


def test_duplicates_and_unknown_keys_are_refused() -> None:
    with pytest.raises(ValidationError, match="node 1 is listed twice"):
        Snapshot.model_validate({"nodes": [{"id": 1}, {"id": 1}]})
    with pytest.raises(ValidationError, match="Extra inputs"):
        Snapshot.model_validate({"nodez": []})


def test_replication_factor_excludes_adding_replicas() -> None:
    p = Partition(topic="t", partition=0, replicas=(1, 2, 3, 4), adding_replicas=(4,))
    assert p.replication_factor == 3
    assert ReassignmentState("in-progress") is ReassignmentState.IN_PROGRESS


def test_throttled_replicas_parsing() -> None:
    assert throttled_replicas("*") == "*"
    assert throttled_replicas("") == {}
    assert throttled_replicas("1:102,0:101,1:101") == {
        1: frozenset({101, 102}),
        0: frozenset({101}),
    }


def test_a_copy_gets_a_fresh_index() -> None:
    s = load(THREE_BROKERS)
    assert len(s.index.partitions_on(1)) == 9
    fewer = s.model_copy(update={"topics": s.topics[:1]})
    assert len(fewer.index.partitions_on(1)) == 6
    assert len(s.index.partitions_on(1)) == 9
    assert not fewer.quorum_is_dynamic
