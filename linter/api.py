"""The library entry points the CLI, the fleet job and the reports all call.

Each takes parsed inputs and :class:`Settings`, runs the rules, applies the settings (rule
selection, severity overrides, acknowledgements) and returns one immutable
:class:`~linter.report.model.Report`. No I/O here: reading files is the caller's job.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from linter.report.model import Report, ReportKind, Summary
from rules.framework import Finding, Rule, Severity, run
from rules.verdict import plan_of, verdict_of
from rules.workflow import WORKFLOW_RULES
from rules.workflow.acknowledgements import Acknowledgement as Acknowledgement
from rules.workflow.acknowledgements import AcknowledgementCheck
from rules.workflow.acknowledgements import apply as apply_acknowledgements


@dataclass(frozen=True)
class Settings:
    """What a user's configuration changes about a check (defaults: every rule, as shipped)."""

    select: frozenset[str] = frozenset()  # rule ids or names; empty means all
    ignore: frozenset[str] = frozenset()
    severities: Mapping[str, Severity] = field(default_factory=dict)  # by rule id or name
    acknowledgements: tuple[Acknowledgement, ...] = ()
    fail_on: Severity | None = Severity.ERROR
    application_id: str | None = None
    today: date | None = None  # for acknowledgement expiry; None means the real date


def selected(rules: Iterable[Rule], settings: Settings) -> tuple[Rule, ...]:
    """The rules ``settings`` keeps, in catalogue order."""

    def named(r: Rule, refs: frozenset[str]) -> bool:
        return r.id in refs or r.name in refs or r.id.lower() in refs

    return tuple(
        r
        for r in rules
        if (not settings.select or named(r, settings.select)) and not named(r, settings.ignore)
    )


def severity_overrides(rules: Iterable[Rule], settings: Settings) -> dict[str, Severity]:
    """Overrides keyed by rule id, whether the config named the rule by id or by name."""
    out: dict[str, Severity] = {}
    for r in rules:
        for ref in (r.id, r.name):
            if ref in settings.severities:
                out[r.id] = settings.severities[ref]
    return out


def sort_findings(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    return tuple(sorted(findings, key=Finding.sort_key))


def finish(
    kind: ReportKind,
    findings: Iterable[Finding],
    settings: Settings,
    *,
    inputs: Mapping[str, str] | None = None,
    verdict: bool | None = None,
) -> Report:
    """Turn a run's raw findings into the :class:`Report` every command returns.

    Applies the acknowledgements (matching findings are marked, not counted; unused and expired
    entries become ``acknowledgement-unused``/``acknowledgement-expired`` findings, themselves
    subject to rule selection and severity overrides), sorts, and computes the summary, plus the
    verdict and deployment plan for diffs and cluster checks (``verdict=None``: by ``kind``).

    Paths in findings and ``inputs`` are made absolute against the current directory to match the
    acknowledgements' resolved ``path`` globs.
    """
    raw = list(findings)
    input_paths = {os.path.abspath(p) for p in (inputs or {}).values() if p}
    paths_of: dict[str, tuple[str, ...]] = {}
    for f in raw:
        own = tuple(os.path.abspath(loc.path) for loc in f.locations if loc.path)
        paths_of[f.fingerprint] = paths_of.get(f.fingerprint, ()) + own
        input_paths.update(own)
    today = settings.today or date.today()
    marked, used = apply_acknowledgements(raw, settings.acknowledgements, today, paths_of)
    if settings.acknowledgements:
        check = AcknowledgementCheck(
            acknowledgements=settings.acknowledgements,
            used=used,
            paths=frozenset(input_paths),
            today=today,
        )
        rules = selected(WORKFLOW_RULES, settings)
        marked += run(
            rules, "acknowledgements", check, severities=severity_overrides(rules, settings)
        )
    ordered = sort_findings(marked)
    with_verdict = kind in ("diff", "cluster", "combined") if verdict is None else verdict
    return Report(
        kind=kind,
        inputs=dict(inputs or {}),
        findings=ordered,
        verdict=verdict_of(ordered) if with_verdict else None,
        plan=plan_of(ordered) if with_verdict else None,
        summary=Summary.of(ordered),
    )
