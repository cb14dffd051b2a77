"""Whole-report properties of the cluster checks that single-rule cases cannot pin."""

from __future__ import annotations

from cluster_engine.plan import parse_plan
from linter import api
from rules.framework import Severity
from tests.rules.cluster.cases import captured, snapshot_of

RF1 = {"capture_dir": "fixtures/cluster/snapshots/rf1-topic"}


def test_roll_of_a_cluster_with_an_rf1_topic_passes_with_one_warning() -> None:
    plan = parse_plan(
        "- rolling-restart: {}\n- upgrade-binaries: {nodes: [1, 2, 3], version: 4.1.1}\n",
        "roll.yml",
    )
    report = api.cluster_check(captured(RF1), plan)
    assert [(f.name, f.severity) for f in report.findings] == [
        ("restart-unavoidable-outage", Severity.WARNING)
    ]
    assert not report.fails(Severity.ERROR)


def test_a_snapshot_produce_rate_is_weighed_against_the_throttle() -> None:
    snapshot = snapshot_of({})
    busy = tuple(
        t.model_copy(update={"produce_rate": 60_000_000}) if t.name == "orders" else t
        for t in snapshot.topics
    )
    plan = parse_plan(
        "- add-broker: {id: 4}\n"
        "- reassign:\n"
        "    partitions: [{topic: orders, partition: 0, replicas: [4, 2, 3]}]\n"
        "    throttle: 5000000\n",
        "move.yml",
    )
    quiet = api.cluster_check(snapshot, plan)
    fired = api.cluster_check(snapshot.model_copy(update={"topics": busy}), plan)
    assert "throttle-below-produce-rate" not in {f.name for f in quiet.findings}
    [hit] = [f for f in fired.findings if f.name == "throttle-below-produce-rate"]
    assert hit.step == 1 and "broker 4" in hit.message
