"""The fleet dashboard from a summary: self-contained, and hostile names stay text."""

from __future__ import annotations

from typing import Any

import pytest

from linter.fleet.dashboard import render_dashboard

HOSTILE = '<img src=x onerror=alert(1)>'


def _summary() -> dict[str, Any]:
    app = {"app_id": HOSTILE, "application_id": None, "status": "scanned", "versions": 2,
           "latest_version": "v2", "deployed_version": "v1", "verdict": "unsafe",
           "strategy": "application-reset", "errors": 3, "warnings": 1, "infos": 0,
           "fleet_findings": 1, "risk": 310}  # fmt: skip
    return {
        "input": "fleet/", "plan": "plan.yaml", "rows_in": 2, "apps_in": 1, "apps_scanned": 1,
        "apps_quarantined": 0, "consistent": True,
        "findings": {"error": 3, "warning": 1, "info": 0}, "verdicts": {"unsafe": 1},
        "rules": [{"rule": "KS801", "name": "upstream-key-change", "severity": "error",
                   "check": "lineage", "count": 3}],
        "worst_apps": [app], "quarantined": [{"app_id": "q", "error": f"q/v1:1:1: {HOSTILE}"}],
        "lineage": {"edges": 1, "risky_edges": 1, "topics": 1, "risky": [
            {"upstream_app": HOSTILE, "topic": "orders", "downstream_app": "totals"}]},
        "plan_findings": [{"rule": "KS805", "name": "partitions-added-stateful",
                           "severity": "error", "message": HOSTILE, "step": 0,
                           "fingerprint": "f"}],
        "tables": {"findings": "findings.parquet", "apps": "apps.parquet",
                   "lineage": "lineage.parquet"},
    }  # fmt: skip


def test_hostile_names_are_escaped_and_nothing_is_fetched() -> None:
    html = render_dashboard(_summary())
    assert HOSTILE not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    for remote in ('src="http', 'href="http', "url(http", "<script"):
        assert remote not in html


def test_same_summary_same_bytes() -> None:
    assert render_dashboard(_summary()) == render_dashboard(_summary())


def test_worst_apps_histogram_and_risky_lineage_are_shown() -> None:
    html = render_dashboard(_summary())
    assert "Worst apps first" in html
    assert "upstream-key-change" in html
    assert "<svg" in html
    assert "plan step" not in html or "partitions-added-stateful" in html


@pytest.mark.browser
def test_in_a_real_browser_nothing_runs_or_loads_and_every_part_shows(browser: Any) -> None:
    """Headless Chromium: no script error, no request but the file, the hostile names' markup
    never runs (no dialog), and the cards, tables and lineage drawing are there, as text."""
    from tests.browser import ARTIFACTS, open_report

    opened = open_report(browser, render_dashboard(_summary()), "fleet-dashboard-hostile")
    opened.check_clean()
    page = opened.page
    assert page.locator("img").count() == 0
    rows = page.locator("h2:has-text('Worst apps first') + table tr")
    assert rows.count() == 2  # the header and the one app
    assert HOSTILE in rows.nth(1).inner_text()
    histogram = page.locator("h2:has-text('by rule') + table").inner_text()
    assert "KS801 upstream-key-change" in histogram
    # the one risky edge: upstream app -> topic -> downstream app, three boxes and two lines
    assert (opened.visible("svg rect"), opened.visible("svg line")) == (3, 2)
    overflow = page.evaluate(
        "() => Array.from(document.querySelectorAll('svg g')).filter(g =>"
        " g.querySelector('text').getBBox().width > g.querySelector('rect').getBBox().width - 6)"
        ".length"
    )
    assert overflow == 0  # long names are cut to fit their box (whole in the box's tooltip)
    assert "KS805" in page.locator("h2:has-text('Cluster plan') + table").inner_text()
    page.screenshot(path=str(ARTIFACTS / "fleet-dashboard-hostile.png"), full_page=True)
