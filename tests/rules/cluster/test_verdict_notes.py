"""A cluster verdict next to warnings says so, and every rule's severity follows the config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cluster_engine.ingest import load_snapshot
from cluster_engine.plan import parse_plan
from linter import api
from linter.cli import ksafe as cli
from linter.report.model import Report
from linter.report.text import render_text
from rules.framework import Severity
from rules.verdict import Verdict
from tests.conftest import ROOT

SNAPSHOT = ROOT / "fixtures/cluster/snapshots/three-brokers.yaml"
KRAFT_UP = "- update-feature: {feature: kraft.version, level: 1}\n"  # KC019 on a static quorum


def _check(settings: api.Settings | None = None) -> Report:
    settings = settings or api.Settings()
    return api.cluster_check(load_snapshot(SNAPSHOT), parse_plan(KRAFT_UP, "p.yml"), settings)


def test_safe_next_to_a_warning_says_it_is_not_a_clean_pass() -> None:
    report = _check()
    assert [(f.rule, f.severity) for f in report.findings] == [("KC019", Severity.WARNING)]
    assert report.verdict is Verdict.SAFE
    [note] = [n for n in report.notes if n.startswith("Safe with")]
    assert "1 warning" in note
    assert "KC019 quorum-static-config at step 1" in note
    text = render_text(report)
    verdict_at = text.index("Verdict: safe")
    assert text.index("Safe with 1 warning", verdict_at) > verdict_at


@pytest.mark.parametrize("severity", [Severity.INFO, Severity.ERROR])
def test_no_warning_note_without_a_live_warning(severity: Severity) -> None:
    report = _check(api.Settings(severities={"KC019": severity}))
    assert not [n for n in report.notes if n.startswith("Safe with")]


def test_an_acknowledged_warning_needs_no_note() -> None:
    ack = api.Acknowledgement(rule="KC019", reason="rolled with bootstrap servers already")
    report = _check(api.Settings(acknowledgements=(ack,)))
    assert [f.acknowledged for f in report.findings] == ["rolled with bootstrap servers already"]
    assert not [n for n in report.notes if n.startswith("Safe with")]


def test_ks302_severity_follows_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "b.properties").write_text("topology.optimization=all\n", encoding="utf-8")
    (tmp_path / "a.properties").write_text("topology.optimization=none\n", encoding="utf-8")
    (tmp_path / "ksafe.toml").write_text('[severity]\nKS302 = "warning"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args = ["diff", "--config-before", "b.properties", "--config-after", "a.properties"]
    result = CliRunner().invoke(cli, [*args, "--format", "json"])
    findings = json.loads(result.output)["findings"]
    severities = {f["severity"] for f in findings if f["rule"] == "KS302"}
    assert severities == {"warning"}


def test_a_release_notes_the_cluster_warnings_too() -> None:
    report, _ = api.release(snapshot=load_snapshot(SNAPSHOT), plan=parse_plan(KRAFT_UP, "p.yml"))
    assert report.verdict is Verdict.SAFE
    assert [n for n in report.notes if "KC019 quorum-static-config at step 1" in n]
