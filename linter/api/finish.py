"""Turning a run's raw findings into the one :class:`~linter.report.model.Report`: the
acknowledgements applied, the findings sorted, the verdict and deployment plan."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from linter.acknowledgements import AcknowledgementCheck
from linter.acknowledgements import apply as apply_acknowledgements
from linter.report.model import AppVerdict, Report, ReportKind, Summary
from linter.settings import Settings, selected, severity_overrides
from rules.facts import AppFacts
from rules.framework import DeployStrategy, Finding, run
from rules.verdict import Verdict, assess, decide, disagreement, verdict_of
from rules.workflow import WORKFLOW_RULES
from rules.workflow.acknowledgements import ACKNOWLEDGEMENTS


@dataclass(frozen=True)
class AppScope:
    """One application among the raw findings of a run: its ``count`` findings, in order from
    the previous app's last, with the facts its runbook is filled in with and what its
    verdict did not check."""

    application: str
    path: str
    count: int
    facts: AppFacts | None = None
    unchecked: tuple[str, ...] = ()


def sort_findings(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    return tuple(sorted(findings, key=Finding.sort_key))


def finish(
    kind: ReportKind,
    findings: Iterable[Finding],
    settings: Settings,
    *,
    inputs: Mapping[str, str] | None = None,
    verdict: bool | None = None,
    facts: AppFacts | None = None,
    notes: tuple[str, ...] = (),
    apps: Sequence[AppScope] = (),
) -> Report:
    """Turn a run's raw findings into the :class:`Report` every command returns.

    Applies the acknowledgements (matching findings are marked, not counted; unused and expired
    entries become ``acknowledgement-unused``/``acknowledgement-expired`` findings, themselves
    subject to rule selection and severity overrides), sorts, and computes the summary, plus the
    verdict and deployment plan for diffs and cluster checks (``verdict=None``: by ``kind``).

    Paths in findings and ``inputs`` are made absolute against the current directory to match the
    acknowledgements' resolved ``path`` globs.

    ``facts`` fill in the runbook of a reset or blue-green plan; ``notes`` say what describe()
    could not show, kept only with a ``safe``/``safe-with-restore`` verdict. With two ``apps`` or
    more, each gets its own verdict and plan (from its own findings, facts and notes) and the
    report's verdict is the worst of them.
    """
    marked = _acknowledge(list(findings), settings, inputs)
    ordered = sort_findings(marked)
    with_verdict = kind in ("diff", "cluster", "combined") if verdict is None else verdict
    if len(apps) == 1:
        facts, notes = apps[0].facts, apps[0].unchecked
    if not with_verdict:
        return Report(
            kind=kind,
            inputs=dict(inputs or {}),
            findings=ordered,
            summary=Summary.of(ordered),
            notes=not_checked(ordered),
        )
    if len(apps) > 1:
        per_app = _per_app(marked, apps)
        worst = max((a.verdict for a in per_app), key=lambda v: v.rank)
        overall = max(worst, verdict_of(ordered), key=lambda v: v.rank)
        return Report(
            kind=kind,
            inputs=dict(inputs or {}),
            findings=ordered,
            verdict=overall,
            apps=per_app,
            summary=Summary.of(ordered),
            notes=not_checked(ordered),
        )
    judged, plan = assess(ordered, facts)
    return Report(
        kind=kind,
        inputs=dict(inputs or {}),
        findings=ordered,
        verdict=judged,
        plan=plan,
        unchecked=_kept(judged, notes),
        summary=Summary.of(ordered),
        notes=not_checked(ordered),
    )


def judged(
    findings: Iterable[Finding], settings: Settings, inputs: Mapping[str, str] | None = None
) -> tuple[tuple[Finding, ...], Verdict, DeployStrategy]:
    """A diff's findings, verdict and strategy as :func:`finish` makes them, without the report
    or the plan's steps, for a caller that reads no more (the fleet scan)."""
    ordered = sort_findings(_acknowledge(list(findings), settings, inputs))
    verdict, strategy, why = decide(ordered)
    problem = disagreement(verdict, strategy, why)
    if problem is not None:  # what the report checks when it is built
        raise ValueError(problem)
    return ordered, verdict, strategy


def _acknowledge(
    raw: list[Finding], settings: Settings, inputs: Mapping[str, str] | None
) -> list[Finding]:
    """``raw`` with the acknowledged findings marked, plus the workflow rules' findings on the
    acknowledgements themselves (unused, expired)."""
    if not settings.acknowledgements:  # without any, there is nothing to mark, nor paths to match
        return raw
    absolute: dict[str, str] = {}  # a few distinct paths, repeated in every finding
    input_paths = {os.path.abspath(p) for p in (inputs or {}).values() if p}
    paths_of: dict[str, tuple[str, ...]] = {}
    for f in raw:
        own = tuple(
            absolute.get(loc.path) or absolute.setdefault(loc.path, os.path.abspath(loc.path))
            for loc in f.locations
            if loc.path
        )
        paths_of[f.fingerprint] = paths_of.get(f.fingerprint, ()) + own
        input_paths.update(own)
    today = settings.today or date.today()
    marked, used = apply_acknowledgements(raw, settings.acknowledgements, today, paths_of)
    check = AcknowledgementCheck(
        acknowledgements=settings.acknowledgements,
        used=used,
        paths=frozenset(input_paths),
        today=today,
    )
    rules = selected(WORKFLOW_RULES, settings)
    marked += run(rules, ACKNOWLEDGEMENTS, check, severities=severity_overrides(rules, settings))
    return marked


def not_checked(findings: Iterable[Finding]) -> tuple[str, ...]:
    """What live findings say qualifies the verdict (their ``verdict_note`` data: an outage the
    verdict accepts) and was not checked (their ``not_checked`` data), each once."""
    # most findings have no data: look into the few that do (twice for every app of a fleet scan)
    data = [f.data for f in findings if f.data and f.acknowledged is None]
    if not data:
        return ()
    notes = [d.get("verdict_note") for d in data] + [d.get("not_checked") for d in data]
    return tuple(dict.fromkeys(str(n) for n in notes if n))


def _kept(verdict: Verdict, notes: tuple[str, ...]) -> tuple[str, ...]:
    # an unsafe verdict already says "do not deploy": the caveats belong to a "safe"
    return notes if verdict is not Verdict.UNSAFE else ()


def _per_app(marked: Sequence[Finding], apps: Sequence[AppScope]) -> tuple[AppVerdict, ...]:
    out: list[AppVerdict] = []
    start = 0
    for app in apps:
        own = sort_findings(marked[start : start + app.count])
        start += app.count
        judged, plan = assess(own, app.facts)
        out.append(
            AppVerdict(
                application=app.application,
                path=app.path,
                verdict=judged,
                plan=plan,
                unchecked=_kept(judged, app.unchecked),
            )
        )
    return tuple(out)
