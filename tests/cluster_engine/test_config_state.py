"""The one config resolver: Kafka's precedence, level by level, as the simulator and the
snapshot's queries both see it."""

from __future__ import annotations

import pytest

from cluster_engine.config_state import ConfigState
from cluster_engine.snapshot import Configs, Snapshot, Topic
from cluster_engine.state import initial_state

KEY = "min.insync.replicas"


def _configs(levels: set[str]) -> ConfigState:
    """A key set at each of ``levels``, each level with its own value."""
    return ConfigState.of(
        cluster={KEY: "cluster"} if "cluster" in levels else {},
        brokers={1: {KEY: "broker-1"}, 2: {}} if "broker" in levels else {},
        static={1: {KEY: "static-1"}, 2: {KEY: "static-2"}} if "static" in levels else {},
        topics={"t": {KEY: "topic"}} if "topic" in levels else {},
        described={"t": {KEY: "described"}} if "described" in levels else {},
    )


ALL = {"topic", "broker", "cluster", "static", "described"}


@pytest.mark.parametrize(
    ("levels", "expected"),
    [
        (ALL, "topic"),
        (ALL - {"topic"}, "broker-1"),
        (ALL - {"topic", "broker"}, "cluster"),
        (ALL - {"topic", "broker", "cluster"}, "static-1"),
        ({"described"}, "described"),
        (set(), None),
    ],
)
def test_topic_value_on_a_broker_follows_kafkas_precedence(
    levels: set[str], expected: str | None
) -> None:
    assert _configs(levels).topic_value("t", KEY, broker=1) == expected


def test_the_dynamic_broker_level_is_that_brokers_own() -> None:
    configs = _configs(ALL - {"topic"})
    assert configs.topic_value("t", KEY, broker=1) == "broker-1"
    # broker 2 has no dynamic value of its own: the cluster-wide default applies to it
    assert configs.topic_value("t", KEY, broker=2) == "cluster"
    assert _configs({"static"}).topic_value("t", KEY, broker=2) == "static-2"


def test_without_a_broker_the_per_broker_dynamic_level_is_unknown() -> None:
    assert _configs({"broker", "cluster"}).topic_value("t", KEY) == "cluster"
    assert _configs({"broker", "described"}).topic_value("t", KEY) == "described"


def test_broker_key_names_the_broker_level_synonym() -> None:
    configs = ConfigState.of(
        cluster={},
        brokers={1: {"log.retention.ms": "7"}},
        static={},
        topics={},
        described={"t": {"retention.ms": "5"}},
    )
    assert configs.topic_value("t", "retention.ms", broker=1) == "5"
    assert configs.topic_value("t", "retention.ms", broker=1, broker_key="log.retention.ms") == "7"


def test_snapshot_queries_and_the_simulator_use_the_same_resolver() -> None:
    snapshot = Snapshot(
        topics=(
            Topic.model_validate({"name": "t", "partitions": [{"partition": 0, "replicas": [1]}]}),
        ),
        configs=Configs(brokers={1: {KEY: "3"}}, broker_static={1: {KEY: "2"}, 2: {KEY: "2"}}),
    )
    state = initial_state(snapshot)
    assert state.configs == snapshot.config_state
    assert snapshot.min_insync_replicas("t", broker=1) == 3
    assert snapshot.min_insync_replicas("t", broker=2) == 2
    assert snapshot.min_insync_replicas("t") == state.topic_min_isr["t"] == 2
