"""Whole-report properties of the cluster checks that single-rule cases cannot pin."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from cluster_engine.ingest import load_snapshot
from cluster_engine.plan import parse_plan
from linter import api
from linter.report import render
from linter.report.text import render_text
from rules.cluster import CLUSTER_RULES
from rules.framework import Severity
from tests.conftest import ROOT
from tests.rules.cluster.cases import captured, snapshot_of
from tests.rules.cluster.test_catalogue import MOVE

RF1 = {"capture_dir": "fixtures/cluster/snapshots/rf1-topic"}
# the captures of the case where the snapshot shows controller 104 lagging
LAGGING_CONTROLLER = yaml.safe_load(
    (ROOT / "fixtures/cluster/cases/controller-not-caught-up.yml").read_text(encoding="utf-8")
)["cases"][0]["captures"]


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
    # the verdict passes the roll but says it costs an outage, never a bare "safe"
    assert report.notes == (
        "Safe only with a brief outage: audit (RF 1) go offline while their broker restarts.",
    )
    assert "Verdict: safe\n  note: Safe only with a brief outage: audit" in render_text(report)


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
    assert hit.step == 1
    assert "broker 4" in hit.message


def test_a_restart_without_topic_capture_is_not_judged_safe_silently() -> None:
    snapshot = captured({"captures": {"topics.txt": None, "log-dirs.txt": None}})
    assert snapshot.topics == ()
    assert not snapshot.has("topics")
    report = api.cluster_check(snapshot, parse_plan("- restart: {nodes: [1, 2]}\n", "p.yml"))
    assert report.notes == ("not checked: no topic capture, step(s) 1 (restart)",)
    assert [f.name for f in report.findings] == ["facts-not-captured"]
    text = render_text(report)
    assert "Verdict: safe\n  note: not checked: no topic capture, step(s) 1 (restart)\n" in text


def test_unread_capture_files_are_named_in_the_report(tmp_path: Path) -> None:
    shutil.copytree(ROOT / RF1["capture_dir"], tmp_path / "c")
    (tmp_path / "c" / "old").mkdir()
    (tmp_path / "c" / "topics.txt").rename(tmp_path / "c" / "old" / "topics.txt")
    report = api.cluster_check(
        load_snapshot(tmp_path / "c"), parse_plan("- rolling-restart: {}\n", "p.yml")
    )
    [unread] = [f for f in report.findings if f.resources[0].kind == "file"]
    assert str(tmp_path / "c" / "old") in unread.message
    assert "a subdirectory" in unread.message


LEADERLESS = (
    "$ bin/kafka-topics.sh --bootstrap-server broker-1:9092 --describe\n"
    "Topic: orders\tTopicId: Tn3mXo2hS2yq6Gm0fM4r1Q\tPartitionCount: 1\tReplicationFactor: 3\t"
    "Configs: min.insync.replicas=2\n"
    "\tTopic: orders\tPartition: 0\tLeader: none\tReplicas: 1,2,3\tIsr: 1\tElr: \tLastKnownElr: \n"
)
# The snapshot each new rule's doc example is run on (a case spec of tests.rules.cluster.cases).
EXAMPLE_SNAPSHOTS: dict[str, dict[str, Any]] = {
    "partitions-added-keyed": {},
    "throttle-below-produce-rate": {},
    "unclean-election-enabled-leaderless": {
        "captures": {"topics.txt": LEADERLESS, "log-dirs.txt": None}
    },
    "controller-not-caught-up": {"captures": LAGGING_CONTROLLER},
    "controller-removed-while-leading": {
        "patch": {
            "features": {"kraft.version": {"level": 1, "supported_min": 0, "supported_max": 1}}
        }
    },
    "controller-lag-unknown": {
        "patch": {
            "features": {"kraft.version": {"level": 1, "supported_min": 0, "supported_max": 1}}
        }
    },
    "restart-unavoidable-outage": RF1,
    "facts-not-captured": {"captures": {"topics.txt": None, "log-dirs.txt": None}},
}


@pytest.mark.parametrize("name", sorted(EXAMPLE_SNAPSHOTS))
def test_doc_example_fires(name: str, tmp_path: Path) -> None:
    r = next(r for r in CLUSTER_RULES if r.name == name)
    doc = r.doc
    example = textwrap.dedent(doc[doc.index("Example:") + len("Example:") : doc.index("\nFix:")])
    (tmp_path / "move.json").write_text(MOVE, encoding="utf-8")
    plan = parse_plan(example, f"{name} example", base_dir=tmp_path)
    report = api.cluster_check(snapshot_of(EXAMPLE_SNAPSHOTS[name]), plan)
    assert name in {f.name for f in report.findings}


@pytest.mark.parametrize("fmt", ["markdown", "github", "sarif", "json", "html"])
def test_the_verdict_note_reaches_every_format(fmt: str) -> None:
    snapshot = captured({"captures": {"topics.txt": None, "log-dirs.txt": None}})
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
    snapshot = captured(
        {"captures": {"topics.txt": topics, "configs.txt": configs, "log-dirs.txt": None}}
    )
    report = api.cluster_check(snapshot, parse_plan("- rolling-restart: {}\n", "roll.yml"))
    assert [(f.name, f.severity) for f in report.findings] == [
        ("min-isr-not-below-rf", Severity.WARNING)
    ]
