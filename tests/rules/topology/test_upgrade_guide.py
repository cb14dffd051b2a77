"""The examples of the Kafka Streams upgrade guide (Responsive, "Kafka Streams 101: upgrades"),
as hand-written describe() fixtures in
``fixtures/examples/``: judged by the rules and pinned as the full text a user reads, runbook
included (goldens in ``fixtures/reports/upgrade-guide/``, ``pytest --update-goldens``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter import api
from linter.report.model import Report
from linter.report.text import render_text
from linter.topology.parse import parse_file
from tests.conftest import FIXTURES, ROOT, SHARED

EXAMPLES = FIXTURES / "examples"
GOLDENS = FIXTURES / "reports" / "upgrade-guide"


def _diff(before: str, after: str, app: str) -> Report:
    # paths relative to the repository, as a user types them, so the goldens hold no clone path
    rel = EXAMPLES.relative_to(ROOT)
    return api.diff(
        parse_file(rel / before), parse_file(rel / after), api.Settings(application_id=app)
    )


def _golden(name: str, text: str, update: bool) -> None:
    path = GOLDENS / name
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run pytest --update-goldens"
    assert text == path.read_text(encoding="utf-8"), f"{path} differs: run pytest --update-goldens"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_filter_inserted_before_count_in_an_unnamed_app() -> None:
    """``...STATE-STORE-0000000001`` becomes ``...0000000002``: the changelog changes, the count
    restarts from zero. This is the README's example pair."""
    report = _diff("word-count-v1.txt", "word-count-v2.txt", "word-count")
    errors = [f for f in report.findings if f.severity.value == "error"]
    assert [f.name for f in errors] == ["store-renamed"]
    names = {r.name for r in errors[0].resources}
    assert "KSTREAM-AGGREGATE-STATE-STORE-0000000001" in names
    assert "KSTREAM-AGGREGATE-STATE-STORE-0000000002" in names
    assert "word-count-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog" in names
    assert report.verdict is not None
    assert report.verdict.value == "unsafe"


def test_clicks_filter_gives_one_concrete_reset(update_goldens: bool) -> None:
    """The guide's own clicks example: a reset runbook with the real input topic, the stop
    first, the retention warning and the local state cleanup; nothing in place."""
    report = _diff("clicks-v1.txt", "clicks-v2.txt", "clicks-app")
    assert report.plan is not None
    assert report.plan.strategy.value == "application-reset"
    steps = report.plan.steps
    assert steps[0].startswith("Stop every instance of clicks-app")
    assert any(
        "kafka-streams-application-reset.sh --bootstrap-server <host:port> --application-id "
        "clicks-app --input-topics clicks " in s
        for s in steps
    )
    assert any("retention.ms, 7 days by default" in s for s in steps)
    assert any("KafkaStreams#cleanUp()" in s and "<state.dir>/clicks-app" in s for s in steps)
    assert not any("restores from" in s or "after the restore" in s for s in steps)
    _golden("clicks.txt", render_text(report), update_goldens)


def test_group_by_key_to_group_by_gives_a_blue_green_runbook(update_goldens: bool) -> None:
    """The store ``orders`` keeps its name but moves from sub-topology 0 to 1 behind a new
    repartition topic, keyed by the new grouping key: the plan is blue-green, so it says nothing
    of restoring into ``1_*`` or deleting ``0_*`` (the new application starts empty)."""
    report = _diff("orders-v1.txt", "orders-v2.txt", "daily-order-aggregator")
    names = [f.name for f in report.findings]
    assert "store-moved-subtopology" in names
    assert "key-change-before-stateful" in names
    assert "store-renamed" not in names
    moved = next(f for f in report.findings if f.name == "store-moved-subtopology")
    assert "from sub-topology 0 to 1" in moved.message
    assert report.plan is not None
    assert report.plan.strategy.value == "blue-green"
    steps = "\n".join(report.plan.steps)
    assert "new application.id" in steps
    assert "order-forms-to-ship" in steps  # separate outputs or a cutover for its consumers
    assert "orders-by-customer" in steps  # retention precondition on the real input
    assert "restores from" not in steps
    assert "0_*" not in steps
    assert "1_*" not in steps
    _golden("orders.txt", render_text(report), update_goldens)


def test_window_shrunk_from_a_day_to_an_hour_says_what_was_not_checked(
    update_goldens: bool,
) -> None:
    """The guide's windowed ``orders`` aggregation prints the same describe() for any window
    size: ``safe``, with the window size and grace period named as not checked."""
    report = _diff("orders-v1.txt", "orders-v1.txt", "daily-order-aggregator")
    assert report.verdict is not None
    assert report.verdict.value == "safe"
    notes = "\n".join(report.unchecked)
    assert "Whether orders is windowed, and the window size and grace period" in notes
    assert "serdes and schemas of the state stores (orders)" in notes
    assert "Processing logic" in notes
    _golden("orders-window.txt", render_text(report), update_goldens)


def test_examples_are_the_guides_text() -> None:
    """The clicks fixtures hold the node lines the guide prints, in its order."""
    seed = SHARED / "reference" / "seeds" / "002_868d3780a715d13a.txt"
    if not seed.exists():
        pytest.skip(f"{seed} is absent")
    guide = [ln.strip() for ln in seed.read_text(encoding="utf-8").splitlines()]
    for name in ("clicks-v1.txt", "clicks-v2.txt"):
        lines = [ln.strip() for ln in Path(EXAMPLES / name).read_text().splitlines() if ln.strip()]
        body = lines[2:]  # after the two headers, which the guide prints flush left too
        starts = [i for i, ln in enumerate(guide) if ln == body[0]]
        assert any(guide[i : i + len(body)] == body for i in starts), name


def test_readme_shows_the_runbooks_as_they_now_read() -> None:
    """Every plan and "not checked" line the README's Topology checks section quotes is a line
    of a golden above, so the README cannot drift from the output."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Topology checks") : readme.index("## Input formats")]
    quoted = [
        ln
        for ln in section.splitlines()
        if ln.startswith(("  1. ", "  2. ", "  3. ", "  4. ", "  5. ", "  6. ", "  - "))
    ]
    goldens = {
        ln for name in ("clicks.txt", "orders.txt", "orders-window.txt")
        for ln in (GOLDENS / name).read_text(encoding="utf-8").splitlines()
    }
    assert len(quoted) >= 14
    assert [ln for ln in quoted if ln not in goldens] == []
