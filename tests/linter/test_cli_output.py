"""Shared CLI output plumbing: colour decisions, writing, exit codes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from linter.api import Settings
from linter.cli.common import EXIT_FINDINGS, EXIT_OK, effective_fail_on, emit, should_color
from rules.framework import Severity
from tests.linter.report.sample import diff_report


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):  # each changes the answer
        monkeypatch.delenv(name, raising=False)
    assert should_color(Tty())
    assert not should_color(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not should_color(Tty())
    monkeypatch.setenv("NO_COLOR", "")  # empty means unset (no-color.org)
    assert should_color(Tty())


def test_fail_on_flag_wins_over_config() -> None:
    settings = Settings(fail_on=Severity.WARNING)
    assert effective_fail_on(None, settings) == Severity.WARNING
    assert effective_fail_on("error", settings) == Severity.ERROR
    assert effective_fail_on("never", settings) is None


def test_emit_writes_the_format_and_returns_the_exit_code(tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    assert emit(diff_report(), "markdown", out, Severity.ERROR) == EXIT_FINDINGS
    assert out.read_text().startswith("### ❌ ksafe diff: unsafe")
    assert emit(diff_report(), "github", out, None) == EXIT_OK
    assert out.read_text().startswith("::error ")
