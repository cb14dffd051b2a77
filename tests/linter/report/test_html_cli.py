"""``--format html --output report.html`` on ``ksafe diff``, ``ksafe cluster check`` and the
combined ``ksafe report``."""

from __future__ import annotations

from pathlib import Path

from linter.cli import main
from linter.report.combine import combine
from rules.verdict import Verdict
from tests.conftest import FIXTURES
from tests.linter.report.sample import cluster_report, diff_report

DSL_NAMING = "kafka-docs/dsl-topology-naming"
SNAPSHOT = FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml"
PLAN = FIXTURES / "reports" / "html" / "restart-two-then-bump.yaml"


def _pair(corpus: Path) -> tuple[str, str]:
    return (str(corpus / DSL_NAMING / "03_stateful_count_unnamed.txt"),
            str(corpus / DSL_NAMING / "04_stateful_count_unnamed_plus_filter.txt"))


def test_diff_writes_an_html_report_with_its_diagrams(
    topology_corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    code = main(["diff", *_pair(topology_corpus), "--application-id", "wc", "--format", "html",
                 "--output", str(out)])
    assert code == 1  # the store index shift is an error
    html = out.read_text(encoding="utf-8")
    assert 'id="diagram-before"' in html
    assert 'id="diagram-after"' in html
    assert "wc-KSTREAM-AGGREGATE-STATE-STORE-0000000002-changelog" in html


def test_cluster_check_writes_its_timeline(tmp_path: Path) -> None:
    out = tmp_path / "cluster.html"
    code = main(["cluster", "check", "--snapshot", str(SNAPSHOT), "--plan", str(PLAN),
                 "--format", "html", "--output", str(out)])
    assert code == 1
    html = out.read_text(encoding="utf-8")
    assert html.count('<tr id="step-') == 6  # the snapshot and five steps


def test_report_combines_an_app_upgrade_and_a_cluster_plan(
    topology_corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "release.html"
    before, after = _pair(topology_corpus)
    code = main(["report", "--topology-before", before, "--topology-after", after,
                 "--snapshot", str(SNAPSHOT), "--plan", str(PLAN), "--output", str(out)])
    assert code == 1
    html = out.read_text(encoding="utf-8")
    assert "Release risk report" in html
    assert 'id="diagram-after"' in html
    assert html.count('<tr id="step-') == 6
    assert 'href="#rule-KS201"' in html


def test_report_needs_something_to_report() -> None:
    assert main(["report"]) == 2
    assert main(["report", "--plan", str(PLAN)]) == 2


def test_combine_keeps_the_worst_verdict_and_every_finding() -> None:
    combined = combine([diff_report(), cluster_report()])
    assert combined.kind == "combined"
    assert combined.verdict is Verdict.UNSAFE
    assert len(combined.findings) == len(diff_report().findings) + len(cluster_report().findings)
    assert set(combined.inputs) == {"before", "after", "snapshot", "plan"}
