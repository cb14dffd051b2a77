"""One immutable report model; every output format is a renderer of it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from rules.framework import Finding, Severity
from rules.verdict import DeploymentPlan, Verdict, agree

ReportKind = Literal["parse", "lint", "diff", "cluster", "combined"]


class Summary(BaseModel):
    model_config = ConfigDict(frozen=True)

    errors: int = 0
    warnings: int = 0
    infos: int = 0
    acknowledged: int = 0

    @classmethod
    def of(cls, findings: tuple[Finding, ...]) -> Summary:
        # list.count in C, over one list: this runs twice for every app of a fleet scan
        live = [f.severity for f in findings if f.acknowledged is None]
        return cls(
            errors=live.count(Severity.ERROR),
            warnings=live.count(Severity.WARNING),
            infos=live.count(Severity.INFO),
            acknowledged=len(findings) - len(live),
        )


class AppVerdict(BaseModel):
    """One application's verdict and plan, when a run checks several (``ksafe diff --git-base``
    over the files of several apps): each app is deployed on its own."""

    model_config = ConfigDict(frozen=True)

    application: str
    path: str
    verdict: Verdict
    plan: DeploymentPlan
    unchecked: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _agree(self) -> AppVerdict:
        problem = agree(self.verdict, self.plan)
        if problem is not None:
            raise ValueError(f"{self.application}: {problem}")
        return self


class Report(BaseModel):
    """What ``lint``, ``diff``, ``cluster check`` and ``report`` produce.

    ``inputs`` names the files read (``before``/``after``/``snapshot``/``plan``...). ``verdict``
    and ``plan`` are set for diffs and cluster checks; they are checked to agree when the report
    is built. ``notes`` qualify the verdict with what a cluster check did not check (``not
    checked: no topic capture ...``); ``unchecked`` says what a ``safe``/``safe-with-restore``
    verdict of a topology diff could not check (describe() does not show it). ``apps`` holds one
    verdict and plan per application when a run checks several; ``plan`` is then None (each app
    has its own). ``revisions`` maps a location path that names a file at a git
    revision (``path@REV``, as ``--git-base`` labels the old versions) to that file and
    revision, so renderers can point at the file; it is not part of the output.
    """

    model_config = ConfigDict(frozen=True)

    kind: ReportKind
    inputs: dict[str, str] = {}
    findings: tuple[Finding, ...] = ()
    verdict: Verdict | None = None
    plan: DeploymentPlan | None = None
    unchecked: tuple[str, ...] = ()
    apps: tuple[AppVerdict, ...] = ()
    summary: Summary = Summary()
    notes: tuple[str, ...] = ()
    revisions: SkipJsonSchema[dict[str, tuple[str, str]]] = Field(
        default_factory=dict, exclude=True
    )

    @model_validator(mode="after")
    def _agree(self) -> Report:
        if self.verdict is not None and self.plan is not None:
            problem = agree(self.verdict, self.plan)
            if problem is not None:
                raise ValueError(problem)
        return self

    def fails(self, fail_on: Severity | None) -> bool:
        """True when an unacknowledged finding is at or above ``fail_on`` (None: never)."""
        if fail_on is None:
            return False
        return any(
            f.acknowledged is None and f.severity.rank >= fail_on.rank for f in self.findings
        )
