"""The cluster side of the HTML report: one row per plan step with the simulated state after it,
and what an operator waits for before the next step.

:class:`TimelineStep` is the report's own view of a step, so the template does not depend on the
simulator's internals; :func:`timeline_from_simulation` adapts the simulator's per-step summaries.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linter.report.scene import finding_anchor
from rules.framework import Finding

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
    """Adapt the simulator's output to :class:`TimelineStep` rows: a
    :class:`~cluster_engine.simulate.Simulation` (its ``summaries()``, titled from its plan's
    steps), or an iterable of per-step summaries; :class:`TimelineStep` rows pass through."""
    steps: dict[int, Any] = {}
    items: Iterable[Any] = simulation
    if callable(getattr(simulation, "summaries", None)):
        items = simulation.summaries()
        plan = getattr(simulation, "plan", None)
        steps = {int(s.index): s for s in getattr(plan, "steps", ())}
    out: list[TimelineStep] = []
    for item in items:
        if isinstance(item, TimelineStep):
            out.append(item)
        else:
            index = _get(item, "step", "index")
            out.append(_from_summary(item, steps.get(index) if isinstance(index, int) else None))
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


def _from_summary(summary: Any, step: Any = None) -> TimelineStep:
    """One simulator summary. Counts are the worst seen during the step (a rolling restart's
    worst batch) where the simulator knows it, since that is what producers live through."""
    index = _get(summary, "step", "index")
    index = -1 if index is None else int(index)
    action = str(_get(summary, "action", default=_get(step, "action", default="snapshot")))
    line = _get(summary, "line", default=_get(step, "line"))
    title = _get(summary, "title", "description", default=None) or _describe_step(step, action)
    features = _get(summary, "features", "finalized_features", default={}) or {}
    throttles = _get(summary, "throttles", "active_throttles", default=()) or ()
    if isinstance(throttles, Mapping):
        throttles = [f"{k}={v}" for k, v in throttles.items()]
    down = _get(summary, "nodes_down", "brokers_down", "down", default=()) or ()
    fenced = _get(summary, "fenced", default=()) or ()
    notes = [str(n) for n in (_get(summary, "notes", default=()) or ())]
    notes += [f"refused: {r}" for r in (_get(summary, "refused", default=()) or ())]
    notes += [f"fenced: {', '.join(str(n) for n in sorted(fenced))}"] if fenced else []
    after_min_isr = _count(_get(summary, "under_min_isr"))
    worst_min_isr = _count(_get(summary, "worst_under_min_isr", default=after_min_isr))
    after_offline = _count(_get(summary, "offline"))
    worst_offline = _count(_get(summary, "worst_offline", default=after_offline))
    if (worst_min_isr, worst_offline) != (after_min_isr, after_offline):
        notes.append(f"after the step: {after_min_isr} under min ISR, {after_offline} offline")
    return TimelineStep(
        index=index,
        action=action,
        title=str(title),
        line=int(line) if line else None,
        under_min_isr=worst_min_isr,
        offline=worst_offline,
        under_replicated=_count(_get(summary, "under_replicated", "urp")),
        nodes_down=tuple(sorted(int(n) for n in down)),
        features={str(k): int(v) for k, v in sorted(dict(features).items())},
        throttles=tuple(sorted(str(t) for t in throttles)),
        reassignments=_count(_get(summary, "reassignments", "reassignments_in_flight")),
        notes=tuple(notes),
    )


def _describe_step(step: Any, action: str) -> str:
    if step is None:
        return "cluster snapshot" if action == "snapshot" else action
    parts = [action]
    for name in ("nodes", "brokers", "id", "at_once", "version", "feature", "level",
                 "release_version", "scope", "entity", "key", "value", "topic", "partitions",
                 "throttle", "type"):
        value = _get(step, name)
        if value is None or value == () or value is False:
            continue
        if name == "partitions" and isinstance(value, tuple | list):
            value = len(value)
        elif isinstance(value, tuple | list):
            value = ", ".join(str(v) for v in value)
        parts.append(f"{name.replace('_', '-')}={value}")
    note = _get(step, "note")
    return " ".join(parts) + (f" ({note})" if note else "")


def timeline_rows(
    steps: Sequence[TimelineStep], findings: Sequence[Finding]
) -> list[dict[str, Any]]:
    """The timeline table: one row per step, with the findings pinned to it."""
    rows = []
    previous: Mapping[str, int] | None = None
    for s in steps:
        pinned = [f for f in findings if f.step is not None and f.step == s.index]
        # Feature levels in full once, then only what a step changed: the column stays readable.
        if previous is None:
            features = [f"{k}={v}" for k, v in sorted(s.features.items())]
        else:
            features = [
                f"{k}: {previous.get(k, 0)} \u2192 {v}"
                for k, v in sorted(s.features.items()) if previous.get(k, 0) != v
            ]
        previous = s.features
        rows.append({
            "index": s.index, "number": s.index + 1, "action": s.action, "title": s.title,
            "line": s.line, "under_min_isr": s.under_min_isr, "offline": s.offline,
            "under_replicated": s.under_replicated, "nodes_down": list(s.nodes_down),
            "features": features, "throttles": list(s.throttles),
            "reassignments": s.reassignments, "notes": list(s.notes), "wait_for": s.waiting(),
            "findings": [{"rule": f.rule, "name": f.name, "severity": f.severity.value,
                          "anchor": finding_anchor(f)} for f in pinned],
        })
    return rows


def timeline_chart(steps: Sequence[TimelineStep]) -> dict[str, Any] | None:
    """Bars of partitions offline / under min ISR / under-replicated after each step."""
    if not steps:
        return None
    peak = max(max(s.offline, s.under_min_isr, s.under_replicated) for s in steps) or 1
    col, bar, height = 72.0, 16.0, 90.0
    columns = []
    for i, s in enumerate(steps):
        x = 40.0 + i * col
        bars = []
        for j, (key, value) in enumerate((("offline", s.offline),
                                          ("under-min-isr", s.under_min_isr),
                                          ("urp", s.under_replicated))):
            h = round(height * value / peak, 1) if value else 0.0
            bars.append({"key": key, "value": value, "x": x + j * (bar + 2), "y": 10 + height - h,
                         "h": h, "w": bar})
        columns.append({"label": "start" if s.index < 0 else f"#{s.index + 1}", "x": x,
                        "bars": bars})
    return {"width": 40.0 + len(steps) * col, "height": height + 34, "peak": peak,
            "base": 10 + height, "columns": columns}
