"""Plain-text report for terminals: one block per finding, then the summary, the verdict and the
deployment plan (the last thing a reader sees). ANSI colour only when asked for."""

from __future__ import annotations

from collections.abc import Mapping

from linter.report.locations import at_revision
from linter.report.model import Report
from linter.report.safe import visible
from rules.framework import Finding, Location, Severity
from rules.verdict import DeploymentPlan, Verdict

_COLOR = {
    Severity.ERROR: "\033[31m",
    Severity.WARNING: "\033[33m",
    Severity.INFO: "\033[36m",
    Verdict.UNSAFE: "\033[1;31m",
    Verdict.SAFE_WITH_RESTORE: "\033[1;33m",
    Verdict.SAFE: "\033[1;32m",
}
_RESET = "\033[0m"

def sanitize(text: str) -> str:
    """``text`` with control and bidi characters shown as ``\\xNN``/``\\uNNNN`` escapes: names
    in findings are untrusted and must not repaint the terminal or reorder what is shown."""
    return visible(text)


def _paint(text: str, key: Severity | Verdict, color: bool) -> str:
    return f"{_COLOR[key]}{text}{_RESET}" if color else text


def _where(loc: Location, revisions: Mapping[str, tuple[str, str]]) -> str:
    """``path:line:col`` as editors and terminals link it; a file at a git revision reads
    ``path:line (at REV)`` (the ``path@REV`` label would not open)."""
    path, revision = at_revision(loc.path, revisions) if loc.path else ("<input>", None)
    where = sanitize(path)
    if loc.line:
        where += f":{loc.line}"
        if loc.column:
            where += f":{loc.column}"
    if revision is not None:
        where += f" (at {sanitize(revision)})"
    return where


def _finding(f: Finding, color: bool, revisions: Mapping[str, tuple[str, str]]) -> list[str]:
    head = _where(f.locations[0], revisions) + ": " if f.locations else ""
    sev = _paint(f.severity.value, f.severity, color)
    lines = [f"{head}{sev} {f.rule} {f.name}: {sanitize(f.message)}"]
    for loc in f.locations[1:]:
        lines.append(f"    {loc.side or 'also'}: {_where(loc, revisions)}")
    if f.resources:
        resources = ", ".join(f"{r.kind} {r.name}" for r in f.resources)
        lines.append("    resources: " + sanitize(resources))
    if f.remediation:
        lines.append(f"    fix: {sanitize(f.remediation)}")
    if f.acknowledged is not None:
        lines.append(f"    acknowledged: {sanitize(f.acknowledged)}")
    lines.append(f"    fingerprint: {f.fingerprint}")
    return lines


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def render_text(report: Report, *, color: bool = False) -> str:
    out: list[str] = []
    for f in report.findings:
        out += _finding(f, color, report.revisions)
    if not report.findings:
        out.append("No findings.")
    s = report.summary
    out.append("")
    summary = (
        f"{_plural(s.errors, 'error')}, {_plural(s.warnings, 'warning')}, "
        f"{_plural(s.infos, 'info')}"
    )
    if s.acknowledged:
        summary += f", {s.acknowledged} acknowledged"
    out.append(f"Summary: {summary}")
    if report.verdict is not None:
        out.append("Verdict: " + _paint(report.verdict.value, report.verdict, color))
    for note in report.notes:
        out.append(f"  note: {sanitize(note)}")
    out += _unchecked(report.unchecked, "")
    if report.plan is not None:
        out += _plan(report.plan, "")
    for app in report.apps:
        out.append("")
        out.append(
            f"Application {sanitize(app.application)} ({sanitize(app.path)}): "
            + _paint(app.verdict.value, app.verdict, color)
        )
        out += _unchecked(app.unchecked, "  ")
        out += _plan(app.plan, "  ")
    return "\n".join(out) + "\n"


def _unchecked(notes: tuple[str, ...], indent: str) -> list[str]:
    if not notes:
        return []
    return [f"{indent}Not checked (describe() does not show it):"] + [
        f"{indent}  - {sanitize(n)}" for n in notes
    ]


def _plan(plan: DeploymentPlan, indent: str) -> list[str]:
    out = [
        f"{indent}Deployment plan: {plan.strategy.value}",
        f"{indent}  why: {sanitize(plan.why)}",
    ]
    for i, step in enumerate(plan.steps, 1):
        out.append(f"{indent}  {i}. {sanitize(step)}")
    return out
