"""Whole-report properties of the cluster checks that single-rule cases cannot pin."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cluster_engine.ingest import load_snapshot
from cluster_engine.plan import parse_plan
from linter import api
from linter.report import render
from linter.report.text import render_text
from rules.framework import Severity
from tests.conftest import ROOT
from tests.rules.case_model import SnapshotSpec
from tests.rules.case_run import snapshot_of

RF1 = SnapshotSpec(capture_dir="fixtures/cluster/snapshots/rf1-topic")


def test_roll_of_a_cluster_with_an_rf1_topic_passes_with_one_warning() -> None:
    plan = parse_plan(
        "- rolling-restart: {}\n- upgrade-binaries: {nodes: [1, 2, 3], version: 4.1.1}\n",
        "roll.yml",
    )
    report = api.cluster_check(snapshot_of(RF1), plan)
    assert [(f.name, f.severity) for f in report.findings] == [
        ("restart-unavoidable-outage", Severity.WARNING)
    ]
    assert not report.fails(Severity.ERROR)
    # the verdict passes the roll but says it costs an outage, never a bare "safe"
    assert report.notes == (
        "Safe only with a brief outage: audit (RF 1) go offline while their broker restarts.",
    )
    assert "Verdict: safe\n  note: Safe only with a brief outage: audit" in render_text(report)


def test_a_snapshot_produce_rate_is_weighed_against_the_throttle() -> None:
    snapshot = snapshot_of(SnapshotSpec())
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
    assert hit.step == 1
    assert "broker 4" in hit.message


def test_a_restart_without_topic_capture_is_not_judged_safe_silently() -> None:
    snapshot = snapshot_of(SnapshotSpec(captures={"topics.txt": None, "log-dirs.txt": None}))
    assert snapshot.topics == ()
    assert not snapshot.has("topics")
    report = api.cluster_check(snapshot, parse_plan("- restart: {nodes: [1, 2]}\n", "p.yml"))
    assert report.notes == ("not checked: no topic capture, step(s) 1 (restart)",)
    assert [f.name for f in report.findings] == ["facts-not-captured"]
    text = render_text(report)
    assert "Verdict: safe\n  note: not checked: no topic capture, step(s) 1 (restart)\n" in text


def test_unread_capture_files_are_named_in_the_report(tmp_path: Path) -> None:
    shutil.copytree(ROOT / str(RF1.capture_dir), tmp_path / "c")
    (tmp_path / "c" / "old").mkdir()
    (tmp_path / "c" / "topics.txt").rename(tmp_path / "c" / "old" / "topics.txt")
    report = api.cluster_check(
        load_snapshot(tmp_path / "c"), parse_plan("- rolling-restart: {}\n", "p.yml")
    )
    [unread] = [f for f in report.findings if f.resources[0].kind == "file"]
    assert str(tmp_path / "c" / "old") in unread.message
    assert "a subdirectory" in unread.message


@pytest.mark.parametrize("fmt", ["markdown", "github", "sarif", "json", "html"])
def test_the_verdict_note_reaches_every_format(fmt: str) -> None:
    snapshot = snapshot_of(SnapshotSpec(captures={"topics.txt": None, "log-dirs.txt": None}))
    report = api.cluster_check(snapshot, parse_plan("- restart: {nodes: [1, 2]}\n", "p.yml"))
    assert "not checked: no topic capture, step(s) 1 (restart)" in render(report, fmt)


def test_roll_with_min_isr_above_rf_warns_once_and_passes() -> None:
    topics = (
        "$ bin/kafka-topics.sh --bootstrap-server broker-1:9092 --describe\n"
        "Topic: ledger\tTopicId: Lg4sWq9RT1eYc6Hn0vBp5K\tPartitionCount: 2\tReplicationFactor: 2\t"
        "Configs: min.insync.replicas=3\n"
        "\tTopic: ledger\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\tElr: \tLastKnownElr: \n"
        "\tTopic: ledger\tPartition: 1\tLeader: 3\tReplicas: 3,1\tIsr: 3,1\tElr: \tLastKnownElr: \n"
    )
    configs = (
        "$ bin/kafka-configs.sh --bootstrap-server broker-1:9092 --entity-type topics "
        "--entity-name ledger --describe\n"
        "Dynamic configs for topic ledger are:\n"
        "  min.insync.replicas=3 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:"
        "min.insync.replicas=3, DEFAULT_CONFIG:min.insync.replicas=1}\n"
    )
    snapshot = snapshot_of(
        SnapshotSpec(captures={"topics.txt": topics, "configs.txt": configs, "log-dirs.txt": None})
    )
    report = api.cluster_check(snapshot, parse_plan("- rolling-restart: {}\n", "roll.yml"))
    assert [(f.name, f.severity) for f in report.findings] == [
        ("min-isr-not-below-rf", Severity.WARNING)
    ]
