"""The HTML report in a real headless Chromium (Debian's ``chromium``), driven by playwright.

Each report is opened from disk; the test records every console message, every request and
every dialog. A report passes when nothing is logged as an error, the only request is the file
itself, nothing from the input runs, and the findings, diagram and controls are there and work.
The pages and their screenshots are kept under ``artifacts/html-report/`` (not committed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from linter import api
from linter.report.html import build_context, render_html
from linter.report.result import Result
from linter.report.timeline import timeline_from_simulation
from tests.browser import ARTIFACTS, Opened, open_report
from tests.linter.report.html_samples import (
    HOSTILE,
    HOSTILE_STORE,
    HOSTILE_TOPIC,
    big_description,
    cluster_plan,
    corpus_pair,
    hostile_report,
    word_count,
)

pytestmark = pytest.mark.browser

DSL_NAMING = "kafka-docs/dsl-topology-naming"


def screenshot(opened: Opened, name: str) -> None:
    opened.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    diagram = opened.page.locator(".diagram-set.split")
    if not diagram.count():
        diagram = opened.page.locator(".diagram.active")
    if diagram.count():
        diagram.screenshot(path=str(ARTIFACTS / f"{name}-diagram.png"))


def test_a_real_upgrade_report(browser: Any, topology_corpus: Path) -> None:
    before, after, diff, report = corpus_pair(
        topology_corpus,
        f"{DSL_NAMING}/03_stateful_count_unnamed.txt",
        f"{DSL_NAMING}/04_stateful_count_unnamed_plus_filter.txt",
    )
    html = render_html(Result(
        report,
        before=before,
        after=after,
        diff=diff,
        settings=api.Settings(application_id="word-count"),
    ))
    opened = open_report(browser, html, "dsl-naming-03-to-04")
    page = opened.page
    opened.check_clean()

    assert page.locator("[data-verdict]").inner_text() == "Unsafe"
    assert page.locator("article.finding").count() == len(report.findings)
    assert page.locator("article.finding a.rule").count() == len(report.findings)
    for href in page.locator("article.finding a.rule").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))"
    ):
        assert page.locator(href).count() == 1, f"{href} has no doc section"
    assert "KS201" in page.locator("#rules").inner_text()

    context = build_context(Result(report, before=before, after=after, diff=diff))
    after_scene = context["diagrams"][1]
    assert page.locator("#diagram-after g.node").count() == len(after_scene["nodes"])
    assert opened.visible("#diagram-after g.box") == 1
    assert opened.visible("#diagram-after g.node.k-store") == 1
    assert opened.visible("#diagram-after g.node.k-topic") == 2
    assert opened.visible("#diagram-after g.node.s-added") == 1  # the inserted filter
    assert opened.visible("#diagram-after g.node.k-store.s-renamed") == 1
    screenshot(opened, "dsl-naming-03-to-04")

    page.click(".tab[data-tab=split]")
    assert opened.visible("#diagram-before g.node") == len(context["diagrams"][0]["nodes"])
    assert opened.visible("#diagram-after g.node") == len(after_scene["nodes"])
    screenshot(opened, "dsl-naming-03-to-04-side-by-side")
    page.click(".tab[data-tab=before]")
    assert opened.visible("#diagram-before g.node.k-store.s-renamed") == 1
    assert opened.visible("#diagram-after g.node") == 0

    # Zoom, collapse and the details panel.
    svg = page.locator("#diagram-before svg.graph")
    zoom = float(svg.get_attribute("data-zoom") or 0)
    page.click("#diagram-before [data-action=zoom-in]")
    assert float(svg.get_attribute("data-zoom") or 0) > zoom
    page.click("#diagram-before [data-action=fit]")
    page.click("#diagram-before .toggle")
    assert opened.visible("#diagram-before g.node[data-in]") == 0
    assert page.locator("#diagram-before g.box").get_attribute("data-collapsed") == "1"
    page.click("#diagram-before .toggle")
    assert opened.visible("#diagram-before g.node[data-in]") == 5
    page.click("#diagram-before g.node.k-store")
    details = page.locator("#diagram-before .details").inner_text()
    assert "KSTREAM-AGGREGATE-STATE-STORE-0000000001" in details
    assert "word-count-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog" in details
    opened.check_clean()
    page.close()


def test_an_optimized_repartition_report(browser: Any, topology_corpus: Path) -> None:
    before, after, diff, report = corpus_pair(
        topology_corpus,
        "kafka/RepartitionTopicNamingTest/EXPECTED_UNOPTIMIZED_TOPOLOGY.txt",
        "kafka/RepartitionTopicNamingTest/EXPECTED_OPTIMIZED_TOPOLOGY.txt",
    )
    html = render_html(Result(report, before=before, after=after, diff=diff))
    opened = open_report(browser, html, "repartition-unoptimized-to-optimized")
    opened.check_clean()
    page = opened.page
    assert page.locator("article.finding").count() == len(report.findings)
    boxes = len(after.topologies[0].subtopologies)
    assert opened.visible("#diagram-after g.box") == boxes
    assert opened.visible("#diagram-after g.node.r-repartition") >= 1
    page.click(".tab[data-tab=before]")
    assert opened.visible("#diagram-before g.node.r-repartition.s-removed") >= 1
    page.click(".tab[data-tab=after]")
    screenshot(opened, "repartition-unoptimized-to-optimized")
    page.close()


def test_hostile_names_render_as_text(browser: Any) -> None:
    html = render_html(Result(
        hostile_report(),
        before=word_count(False, hostile=True),
        after=word_count(True, hostile=True),
    ))
    opened = open_report(browser, html, "hostile-names")
    page = opened.page
    opened.check_clean()
    assert page.locator("img").count() == 0
    assert page.locator("svg").count() == 2  # the two diagrams; none made from a topic name
    assert page.locator("script").count() == 2
    assert page.locator("svg.graph text", has_text=HOSTILE).count() >= 1
    assert HOSTILE_STORE in page.locator("article.finding .message").inner_text()
    assert HOSTILE in page.locator("#runbook").inner_text()
    assert HOSTILE_TOPIC in page.locator("#diagram-after").inner_text()

    # Through the page's script too: search, then the details panel.
    page.fill("#diagram-after .search", "onerror")
    assert page.locator("#diagram-after").get_attribute("data-matches") == "1"
    page.click("#diagram-after g.node.match >> nth=0")
    assert page.locator("#diagram-after .details h4").inner_text() == HOSTILE
    assert page.locator(".details img").count() == 0
    assert page.evaluate("() => typeof window.__ksafe_pwned") == "undefined"
    screenshot(opened, "hostile-names")
    opened.check_clean()
    page.close()


def test_a_300_node_topology_pans_zooms_and_folds(browser: Any) -> None:
    desc = big_description()
    html = render_html(Result(api.lint(desc), after=desc))
    opened = open_report(browser, html, "big-300-nodes")
    page = opened.page
    opened.check_clean()
    nodes = "#diagram-topology g.node:not(.k-topic):not(.k-store)"
    assert page.locator(nodes).count() == 300
    assert page.locator("#diagram-topology g.box").count() == 30
    assert opened.visible(nodes) == 0  # large and unchanged: starts collapsed, as an overview
    svg = page.locator("#diagram-topology svg.graph")
    assert "compact" in (svg.get_attribute("class") or "")
    assert float(svg.get_attribute("data-zoom") or 0) >= 0.45  # readable, not fitted to a dot
    screenshot(opened, "big-300-nodes-overview")
    page.click("#diagram-topology [data-action=expand-all]")
    assert opened.visible(nodes) == 300
    assert "compact" not in (svg.get_attribute("class") or "")
    page.click("#diagram-topology [data-action=fit]")
    screenshot(opened, "big-300-nodes")
    # Fitted, a 30-box column is too small to aim at: the click goes to the control itself.
    page.locator("#diagram-topology g.box >> nth=4 >> .toggle").dispatch_event("click")
    assert opened.visible(nodes) == 290

    world = page.locator("#diagram-topology .world")
    zoom = float(svg.get_attribute("data-zoom") or 0)
    box = svg.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -400)
    page.wait_for_timeout(100)
    assert float(svg.get_attribute("data-zoom") or 0) > zoom
    moved_from = world.get_attribute("transform")
    page.mouse.move(box["x"] + 20, box["y"] + 20)
    page.mouse.down()
    page.mouse.move(box["x"] + 220, box["y"] + 120, steps=5)
    page.mouse.up()
    assert world.get_attribute("transform") != moved_from
    page.click("#diagram-topology [data-action=collapse-all]")
    assert opened.visible(nodes) == 0
    opened.check_clean()
    page.close()


def test_a_cluster_plan_report(browser: Any) -> None:
    simulation, report = cluster_plan()
    html = render_html(Result(report, timeline=timeline_from_simulation(simulation)))
    opened = open_report(browser, html, "cluster-plan")
    page = opened.page
    opened.check_clean()
    assert page.locator("table.timeline tbody tr").count() == len(simulation.plan.steps) + 1
    restart = page.locator("tr#step-1")
    assert "restart" in restart.inner_text()
    assert restart.locator("td.hot").count() >= 1  # partitions under min ISR
    assert restart.locator("a.ref").count() >= 1  # its finding, pinned
    assert page.locator("svg.chart rect.bar").count() == 3 * (len(simulation.plan.steps) + 1)
    assert page.locator("article.finding").count() == len(report.findings)
    screenshot(opened, "cluster-plan")
    page.click("tr#step-1 a.ref >> nth=0")
    assert page.evaluate("() => location.hash").startswith("#finding-")
    page.close()


def test_a_combined_release_report(browser: Any, topology_corpus: Path) -> None:
    before, after, diff, _ = corpus_pair(
        topology_corpus,
        f"{DSL_NAMING}/04_stateful_count_unnamed_plus_filter.txt",
        f"{DSL_NAMING}/05_stateful_count_named_store_plus_filter.txt",
    )
    cluster_simulation, _ = cluster_plan()
    report, simulation = api.release(
        api.Settings(application_id="word-count"),
        before=before,
        after=after,
        snapshot=cluster_simulation.snapshot,
        plan=cluster_simulation.plan,
    )
    assert simulation is not None
    html = render_html(Result(
        report,
        before=before,
        after=after,
        diff=diff,
        timeline=timeline_from_simulation(simulation),
        settings=api.Settings(application_id="word-count"),
    ))
    opened = open_report(browser, html, "combined-release")
    page = opened.page
    opened.check_clean()
    assert page.locator("article.finding").count() == len(report.findings)
    assert page.locator(".diagram").count() == 2
    assert page.locator("table.timeline tbody tr").count() == len(simulation.plan.steps) + 1
    assert page.locator("[data-verdict]").inner_text() == "Unsafe"
    screenshot(opened, "combined-release")
    page.close()


def test_a_folded_report_opens_and_expands(browser: Any) -> None:
    """Past FOLD_OVER nodes: no diagram, sub-topology summaries that open on a click, names in
    their own bidi isolate."""
    from linter.report.folded import FOLD_OVER
    from linter.topology.diff import diff as match
    from linter.topology.parse import parse
    from tests.hardening.generators import topology_text

    per_side = FOLD_OVER // 2 + 100
    before = parse(topology_text(per_side, "many"), "before.txt")
    after = parse(topology_text(per_side, "many"), "after.txt")  # unchanged: all start closed
    report = api.diff(before, after)
    html = render_html(Result(report, before=before, after=after, diff=match(before, after)))
    opened = open_report(browser, html, "folded")
    page = opened.page
    opened.check_clean()
    assert page.locator("svg.graph").count() == 0
    folds = page.locator("details.fold")
    assert folds.count() > 0
    assert page.locator("details.fold[open]").count() == 0
    first = folds.first
    assert first.locator("li").first.is_visible() is False
    first.locator("summary").click()
    assert first.evaluate("d => d.open") is True
    assert first.locator("li").first.is_visible() is True
    code = page.locator("details.fold code").first
    assert code.evaluate("e => getComputedStyle(e).unicodeBidi") == "isolate"
    opened.page.screenshot(path=str(ARTIFACTS / "folded.png"))
