"""The cluster side of the HTML report: one row per plan step with the simulated state after it,
and what an operator waits for before the next step.

:class:`TimelineStep` is the report's own view of a step, so the template does not depend on the
simulator's internals; :func:`timeline_from_simulation` reads the simulator's typed per-step
summaries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from linter.report.scene import finding_anchor
from rules.framework import Finding

if TYPE_CHECKING:  # a topology report never loads the cluster engine
    from cluster_engine.plan import Step
    from cluster_engine.simulate import Simulation, StepSummary

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


def timeline_from_simulation(simulation: Simulation) -> tuple[TimelineStep, ...]:
    """One :class:`TimelineStep` row per simulator summary (the snapshot, then each step),
    titled from the plan's steps."""
    steps = {s.index: s for s in simulation.plan.steps}
    return tuple(
        _from_summary(s, steps.get(s.step) if s.step is not None else None)
        for s in simulation.summaries()
    )


def _from_summary(summary: StepSummary, step: Step | None) -> TimelineStep:
    """One simulator summary. Counts are the worst seen during the step (a rolling restart's
    worst batch), since that is what producers live through."""
    notes = [f"refused: {r}" for r in summary.refused]
    if summary.fenced:
        notes.append(f"fenced: {', '.join(str(n) for n in sorted(summary.fenced))}")
    worst = (summary.worst_under_min_isr, summary.worst_offline)
    if worst != (summary.under_min_isr, summary.offline):
        notes.append(
            f"after the step: {summary.under_min_isr} under min ISR, {summary.offline} offline"
        )
    return TimelineStep(
        index=-1 if summary.step is None else summary.step,
        action=summary.action,
        title=_describe_step(step, summary.action),
        line=summary.line or None,
        under_min_isr=summary.worst_under_min_isr,
        offline=summary.worst_offline,
        under_replicated=summary.under_replicated,
        nodes_down=tuple(sorted(summary.down)),
        features=dict(sorted(summary.features.items())),
        throttles=tuple(sorted(f"{k}={v}" for k, v in summary.throttles.items())),
        reassignments=summary.reassignments,
        notes=tuple(notes),
    )


# The step fields a title shows, in this order (each step kind has some of them).
_TITLE_FIELDS = (
    "nodes", "brokers", "id", "at_once", "version", "feature", "level", "release_version",
    "scope", "entity", "key", "value", "topic", "partitions", "throttle", "type",
)


def _describe_step(step: Step | None, action: str) -> str:
    if step is None:
        return "cluster snapshot" if action == "snapshot" else action
    parts = [action]
    for name in _TITLE_FIELDS:
        value: object = getattr(step, name, None)
        if value is None or value == () or value is False:
            continue
        if name == "partitions" and isinstance(value, tuple | list):
            value = len(value)
        elif isinstance(value, tuple | list):
            value = ", ".join(str(v) for v in value)
        parts.append(f"{name.replace('_', '-')}={value}")
    return " ".join(parts) + (f" ({step.note})" if step.note else "")


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
