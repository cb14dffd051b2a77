"""What cluster rules share: building hits located at a plan step, naming things."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cluster_engine.simulate import Simulation, Transition
from rules.framework import Hit, Location, Resource, SubjectKind

CLUSTER_STEP: SubjectKind[Transition] = SubjectKind("cluster-step")
CLUSTER: SubjectKind[Simulation] = SubjectKind("cluster")


def at_step(
    t: Transition,
    message: str,
    *,
    resources: Iterable[Resource] = (),
    remediation: str = "",
    key: str | None = None,
    data: Mapping[str, Any] | None = None,
) -> Hit:
    """A hit about plan step ``t``, located at its line in the plan."""
    return Hit(
        message=message,
        resources=tuple(resources),
        locations=(Location(path=t.plan_path, line=t.step.line, side="plan"),),
        remediation=remediation,
        key=key,
        step=t.index,
        data=dict(data or {}),
    )


def on_snapshot(
    message: str,
    *,
    resources: Iterable[Resource] = (),
    remediation: str = "",
    key: str | None = None,
    data: Mapping[str, Any] | None = None,
) -> Hit:
    """A hit about the cluster as the snapshot shows it (no plan step)."""
    return Hit(
        message=message,
        resources=tuple(resources),
        locations=(Location(side="snapshot"),),
        remediation=remediation,
        key=key,
        data=dict(data or {}),
    )


def broker(b: int) -> Resource:
    return Resource(kind="broker", name=str(b))


def topic(name: str) -> Resource:
    return Resource(kind="topic", name=name)


def feature(name: str) -> Resource:
    return Resource(kind="feature", name=name)


def config(key: str) -> Resource:
    return Resource(kind="config", name=key)


def ids(values: Iterable[int]) -> str:
    return ", ".join(str(v) for v in sorted(values))


def names(values: Iterable[str], limit: int = 10) -> str:
    """``a, b, c`` or ``a, b, ... and 12 more``."""
    items = sorted(set(values))
    shown = ", ".join(items[:limit])
    return shown if len(items) <= limit else f"{shown} and {len(items) - limit} more"


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"
