"""One immutable report model; every output format is a renderer of it."""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import BaseModel, ConfigDict

from rules.framework import Finding, Severity
from rules.verdict import DeploymentPlan, Verdict

ReportKind = Literal["parse", "lint", "diff", "cluster", "combined"]


class Summary(BaseModel):
    model_config = ConfigDict(frozen=True)

    errors: int = 0
    warnings: int = 0
    infos: int = 0
    acknowledged: int = 0

    @classmethod
    def of(cls, findings: tuple[Finding, ...]) -> Summary:
        live = Counter(f.severity for f in findings if f.acknowledged is None)
        return cls(
            errors=live[Severity.ERROR],
            warnings=live[Severity.WARNING],
            infos=live[Severity.INFO],
            acknowledged=sum(1 for f in findings if f.acknowledged is not None),
        )


class Report(BaseModel):
    """What ``lint``, ``diff``, ``cluster check`` and ``report`` produce.

    ``inputs`` names the files read (``before``/``after``/``snapshot``/``plan``...). ``verdict``
    and ``plan`` are set for diffs and cluster checks; ``notes`` qualify the verdict with what
    was not checked (``not checked: no topic capture ...``).
    """

    model_config = ConfigDict(frozen=True)

    kind: ReportKind
    inputs: dict[str, str] = {}
    findings: tuple[Finding, ...] = ()
    verdict: Verdict | None = None
    plan: DeploymentPlan | None = None
    summary: Summary = Summary()
    notes: tuple[str, ...] = ()

    def fails(self, fail_on: Severity | None) -> bool:
        """True when an unacknowledged finding is at or above ``fail_on`` (None: never)."""
        if fail_on is None:
            return False
        return any(
            f.acknowledged is None and f.severity.rank >= fail_on.rank for f in self.findings
        )
