"""KC028 disk-usage-high."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from cluster_engine.facts import ReassignFacts
from cluster_engine.knowledge import DISK_CRITICAL_RATIO, DISK_WARN_RATIO
from cluster_engine.reassignment import human_bytes
from cluster_engine.simulate import Simulation
from rules.cluster._common import CLUSTER, at_step, broker, on_snapshot
from rules.framework import Hit, Impact, Resource, Severity, rule


def _level(ratio: float) -> str:
    return "critical (>= 85 %)" if ratio >= DISK_CRITICAL_RATIO else "high (>= 70 %)"


@rule(
    id="KC028",
    name="disk-usage-high",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER,
)
def disk_usage_high(sim: Simulation) -> Iterator[Hit]:
    """A log directory is (or a reassignment would make it) over 70 % full; 85 % is critical.

    Why: a full log directory crashes the broker without a graceful shutdown; operators alert at
    70 % and 85 % to leave time for retention changes or reassignments. A reassignment adds the
    moved partitions to the destination before it deletes them at the source.

    Example:

        - reassign: {file: move-to-broker-4.json, throttle: 50000000}   # broker 4 at 80 %

    Fix: lower retention (``kafka-configs.sh``) or move partitions to brokers with room before
    the step; never delete segment files by hand.
    """
    for d in sim.snapshot.log_dirs:
        ratio = d.used_fraction
        if ratio is not None and ratio >= DISK_WARN_RATIO:
            yield on_snapshot(
                f"Log dir {d.path} on broker {d.broker} is {ratio:.0%} full: {_level(ratio)}.",
                resources=[broker(d.broker), Resource(kind="log-dir", name=d.path)],
                remediation="Free space (retention) or move partitions off this broker.",
                data={"broker": d.broker, "path": d.path, "used": round(ratio, 4)},
            )
    total: Counter[int] = Counter()
    used: Counter[int] = Counter()
    for d in sim.snapshot.log_dirs:
        if d.total_bytes and d.usable_bytes is not None:
            total[d.broker] += d.total_bytes
            used[d.broker] += d.total_bytes - d.usable_bytes
    added: Counter[int] = Counter()
    for t in sim.transitions:
        if not isinstance(t.facts, ReassignFacts) or t.refused:
            continue
        receiving: set[int] = set()
        for m in t.facts.moves:
            for b in m.adding:
                added[b] += m.bytes_left // max(len(m.adding), 1)
                receiving.add(b)
        for b in sorted(receiving):
            if not total[b]:
                continue
            before = used[b] / total[b]
            ratio = (used[b] + added[b]) / total[b]
            if ratio >= DISK_WARN_RATIO and ratio > before:
                yield at_step(
                    t,
                    f"Broker {b} receives {human_bytes(added[b])} of new replicas: its disks "
                    f"go from {before:.0%} to {ratio:.0%} full, {_level(ratio)}.",
                    resources=[broker(b)],
                    remediation="Move fewer partitions to this broker, or free space first.",
                    key=f"projected:{b}",
                    data={"broker": b, "before": round(before, 4), "after": round(ratio, 4)},
                )
