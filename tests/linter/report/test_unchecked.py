"""What a safe verdict did not check is shown in every output format, next to the verdict."""

from __future__ import annotations

import json

from linter.report.github import render_github
from linter.report.html import render_html
from linter.report.json import render_json
from linter.report.markdown import render_markdown
from linter.report.model import AppVerdict, Report
from linter.report.sarif import to_sarif
from linter.report.text import render_text
from rules.framework import DeployStrategy
from rules.verdict import NOTHING_REQUIRED, DeploymentPlan, Verdict

NOTE = "Whether counts is windowed, and the window size and grace period: not in describe()."
PLAN = DeploymentPlan(strategy=DeployStrategy.ROLLING_BOUNCE, why=NOTHING_REQUIRED)
REPORT = Report(kind="diff", verdict=Verdict.SAFE, plan=PLAN, unchecked=(NOTE,))


def test_text_lists_the_note_right_after_the_verdict() -> None:
    lines = render_text(REPORT).splitlines()
    at = lines.index("Verdict: safe")
    assert lines[at + 1] == "Not checked (describe() does not show it):"
    assert lines[at + 2] == f"  - {NOTE}"


def test_json_has_the_field() -> None:
    assert json.loads(render_json(REPORT))["unchecked"] == [NOTE]


def test_markdown_shows_it_under_the_verdict_headline() -> None:
    lines = render_markdown(REPORT).splitlines()
    assert lines[0].endswith("ksafe diff: safe")
    assert lines[2].startswith("**Not checked**")
    assert f"- {NOTE}" in lines


def test_html_shows_it_in_the_verdict_card() -> None:
    html = render_html(REPORT)
    card = html[html.index('class="card verdict v-safe"') :]
    card = card[: card.index('<div class="card strategy">')]
    assert "Not checked" in card
    assert "window size and grace period" in card


def test_sarif_and_github_carry_it() -> None:
    assert to_sarif(REPORT)["runs"][0]["properties"]["unchecked"] == [NOTE]
    notice = render_github(REPORT).splitlines()[-1]
    assert notice.startswith("::notice title=ksafe%3A not checked::")
    assert "window size and grace period" in notice


def test_per_app_notes_in_every_format() -> None:
    app = AppVerdict(
        application="orders", path="t/orders.txt", verdict=Verdict.SAFE, plan=PLAN,
        unchecked=(NOTE,),
    )
    report = Report(kind="diff", verdict=Verdict.SAFE, apps=(app,))
    assert "  - " + NOTE in render_text(report)
    assert json.loads(render_json(report))["apps"][0]["unchecked"] == [NOTE]
    assert f"- {NOTE}" in render_markdown(report)
    assert "window size and grace period" in render_html(report)
    assert to_sarif(report)["runs"][0]["properties"]["apps"][0]["unchecked"] == [NOTE]
    assert "ksafe orders%3A not checked" in render_github(report)


def test_no_note_no_section() -> None:
    bare = Report(kind="diff", verdict=Verdict.SAFE, plan=PLAN)
    assert "Not checked" not in render_text(bare)
    assert "Not checked" not in render_markdown(bare)
    assert "not checked" not in render_github(bare)
