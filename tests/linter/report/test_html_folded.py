"""Very large reports fold: past FOLD_OVER nodes no diagram is drawn, each sub-topology is a
summary row opened on demand, long lists are cut with a count, and the page stays small.
Sizes only: timings are benchmarks/huge.py's."""

from __future__ import annotations

import re

import pytest

from linter import api
from linter.report import folded
from linter.report.folded import FOLD_OVER
from linter.report.html import build_context, render_html
from linter.report.model import Report
from linter.report.result import Result
from linter.topology.diff import TopologyDiff
from linter.topology.diff import diff as match
from linter.topology.model import Description
from linter.topology.parse import parse
from tests.hardening.generators import topology_text

SIZE_BOUND = 10 * 1024 * 1024
PER_SIDE = FOLD_OVER // 2 + 100  # just past the threshold, both sides together


def _pair() -> tuple[Description, Description, TopologyDiff, Report]:
    before = parse(topology_text(PER_SIDE, "many"), "before.txt")
    after = parse(topology_text(PER_SIDE, "many", offset=1), "after.txt")
    return before, after, match(before, after), api.diff(before, after)


def test_below_the_threshold_the_diagram_is_drawn() -> None:
    before = parse(topology_text(FOLD_OVER // 4, "many"), "before.txt")
    after = parse(topology_text(FOLD_OVER // 4, "many", offset=1), "after.txt")
    context = build_context(Result(
        api.diff(before, after),
        before=before,
        after=after,
        diff=match(before, after),
    ))  # fmt: skip
    assert context["folded"] == []
    assert len(context["diagrams"]) == 2


def test_above_the_threshold_the_report_folds_and_stays_small(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(folded, "SHOWN", 50)  # so that the cut lists are cut here too
    before, after, diff, report = _pair()
    context = build_context(Result(report, before=before, after=after, diff=diff))
    assert context["diagrams"] == []
    assert [side["side"] for side in context["folded"]] == ["before", "after"]
    subs = context["folded"][1]["subtopologies"]
    assert sum(s["nodes"] for s in subs) == PER_SIDE
    assert all(s["open"] for s in subs if s["status"] or s["rules"])
    assert context["changes"]  # the change counts are still there
    html = render_html(Result(report, before=before, after=after, diff=diff))
    size = len(html.encode())
    assert size < SIZE_BOUND, size
    assert "<svg class=\"graph\"" not in html
    assert html.count("<details class=\"fold") == sum(len(s["subtopologies"])
                                                      for s in context["folded"])
    # every finding is counted; the ones not shown are said to be left out, never dropped
    total = len(report.findings)
    shown = html.count("<article class=\"finding")
    left = sum(int(n) for n in re.findall(r"(\d+) more findings of this kind not shown", html))
    assert total > 50
    assert left > 0
    assert shown + left == total
