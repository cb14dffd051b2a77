"""From findings to a verdict and a deployment plan.

Each hit says the least disruptive strategy under which its change is safe (``Hit.requires``) and
the runbook lines it adds (``Hit.steps``). The verdict is the worst of them; the plan is the most
disruptive strategy asked for, with every step in finding order, each once.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.framework import DeployStrategy, Finding, Impact, Severity


class Verdict(StrEnum):
    SAFE = "safe"
    SAFE_WITH_RESTORE = "safe-with-restore"
    UNSAFE = "unsafe"


class DeploymentPlan(BaseModel):
    model_config = ConfigDict(frozen=True)

    strategy: DeployStrategy
    why: str
    steps: tuple[str, ...] = ()


def verdict_of(findings: Iterable[Finding]) -> Verdict:
    """``unsafe`` if any unacknowledged error remains (state or data lost, a step refused,
    producers blocked), ``safe-with-restore`` if a warning says state is rebuilt or a disruptive
    strategy is required, else ``safe``. Info findings and acknowledged ones never count."""
    verdict = Verdict.SAFE
    for f in findings:
        if f.acknowledged is not None or f.severity is Severity.INFO:
            continue
        if f.severity is Severity.ERROR:
            return Verdict.UNSAFE
        if f.impact is Impact.RESTORE or (
            f.requires is not None and f.requires is not DeployStrategy.ROLLING_BOUNCE
        ):
            verdict = Verdict.SAFE_WITH_RESTORE
    return verdict


def plan_of(findings: Iterable[Finding]) -> DeploymentPlan:
    """The most disruptive strategy any finding requires, with all their steps, deduplicated."""
    strategy = DeployStrategy.ROLLING_BOUNCE
    why = "No finding requires more than a rolling bounce."
    steps: dict[str, None] = {}  # ordered and deduplicated in one (a list made this quadratic)
    for f in findings:
        if f.acknowledged is not None:
            continue
        if f.requires is not None and f.requires.rank > strategy.rank:
            strategy = f.requires
            why = f"{f.rule} {f.name}: {f.message}"
        for step in f.steps:
            steps.setdefault(step)
    return DeploymentPlan(strategy=strategy, why=why, steps=tuple(steps))
