"""The self-contained HTML upgrade-risk report: one file with inline CSS, JS and SVG, no network.

:func:`build_context` turns a check's :class:`~linter.report.result.Result` (the report plus,
when known, the two topologies, their diff and the cluster timeline) into plain data;
:func:`render_html` renders it with jinja2. Every name in a topology or cluster is untrusted:
the templates autoescape everything, and the data the page's script reads is a JSON block with
``<``, ``>`` and ``&`` escaped; control, bidi and invisible
characters are shown as escapes in both (:mod:`linter.report.safe`), and the stylesheet isolates
every inline element's direction, so a name cannot reorder the text around it. The JSON is read
with ``JSON.parse`` and turned into DOM with ``textContent`` only. Same input, same bytes: no
clock, everything sorted.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from linter.report.diagram_data import changes_of, drawn, node_data
from linter.report.folded import FOLD_OVER, LISTED, fold_lists, folded_sides, node_count
from linter.report.model import AppVerdict, Report
from linter.report.result import Result
from linter.report.ruledocs import doc_blocks
from linter.report.safe import visible
from linter.report.scene import Diagram, finding_anchor
from linter.report.timeline import timeline_chart, timeline_rows
from rules.framework import DeployStrategy, Finding, Impact, Rule, find_rule
from rules.verdict import DeploymentPlan, Verdict

IMPACTS: Mapping[Impact, tuple[str, str]] = {
    Impact.STATE_LOSS: ("State loss", "Local state and its changelog are abandoned."),
    Impact.RESTORE: ("Restore", "State survives but is rebuilt from the changelog."),
    Impact.DATA_LOSS: ("Data loss", "Records are lost: in-flight repartition data, unclean "
                       "leader election."),
    Impact.AVAILABILITY: ("Availability", "Producers blocked, partitions offline, a step hangs."),
    Impact.IRREVERSIBLE: ("Irreversible", "Cannot be undone once done."),
    Impact.DOWNSTREAM: ("Downstream", "Other applications or consumers are affected."),
    Impact.HYGIENE: ("Hygiene", "Not broken today, fragile tomorrow."),
}

VERDICTS: Mapping[Verdict, tuple[str, str]] = {
    Verdict.SAFE: ("Safe", "No error found: nothing loses state or data, nothing is refused."),
    Verdict.SAFE_WITH_RESTORE: ("Safe with restore", "No data is lost, but state is rebuilt or "
                                "the change needs more than a rolling bounce."),
    Verdict.UNSAFE: (
        "Unsafe",
        "As planned, this change loses state or data, is refused, or blocks clients: "
        "see the errors below.",
    ),
}

STRATEGIES: Mapping[DeployStrategy, tuple[str, tuple[str, ...]]] = {
    DeployStrategy.ROLLING_BOUNCE: ("Rolling bounce", (
        "Deploy the new version one instance at a time.",
        "Before the next instance: wait until this one is RUNNING and the rebalance has settled "
        "(no restoring tasks left).",
    )),
    DeployStrategy.STOP_AND_RESTART: ("Stop and restart", (
        "Stop every instance of the application.",
        "Wait until the consumer group is empty (kafka-consumer-groups.sh --describe --group "
        "<application.id>).",
        "Deploy the new version and start the instances.",
    )),
    DeployStrategy.BLUE_GREEN: ("Blue-green", (
        "Deploy the new version under a new application.id next to the old one.",
        "Wait until it has built its state and caught up with its input topics.",
        "Switch consumers of the output topics to the new version, then stop the old one.",
        "Delete the old application's internal topics and local state.",
    )),
    DeployStrategy.RESET: ("Application reset", (
        "Stop every instance of the application.",
        "Run kafka-streams-application-reset.sh --application-id <application.id> "
        "--input-topics <the input topics>.",
        "Delete local state on every instance: KafkaStreams#cleanUp() or remove "
        "<state.dir>/<application.id>.",
        "Deploy the new version and start the instances; state is rebuilt from the input topics.",
    )),
}

_AUTOESCAPE = select_autoescape(enabled_extensions=("html", "j2", "svg", "xml"), default=True)


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("linter.report"),
        autoescape=_AUTOESCAPE,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_shown,
    )
    env.filters["script_json"] = script_json
    env.filters["num"] = _num
    return env


def render_html(result: Result | Report, *, title: str | None = None) -> str:
    """The whole report as one HTML document (a ``str``; write it as UTF-8).

    The result's ``before``/``after`` draw the topology diagrams (one of them for a lint
    report), its ``diff`` marks what changed on them, its ``timeline`` is the cluster's
    step by step.
    """
    context = build_context(result, title=title)
    script = _asset("report.js")
    if "</" in script:  # would end the inline element early
        raise ValueError("report.js must not contain '</'")
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    return environment().get_template("report.html.j2").render(
        **context, style=Markup(_asset("report.css")), script=Markup(script),
        script_hash=f"sha256-{digest}",
    )


@cache
def _asset(name: str) -> str:
    """A static file of the templates folder, inlined as it is (CSP hashes the exact text)."""
    env = environment()
    assert env.loader is not None
    source, _, _ = env.loader.get_source(env, name)
    return source


def build_context(result: Result | Report, *, title: str | None = None) -> dict[str, Any]:
    """Everything the template shows, as plain JSON-able data (the golden tests pin it)."""
    from rules.catalogue import ALL_RULES

    if isinstance(result, Report):
        result = Result(result)
    report, before, after, diff = result.report, result.before, result.after, result.diff
    findings = report.findings
    resources = [(r.kind, r.name, f.rule, _anchor(f)) for f in findings for r in f.resources]
    folded: list[dict[str, Any]] = []
    if node_count(before, after) > FOLD_OVER:  # too big to draw: summaries, opened on demand
        diagrams: list[Diagram] = []
        folded, changes = folded_sides(before, after, diff, resources)
    else:
        application_id = result.settings.application_id
        diagrams = drawn(before, after, diff, application_id, resources)
        changes = changes_of(diagrams)
    steps = result.timeline
    rules = _rules_of(findings, ALL_RULES)
    context = {
        "title": title or _default_title(report),
        "kind": report.kind,
        "inputs": sorted(report.inputs.items()),
        "verdict": _verdict(report),
        "unchecked": list(report.unchecked),
        "plan": _plan(report),
        "apps": [_app(report, a) for a in report.apps],
        "summary": report.summary.model_dump(),
        "checklist": _checklist(findings, report.plan),
        "groups": _groups(findings),
        "rule_docs": [_rule_doc(r) for r in rules],
        "diagrams": [_plain(asdict(d)) for d in diagrams],
        "diagram_data": {d.side: node_data(d) for d in diagrams},
        "changes": changes,
        "folded": folded,
        "fold_over": FOLD_OVER,
        "fold_listed": LISTED,
        "timeline": timeline_rows(steps, findings),
        "chart": timeline_chart(steps),
    }
    if folded:
        fold_lists(context)
    return context


def _plain(value: Any) -> Any:
    """Tuples as lists, so the context is exactly what its JSON says."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _shown(value: Any) -> Any:
    """Every value a template prints: control, bidi and invisible characters in a name are shown
    as escapes (an override would reverse the rest of its paragraph). Markup is the templates'
    own (assets, escaped JSON)."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return visible(value, keep="\n")
    return value


def _shown_data(value: Any) -> Any:
    if isinstance(value, dict):
        return {_shown_data(k): _shown_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_shown_data(v) for v in value]
    return _shown(value)


def script_json(data: Any) -> Markup:
    """JSON that is safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&``
    can end the element or start markup, and no control character hides in a name, whatever the
    names contain."""
    text = json.dumps(_shown_data(data), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return Markup(text)


def _num(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _default_title(report: Report) -> str:
    names = {"diff": "Topology upgrade", "lint": "Topology lint", "cluster": "Cluster change",
             "combined": "Release", "parse": "Topology"}
    return f"{names.get(report.kind, report.kind)} risk report"


def _verdict(report: Report) -> dict[str, str] | None:
    if report.verdict is None:
        return None
    label, explain = VERDICTS[report.verdict]
    if report.notes:
        explain = f"{explain} {'; '.join(report.notes)}."
    return {"value": report.verdict.value, "label": label, "explain": explain}


def _plan(report: Report) -> dict[str, Any] | None:
    if report.plan is None:
        return None
    if report.kind == "cluster" and not any(f.requires for f in report.findings):
        return None  # a Streams deployment strategy means nothing for a cluster-only change
    return _plan_data(report, report.plan)


def _plan_data(report: Report, plan: DeploymentPlan) -> dict[str, Any]:
    label, generic = STRATEGIES[plan.strategy]
    if plan.complete:
        generic = ()
    sources: dict[str, list[dict[str, str]]] = {}
    for f in report.findings:
        if f.acknowledged is None:
            for step in f.steps:
                sources.setdefault(step, []).append({"rule": f.rule, "anchor": _anchor(f)})
    return {
        "strategy": plan.strategy.value,
        "label": label,
        "why": plan.why,
        "generic": list(generic),
        "steps": [{"text": s, "from": sources.get(s, [])} for s in plan.steps],
    }


def _app(report: Report, app: AppVerdict) -> dict[str, Any]:
    label, explain = VERDICTS[app.verdict]
    return {
        "application": app.application,
        "path": app.path,
        "verdict": {"value": app.verdict.value, "label": label, "explain": explain},
        "unchecked": list(app.unchecked),
        "plan": _plan_data(report, app.plan),
    }


# Strategies that rebuild the application from its inputs: nothing is drained, restored or
# cleaned up in place.
_REBUILT = frozenset({DeployStrategy.RESET, DeployStrategy.BLUE_GREEN})


def _anchor(f: Finding) -> str:
    return finding_anchor(f)


# Resource kinds the runbook checklist lists, by what an operator does about them.
_CHECKLIST: tuple[tuple[str, str, frozenset[str], frozenset[Impact] | None], ...] = (
    ("drain", "Drain these repartition topics before stopping the old version",
     frozenset({"repartition-topic"}), frozenset({Impact.DATA_LOSS})),
    ("restore", "Expect these stores to restore from their changelogs",
     frozenset({"store", "changelog-topic"}), frozenset({Impact.RESTORE})),
    ("lost", "State abandoned (reset or migrate it)",
     frozenset({"store", "changelog-topic"}), frozenset({Impact.STATE_LOSS})),
    ("tasks", "Delete these sub-topologies' task directories",
     frozenset({"subtopology", "task-directory"}), None),
)


def _checklist(findings: Sequence[Finding], plan: DeploymentPlan | None) -> list[dict[str, Any]]:
    out = []
    rebuilt = plan is not None and plan.strategy in _REBUILT
    for key, label, kinds, impacts in _CHECKLIST:
        if rebuilt and key != "lost":
            continue  # in-place work the rebuild makes moot
        items = sorted({
            (r.kind, r.name)
            for f in findings
            if f.acknowledged is None and (impacts is None or f.impact in impacts)
            for r in f.resources
            if r.kind in kinds
        })
        if items:
            out.append({"key": key, "label": label,
                        "items": [{"kind": k, "name": n} for k, n in items]})
    return out


def _groups(findings: Sequence[Finding]) -> list[dict[str, Any]]:
    groups = []
    for impact, (label, explain) in IMPACTS.items():
        members = [f for f in findings if f.impact == impact]
        if members:
            groups.append({"impact": impact.value, "label": label, "explain": explain,
                           "findings": [_finding(f) for f in members]})
    return groups


def _finding(f: Finding) -> dict[str, Any]:
    return {
        "anchor": _anchor(f),
        "rule": f.rule,
        "name": f.name,
        "severity": f.severity.value,
        "message": f.message,
        "resources": [{"kind": r.kind, "name": r.name} for r in f.resources],
        "locations": [_where(loc.path, loc.line, loc.column, loc.side) for loc in f.locations],
        "remediation": f.remediation,
        "requires": f.requires.value if f.requires is not None else None,
        "step": f.step,
        "line": f.line,
        "fingerprint": f.fingerprint,
        "acknowledged": f.acknowledged,
    }


def _where(path: str | None, line: int | None, column: int | None, side: str | None) -> str:
    where = path or ""
    if line:
        where += f":{line}" + (f":{column}" if column else "")
    return f"{side}: {where}" if side else where


def _rules_of(findings: Iterable[Finding], catalogue: Iterable[Rule]) -> list[Rule]:
    known = list(catalogue)
    found = [find_rule(known, rid) for rid in sorted({f.rule for f in findings})]
    return [r for r in found if r is not None]


def _rule_doc(r: Rule) -> dict[str, Any]:
    return {"id": r.id, "name": r.name, "severity": r.severity.value, "impact": r.impact.value,
            "blocks": doc_blocks(r.doc)}
