"""A concise Markdown summary for a pull request comment: verdict, findings table, deployment plan.

Every name-bearing text goes through :func:`linter.report.safe.markdown`: ``|`` would end a
table cell, a newline the row, ``<``/``>`` start HTML, and a name must not become a link, an
image or a mention on the pull request.
"""

from __future__ import annotations

from linter.report.locations import at_revision, primary
from linter.report.model import Report
from linter.report.safe import markdown, visible
from rules.framework import Finding
from rules.verdict import DeploymentPlan, Verdict

_VERDICT = {
    Verdict.SAFE: "safe",
    Verdict.SAFE_WITH_RESTORE: "safe with restore",
    Verdict.UNSAFE: "unsafe",
}


def cell(text: str) -> str:
    """One table cell (or a line of prose): the literal text, whatever Markdown it holds."""
    return markdown(text)


def _code(text: str) -> str:
    # GFM splits table cells on `|` even inside a code span, unless it is escaped; nothing else
    # is read inside a code span (no link, mention or HTML), but control characters still are
    if "`" in text or "\n" in text or "\r" in text:
        return cell(text)
    return "`" + visible(text).replace("|", "\\|") + "`"


def _where(f: Finding, report: Report) -> str:
    loc = primary(f)
    if loc is not None and loc.path:
        path, revision = at_revision(loc.path, report.revisions)
        where = f"{path}:{loc.line}" if loc.line else path
        return _code(where if revision is None else f"{where} (at {revision})")
    plan = report.inputs.get("plan")
    if plan and f.line:
        return _code(f"{plan}:{f.line}")
    return ""


def _table(findings: list[Finding], report: Report, acknowledged: bool) -> list[str]:
    last = "Acknowledged because" if acknowledged else "Fix"
    lines = [
        f"| Severity | Rule | Finding | Where | {last} |",
        "| --- | --- | --- | --- | --- |",
    ]
    for f in findings:
        tail = (f.acknowledged or "") if acknowledged else f.remediation
        lines.append(
            f"| {f.severity.value} | `{f.rule}` {f.name} | {cell(f.message)} "
            f"| {_where(f, report)} | {cell(tail)} |"
        )
    return lines


def _headline(report: Report) -> str:
    """Icon from what counts (live findings), words from the verdict when there is one."""
    s = report.summary
    if s.errors or report.verdict == Verdict.UNSAFE:
        icon = "❌"
    elif s.warnings or report.verdict == Verdict.SAFE_WITH_RESTORE:
        icon = "⚠️"
    else:
        icon = "✅"
    if report.verdict is not None:
        state = _VERDICT[report.verdict]
    else:
        state = "failed" if s.errors else "passed"
    return f"### {icon} ksafe {report.kind}: {state}"


def _unchecked(notes: tuple[str, ...]) -> list[str]:
    """Next to the verdict: what a safe verdict did not check."""
    if not notes:
        return []
    return ["**Not checked** (describe() does not show it):", ""] + [
        f"- {cell(n)}" for n in notes
    ] + [""]


def _plan(plan: DeploymentPlan) -> list[str]:
    out = [cell(plan.why)]
    if plan.steps:
        out.append("")
        out += [f"{i}. {cell(step)}" for i, step in enumerate(plan.steps, 1)]
    out.append("")
    return out


def render_markdown(report: Report) -> str:
    s = report.summary
    out = [_headline(report), "", *_unchecked(report.unchecked)]
    if report.inputs:
        out.append(" · ".join(f"{k}: {_code(v)}" for k, v in sorted(report.inputs.items())))
        out.append("")
    out.append(
        f"**{s.errors}** error(s), **{s.warnings}** warning(s), **{s.infos}** info, "
        f"{s.acknowledged} acknowledged"
    )
    out.append("")
    for note in report.notes:
        out += [f"> {cell(note)}", ""]
    live = [f for f in report.findings if f.acknowledged is None]
    acked = [f for f in report.findings if f.acknowledged is not None]
    if live:
        out += [*_table(live, report, acknowledged=False), ""]
    elif not acked:
        out += ["No findings.", ""]
    if report.plan is not None:
        out += [f"#### Deployment plan: {report.plan.strategy.value}", ""]
        out += _plan(report.plan)
    for app in report.apps:
        out.append(
            f"#### {cell(app.application)} ({_code(app.path)}): {_VERDICT[app.verdict]}, "
            f"deployment plan: {app.plan.strategy.value}"
        )
        out.append("")
        out += _unchecked(app.unchecked)
        out += _plan(app.plan)
    if acked:
        out += [f"<details><summary>Acknowledged ({len(acked)})</summary>", ""]
        out += [*_table(acked, report, acknowledged=True), "", "</details>", ""]
    return "\n".join(out).rstrip("\n") + "\n"
