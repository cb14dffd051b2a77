"""GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` line per finding,
so findings show inline on the pull request's changed files.

Escaping follows the runner's own rules (``actions/toolkit`` ``command.ts``): in the message,
``%``, ``\\r`` and ``\\n``; in property values, also ``:`` and ``,`` (a newline in a file name
is ``%0A``, so the annotation still points at that file). Other control characters from the
input (an ESC in a name would colour the Actions log) are shown as escapes
(:mod:`linter.report.safe`).
"""

from __future__ import annotations

from linter.report.locations import PathBase, at_revision, primary
from linter.report.model import Report
from linter.report.safe import visible, workflow_data, workflow_property
from rules.framework import Finding, Severity

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return workflow_data(text)


def escape_property(text: str) -> str:
    return workflow_property(text)


def _where(f: Finding, report: Report) -> tuple[str | None, int | None, int | None]:
    loc = primary(f)
    if loc is not None and loc.path is not None:
        return at_revision(loc.path, report.revisions)[0], loc.line, loc.column
    plan = report.inputs.get("plan")
    if plan:
        return plan, f.line, None
    return None, None, None


def command(f: Finding, report: Report, base: PathBase | None = None) -> str:
    """The workflow command for one finding. With ``base``, ``file=`` is relative to the
    repository root, as GitHub matches annotations to the pull request's files."""
    path, line, column = _where(f, report)
    if path and base is not None:
        path = base.relative(path) or path
    props: list[tuple[str, str]] = []
    if path:
        props.append(("file", path))
        if line is not None and line >= 1:
            props.append(("line", str(line)))
            if column is not None and column >= 1:
                props.append(("col", str(column)))
    title = f"{f.rule} {f.name}"
    message = f.message
    if f.remediation:
        message += f"\nFix: {f.remediation}"
    kind = _COMMAND[f.severity]
    if f.acknowledged is not None:
        kind = "notice"
        title += " (acknowledged)"
        message += f"\nAcknowledged: {f.acknowledged}"
    props.append(("title", title))
    rendered = ",".join(f"{k}={escape_property(v)}" for k, v in props)
    return f"::{kind} {rendered}::{escape_data(message)}"


def render_github(report: Report, base: PathBase | None = None) -> str:
    lines = [command(f, report, base) for f in report.findings]
    s = report.summary
    verdict = f"verdict {report.verdict.value}, " if report.verdict is not None else ""
    lines.append(
        f"ksafe {report.kind}: {verdict}{s.errors} error(s), {s.warnings} warning(s), "
        f"{s.infos} info, {s.acknowledged} acknowledged"
    )
    lines += [f"note: {visible(n)}" for n in report.notes]
    lines += _unchecked("ksafe: not checked", report.unchecked)
    for app in report.apps:
        lines.append(
            f"ksafe {visible(app.application)} ({visible(app.path)}): verdict "
            f"{app.verdict.value}, plan {app.plan.strategy.value}"
        )
        lines += _unchecked(f"ksafe {app.application}: not checked", app.unchecked)
    return "\n".join(lines) + "\n"


def _unchecked(title: str, notes: tuple[str, ...]) -> list[str]:
    """What a safe verdict did not check, as one notice on the run (no file: it is about the
    whole application)."""
    if not notes:
        return []
    message = "describe() does not show it:\n" + "\n".join(f"- {n}" for n in notes)
    return [f"::notice title={escape_property(title)}::{escape_data(message)}"]
