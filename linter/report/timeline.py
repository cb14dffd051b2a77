"""The cluster side of the HTML report: one row per plan step with the simulated state after it,
and what an operator waits for before the next step.

:class:`TimelineStep` is the report's own view of a step, so the template does not depend on the
simulator's internals; :func:`timeline_from_simulation` adapts the simulator's per-step summaries.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# What to wait for after each kind of plan step before starting the next one.
WAIT_FOR: Mapping[str, str] = {
    "snapshot": "",
    "upgrade-binaries": "each node back, unfenced, and under-replicated partitions at 0 before "
    "the next node",
    "restart": "the restarted nodes unfenced and rejoined, under-replicated partitions at 0",
    "rolling-restart": "after each batch: nodes unfenced, under-replicated partitions at 0",
    "update-feature": "kafka-features.sh describe shows the new finalized level on every node",
    "alter-config": "kafka-configs.sh --describe shows the new value",
    "reassign": "kafka-reassign-partitions.sh --verify reports every move complete",
    "verify-reassignment": "every reassignment complete; throttles removed (--verify does that "
    "unless --preserve-throttles)",
    "cancel-reassignment": "no reassignment in flight; leftover throttles removed",
    "add-broker": "the broker registered and unfenced (it holds no data until a reassignment)",
    "decommission-broker": "the broker holds no replicas before it is unregistered",
    "add-controller": "the new voter caught up (kafka-metadata-quorum.sh describe --replication "
    "shows small lag)",
    "remove-controller": "the quorum reports the remaining voters with a leader",
    "elect-leaders": "kafka-leader-election.sh reports every election done",
    "create-topic": "all partitions with a leader and a full ISR",
    "add-partitions": "the new partitions with a leader and a full ISR",
}


@dataclass(frozen=True, slots=True)
class TimelineStep:
    """The state of the cluster after one plan step (``index`` -1: the snapshot before any)."""

    index: int
    action: str
    title: str
    line: int | None = None
    under_min_isr: int = 0
    offline: int = 0
    under_replicated: int = 0
    nodes_down: tuple[int, ...] = ()
    features: Mapping[str, int] = field(default_factory=dict)
    throttles: tuple[str, ...] = ()
    reassignments: int = 0
    notes: tuple[str, ...] = ()
    wait_for: str | None = None  # None: the default for ``action``

    def waiting(self) -> str:
        return self.wait_for if self.wait_for is not None else WAIT_FOR.get(self.action, "")


def timeline_from_simulation(simulation: Any) -> tuple[TimelineStep, ...]:
    """Adapt the simulator's output (an iterable of per-step summaries, or an object with a
    ``steps`` attribute) to :class:`TimelineStep` rows; :class:`TimelineStep` rows pass through."""
    items: Iterable[Any] = getattr(simulation, "steps", simulation)
    out: list[TimelineStep] = []
    for item in items:
        out.append(item if isinstance(item, TimelineStep) else _from_summary(item))
    return tuple(out)


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    for name in names:
        if isinstance(obj, Mapping) and name in obj:
            return obj[name]
        if hasattr(obj, name):
            return getattr(obj, name)
    return default


def _count(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    return len(value)


def _from_summary(summary: Any) -> TimelineStep:
    step = _get(summary, "step")
    index = _get(summary, "index", default=_get(step, "index", default=-1))
    action = _get(summary, "action", default=_get(step, "action", default="snapshot"))
    line = _get(summary, "line", default=_get(step, "line"))
    title = _get(summary, "title", "description", default=None) or _describe_step(step, action)
    features = _get(summary, "features", "finalized_features", default={}) or {}
    throttles = _get(summary, "throttles", "active_throttles", default=()) or ()
    down = _get(summary, "nodes_down", "brokers_down", "down", default=()) or ()
    return TimelineStep(
        index=int(index),
        action=str(action),
        title=str(title),
        line=int(line) if line else None,
        under_min_isr=_count(_get(summary, "under_min_isr")),
        offline=_count(_get(summary, "offline")),
        under_replicated=_count(_get(summary, "under_replicated", "urp")),
        nodes_down=tuple(sorted(int(n) for n in down)),
        features={str(k): int(v) for k, v in sorted(dict(features).items())},
        throttles=tuple(sorted(str(t) for t in throttles)),
        reassignments=_count(_get(summary, "reassignments", "reassignments_in_flight")),
        notes=tuple(str(n) for n in (_get(summary, "notes", default=()) or ())),
    )


def _describe_step(step: Any, action: str) -> str:
    if step is None:
        return "cluster snapshot" if action == "snapshot" else action
    parts = [action]
    for name in ("nodes", "brokers", "id", "version", "feature", "level", "release_version",
                 "scope", "entity", "key", "value", "topic", "throttle", "type"):
        value = _get(step, name)
        if value is None or value == () or value is False:
            continue
        if isinstance(value, tuple | list):
            value = ", ".join(str(v) for v in value)
        parts.append(f"{name.replace('_', '-')}={value}")
    note = _get(step, "note")
    return " ".join(parts) + (f" ({note})" if note else "")
