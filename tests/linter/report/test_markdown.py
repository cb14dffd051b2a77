"""The Markdown PR comment, pinned by goldens in fixtures/reports/ (``pytest --update-goldens``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from linter.report import render
from linter.report.markdown import cell
from linter.report.model import Report
from tests.conftest import FIXTURES
from tests.linter.report.sample import cluster_report, diff_report, empty_lint_report

GOLDENS = FIXTURES / "reports"


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("diff-report.md", diff_report),
        ("cluster-report.md", cluster_report),
        ("lint-empty.md", empty_lint_report),
    ],
)
def test_golden(name: str, make: Callable[[], Report], update_goldens: bool) -> None:
    golden: Path = GOLDENS / name
    text = render(make(), "markdown")
    if update_goldens:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


def test_cells_cannot_break_the_table() -> None:
    assert cell("a|b\nc <d>") == "a\\|b<br>c &lt;d&gt;"


def test_every_row_has_five_cells() -> None:
    text = render(diff_report(), "markdown")
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    for row in rows:
        assert row.replace("\\|", "").count("|") == 6, row
