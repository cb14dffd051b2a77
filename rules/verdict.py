"""From findings to a verdict and a deployment plan, made together so they cannot disagree.

Each hit says the least disruptive strategy under which its change is safe (``Hit.requires``) and
the runbook lines it adds (``Hit.steps``). The verdict is the worst of them; the plan is the most
disruptive strategy asked for. In-place strategies (rolling bounce, stop and restart) list the
findings' steps, each once. A reset or a blue-green deployment rebuilds the application from its
inputs: their runbook (:mod:`rules.runbook`, filled in with the application's topics) replaces
the in-place steps; the steps for consumers, other applications and new inputs are kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.facts import AppFacts
from rules.framework import DeployStrategy, Finding, Impact, Severity
from rules.runbook import DRAIN_PREFIX, blue_green_steps, drain, phase, reset_steps

NOTHING_REQUIRED = "No finding requires more than a rolling bounce."
# Findings whose in-place step is a drain: the plan adds how to tell the drain is done.
_DRAINED_BY = frozenset({"repartition-topic-removed"})
# Findings whose steps hold whatever the strategy: they are about the inputs (co-partitioning of
# a new source topic) or the application's identity (retiring the old application.id), not
# about state kept in place.
_STILL_APPLY = frozenset({"source-topics-changed", "application-id-changed"})


class Verdict(StrEnum):
    SAFE = "safe"
    SAFE_WITH_RESTORE = "safe-with-restore"
    UNSAFE = "unsafe"

    @property
    def rank(self) -> int:
        return list(Verdict).index(self)


class DeploymentPlan(BaseModel):
    model_config = ConfigDict(frozen=True)

    strategy: DeployStrategy
    why: str
    steps: tuple[str, ...] = ()
    # the steps are the strategy's whole runbook, filled in with the application's topics (a
    # renderer adds no generic steps of its own)
    complete: bool = False


_REBUILDS = (DeployStrategy.RESET, DeployStrategy.BLUE_GREEN)


def unsafe(f: Finding) -> bool:
    """An error the plan cannot make safe: no strategy avoids it, or state is lost (a reset or
    a new application rebuilds only what the inputs still hold, so lost state stays lost
    whatever the plan). An error whose strategy fully handles it (a drain before a
    stop-and-restart, a two-bounce ``upgrade.from`` procedure) is not."""
    return f.severity is Severity.ERROR and (f.requires is None or f.impact is Impact.STATE_LOSS)


def verdict_of(findings: Iterable[Finding]) -> Verdict:
    """``unsafe`` if an unacknowledged error remains that the plan cannot make safe
    (:func:`unsafe`), ``safe-with-restore`` if something restores (a finding whose impact is a
    restore, or a strategy that rebuilds the state from the inputs), else ``safe`` (the plan
    still says which strategy and steps make it so). Info findings and acknowledged ones never
    count."""
    verdict = Verdict.SAFE
    for f in findings:
        if f.acknowledged is not None or f.severity is Severity.INFO:
            continue
        if unsafe(f):
            return Verdict.UNSAFE
        if f.impact is Impact.RESTORE or f.requires in _REBUILDS:
            verdict = Verdict.SAFE_WITH_RESTORE
    return verdict


def plan_of(findings: Iterable[Finding], facts: AppFacts | None = None) -> DeploymentPlan:
    """The deployment plan of :func:`assess`."""
    return assess(findings, facts)[1]


def assess(
    findings: Iterable[Finding], facts: AppFacts | None = None
) -> tuple[Verdict, DeploymentPlan]:
    """The verdict and the plan, the plan's ``why`` written from the verdict: an ``unsafe``
    verdict is never explained by "nothing requires more than a rolling bounce".

    ``facts`` (the application's topics) turns a reset or blue-green plan into that strategy's
    runbook; without them (cluster and fleet checks) the findings' own steps are listed.
    """
    live, verdict, deciding, blocking, strategy = _decided(findings)
    steps: dict[str, None] = {}  # ordered and deduplicated in one
    if blocking:
        names = ", ".join(dict.fromkeys(f"{f.rule} {f.name}" for f in blocking))
        steps.setdefault(
            f"Do not deploy until {names} is fixed or acknowledged: no deployment strategy "
            "makes it safe."
        )
    complete = facts is not None and strategy in (DeployStrategy.RESET, DeployStrategy.BLUE_GREEN)
    if facts is not None and complete:
        rebuild = reset_steps if strategy is DeployStrategy.RESET else blue_green_steps
        for step in rebuild(facts):
            steps.setdefault(step)
        for f in live:
            # consumers and other apps are not rebuilt with it
            if f.impact is Impact.DOWNSTREAM or (
                f.name in _STILL_APPLY
                # the new-id runbook already stops, starts and retires the right applications
                and not (f.name == "application-id-changed" and facts.previous_application_id)
            ):
                for step in f.steps:
                    steps.setdefault(step)
    else:
        for step in _in_place_steps(live, facts):
            steps.setdefault(step)
    return verdict, DeploymentPlan(
        strategy=strategy,
        why=_why(verdict, deciding, blocking, live),
        steps=tuple(steps),
        complete=complete,
    )


def decide(findings: Iterable[Finding]) -> tuple[Verdict, DeployStrategy, str]:
    """:func:`assess`'s verdict, and its plan's strategy and why, without the plan's steps: for
    a caller that reads no more (the fleet scan)."""
    live, verdict, deciding, blocking, strategy = _decided(findings)
    return verdict, strategy, _why(verdict, deciding, blocking, live)


def _decided(
    findings: Iterable[Finding],
) -> tuple[list[Finding], Verdict, Finding | None, list[Finding], DeployStrategy]:
    """The findings the verdict counts, the verdict, the finding whose strategy the plan takes
    (None: a rolling bounce), the errors no strategy fixes, and the strategy."""
    # the findings the verdict counts, and no others: an info finding (a rule turned down in
    # the config) asking for a reset would otherwise give "safe" next to a reset plan
    live = [f for f in findings if f.acknowledged is None and f.severity is not Severity.INFO]
    verdict = verdict_of(live)
    deciding: Finding | None = None
    for f in live:
        if f.requires is not None and (deciding is None or f.requires.rank > _rank(deciding)):
            deciding = f
    # errors no strategy fixes: the plan must say so before any step
    blocking = [f for f in live if f.severity is Severity.ERROR and f.requires is None]
    strategy = deciding.requires if deciding is not None else None
    return live, verdict, deciding, blocking, strategy or DeployStrategy.ROLLING_BOUNCE


def _in_place_steps(live: Sequence[Finding], facts: AppFacts | None) -> list[str]:
    """The steps of an upgrade done in place, in the order they are done: one drain for every
    topic to drain, in the application's words (its exactly-once setting), in place of each
    finding's own drain step."""
    drained: dict[str, None] = {}
    in_place: dict[str, None] = {}
    for f in live:
        replaced = facts is not None and f.name in _DRAINED_BY
        if replaced:
            for r in f.resources:
                if r.kind == "repartition-topic":
                    drained.setdefault(r.name)
        for step in f.steps:
            if not (replaced and step.startswith(DRAIN_PREFIX)):
                in_place.setdefault(step)
    if facts is not None and drained:
        how = drain(facts, tuple(drained))
        in_place.setdefault(f"{how} Then stop every instance of {facts.app}.")
    # drain before the stop, cleanup while stopped, then the start, then what waits for it
    return sorted(in_place, key=phase)


def _rank(f: Finding) -> int:
    return f.requires.rank if f.requires is not None else -1


def _why(
    verdict: Verdict,
    deciding: Finding | None,
    blocking: Sequence[Finding],
    live: Sequence[Finding],
) -> str:
    if blocking:
        f = blocking[0]
        return f"Unsafe whatever the strategy: {f.rule} {f.name}: {f.message}"
    if deciding is not None:
        return f"{deciding.rule} {deciding.name}: {deciding.message}"
    if verdict is Verdict.SAFE_WITH_RESTORE:
        f = next(f for f in live if f.impact is Impact.RESTORE and f.severity is not Severity.INFO)
        return f"A rolling bounce; state is rebuilt from changelogs: {f.rule} {f.name}: {f.message}"
    return NOTHING_REQUIRED


def agree(verdict: Verdict, plan: DeploymentPlan) -> str | None:
    """Why ``verdict`` and ``plan`` contradict each other, or None: what a report checks when
    it is built, so a renderer can never show ``unsafe`` next to "nothing required"."""
    return disagreement(verdict, plan.strategy, plan.why)


def disagreement(verdict: Verdict, strategy: DeployStrategy, why: str) -> str | None:
    """:func:`agree` on a plan's strategy and why (:func:`decide`)."""
    if verdict is not Verdict.SAFE and why == NOTHING_REQUIRED:
        return f"verdict {verdict.value} with the plan {why!r}"
    if verdict is Verdict.SAFE and strategy in _REBUILDS:
        return f"verdict safe with the plan {strategy.value}"
    return None


def warnings_note(findings: Iterable[Finding]) -> str | None:
    """What a verdict that is not ``unsafe`` must say when live warnings stand beside it: a bare
    "safe" next to printed warnings reads as "nothing to do". ``None`` without such warnings, or
    when every one already qualifies the verdict in its own words (``verdict_note``,
    ``not_checked``)."""
    live = [
        f
        for f in findings
        if f.acknowledged is None
        and f.severity is Severity.WARNING
        and not (f.data.get("verdict_note") or f.data.get("not_checked"))
    ]
    if not live:
        return None
    named = dict.fromkeys(
        f"{f.rule} {f.name}" + (f" at step {f.step + 1}" if f.step is not None else "")
        for f in live
    )
    shown = list(named)[:5]
    more = f" and {len(named) - 5} more" if len(named) > 5 else ""
    count = f"{len(live)} warning{'s' if len(live) > 1 else ''}"
    return (
        f"Safe with {count}, not a clean pass: {', '.join(shown)}{more}. Nothing found is "
        "refused or loses data, but each warning is a risk the check could not rule out: act on "
        "its fix before the step it names."
    )
