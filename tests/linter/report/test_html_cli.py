"""``--format html --output report.html`` on ``ksafe diff``, ``ksafe cluster check`` and the
combined ``ksafe report``."""

from __future__ import annotations

from pathlib import Path

from cluster_engine.ingest import load_snapshot
from cluster_engine.plan import load_plan
from linter.api import Acknowledgement, Settings, release
from linter.cli import main
from linter.topology.parse import parse_file
from rules.verdict import Verdict
from tests.conftest import FIXTURES

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


def test_a_release_is_judged_once_so_an_acknowledgement_of_either_half_is_used(
    topology_corpus: Path,
) -> None:
    before, after = (parse_file(p) for p in _pair(topology_corpus))
    ack = Acknowledgement(reason="reset planned", rule="store-renamed")
    report, simulation = release(
        Settings(acknowledgements=(ack,)),
        before=before,
        after=after,
        snapshot=load_snapshot(SNAPSHOT),
        plan=load_plan(PLAN),
    )
    assert report.kind == "combined"
    assert simulation is not None
    rules = {f.rule for f in report.findings}
    assert "KS201" in rules  # the topology half
    assert any(r.startswith("KC") for r in rules)  # the cluster half
    assert all(f.acknowledged == "reset planned" for f in report.findings if f.rule == "KS201")
    assert "acknowledgement-unused" not in {f.name for f in report.findings}
    assert set(report.inputs) == {"before", "after", "plan"}
    assert report.verdict is Verdict.UNSAFE  # the cluster plan still has errors
