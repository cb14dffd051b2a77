"""What a step does: the state after it, the outages inside it, what Kafka refuses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from cluster_engine.controller import Refusal
from cluster_engine.errors import ClusterInputError
from cluster_engine.facts import StepFacts
from cluster_engine.knowledge import FEATURES, METADATA_VERSION, supported_range
from cluster_engine.plan import Step
from cluster_engine.state import ClusterState, Health


@dataclass(frozen=True, slots=True)
class Outage:
    """A moment inside a step: ``down`` brokers stopped together, ``out`` all those out of ISRs
    (the down ones plus restarted ones still catching up when the plan does not wait)."""

    batch: int
    down: frozenset[int]
    out: frozenset[int]
    health: Health


@dataclass(frozen=True)
class Effect:
    """A step's result before it becomes a :class:`~cluster_engine.simulate.Transition`."""

    after: ClusterState
    outages: tuple[Outage, ...] = ()
    refusals: tuple[Refusal, ...] = ()
    facts: StepFacts = None


def effect(
    after: ClusterState,
    outages: tuple[Outage, ...] = (),
    refusals: Sequence[Refusal] = (),
    facts: StepFacts = None,
) -> Effect:
    return Effect(after, outages, tuple(refusals), facts)


def bad_step(path: str, step: Step, message: str) -> ClusterInputError:
    return ClusterInputError(path, step.line, f"step {step.index + 1} ({step.action}): {message}")


def common_version(state: ClusterState) -> str | None:
    versions = sorted({n.version for n in state.nodes.values() if n.version})
    return versions[-1] if versions else None


def ranges(
    version: str | None, old: Mapping[str, tuple[int, int]]
) -> Mapping[str, tuple[int, int]]:
    """The feature ranges a node of ``version`` advertises (knowledge), keeping unknown ones."""
    if version is None:
        return old
    out = dict(old)
    for name in (METADATA_VERSION, *FEATURES):
        span = supported_range(name, version)
        if span is not None:
            out[name] = span
        else:
            out.pop(name, None)
    return MappingProxyType(out)
