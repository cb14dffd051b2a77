"""The cluster runner and ``api.cluster_check``: plan lines, fingerprints, settings."""

from __future__ import annotations

from pathlib import Path

import yaml

from cluster_engine.plan import parse_plan
from cluster_engine.snapshot import Snapshot
from linter import api
from rules.framework import Severity
from rules.verdict import Verdict
from tests.conftest import FIXTURES

SNAPSHOT = Snapshot.model_validate(
    yaml.safe_load(
        Path(FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml").read_text(encoding="utf-8")
    )
)
TWICE = "- restart: {nodes: [1, 2]}\n- rolling-restart: {}\n- restart: {nodes: [2, 3]}\n"


def test_each_step_gets_its_own_finding_and_fingerprint() -> None:
    report = api.cluster_check(SNAPSHOT, parse_plan(TWICE, "plan.yml"))
    restarts = [f for f in report.findings if f.rule == "KC011"]
    assert sorted((f.step, f.line) for f in restarts) == [(0, 1), (2, 3)]
    assert len({f.fingerprint for f in restarts}) == 2
    assert all(f.locations[0].path == "plan.yml" for f in restarts)
    assert report.verdict is Verdict.UNSAFE


def test_fingerprints_do_not_depend_on_lines() -> None:
    shifted = "- elect-leaders: {type: preferred}\n" + TWICE
    a = api.cluster_check(SNAPSHOT, parse_plan(TWICE, "plan.yml"))
    b = api.cluster_check(SNAPSHOT, parse_plan(shifted, "plan.yml"))
    fa = {f.fingerprint for f in a.findings if f.rule == "KC011"}
    fb = {f.fingerprint for f in b.findings if f.rule == "KC011"}
    assert fa == fb


def test_settings_select_and_override() -> None:
    plan = parse_plan(TWICE, "plan.yml")
    quiet = api.cluster_check(SNAPSHOT, plan, api.Settings(ignore=frozenset({"KC011"})))
    assert not [f for f in quiet.findings if f.rule == "KC011"]
    softer = api.cluster_check(
        SNAPSHOT, plan, api.Settings(severities={"restart-breaks-min-isr": Severity.WARNING})
    )
    assert {f.severity for f in softer.findings if f.rule == "KC011"} == {Severity.WARNING}
    assert softer.verdict is not Verdict.UNSAFE


def test_snapshot_findings_point_at_the_snapshot() -> None:
    data = SNAPSHOT.model_dump()
    data["configs"]["topics"]["payments"] = {"unclean.leader.election.enable": "true"}
    snapshot = Snapshot.model_validate(data)
    report = api.cluster_check(snapshot, parse_plan("[]", "plan.yml"), snapshot_path="snap.yaml")
    (finding,) = [f for f in report.findings if f.rule == "KC020"]
    assert finding.step is None
    assert finding.line is None
    assert finding.locations[0].side == "snapshot"
    assert finding.locations[0].path is not None
    assert finding.locations[0].path.endswith("snap.yaml")
    assert report.inputs["snapshot"].endswith("snap.yaml")


def test_simulation_is_returned_for_timelines() -> None:
    report, sim = api.cluster_simulation(SNAPSHOT, parse_plan(TWICE, "plan.yml"))
    summaries = sim.summaries()
    assert [s.step for s in summaries] == [None, 0, 1, 2]
    assert summaries[1].worst_under_min_isr == 9
    assert report.kind == "cluster"
