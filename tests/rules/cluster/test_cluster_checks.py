"""Whole-report properties of the cluster checks that single-rule cases cannot pin."""

from __future__ import annotations

from cluster_engine.plan import parse_plan
from linter import api
from rules.framework import Severity
from tests.rules.cluster.cases import captured

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
