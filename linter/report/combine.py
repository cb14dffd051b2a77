"""One report for a release that changes both an application's topology and the cluster."""

from __future__ import annotations

from collections.abc import Iterable

from linter.report.model import Report, Summary
from rules.framework import Finding
from rules.verdict import Verdict, plan_of

_VERDICT_RANK = {Verdict.SAFE: 0, Verdict.SAFE_WITH_RESTORE: 1, Verdict.UNSAFE: 2}


def combine(reports: Iterable[Report]) -> Report:
    """The findings of every report (each once, by fingerprint), the worst verdict, and the
    deployment plan of them all. Input names must not clash (``before``/``after`` for the
    topology, ``snapshot``/``plan`` for the cluster)."""
    parts = list(reports)
    seen: dict[str, Finding] = {}
    for report in parts:
        for f in report.findings:
            seen.setdefault(f.fingerprint, f)
    findings = tuple(sorted(seen.values(), key=Finding.sort_key))
    verdicts = [r.verdict for r in parts if r.verdict is not None]
    inputs: dict[str, str] = {}
    for report in parts:
        inputs.update(report.inputs)
    return Report(
        kind="combined",
        inputs=inputs,
        findings=findings,
        verdict=max(verdicts, key=_VERDICT_RANK.__getitem__) if verdicts else None,
        plan=plan_of(findings),
        summary=Summary.of(findings),
    )
