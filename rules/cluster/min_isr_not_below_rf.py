"""KC027 min-isr-not-below-rf."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.facts import ReassignFacts
from cluster_engine.plan import AlterConfig, CreateTopic, Reassign
from cluster_engine.simulate import Simulation, Transition
from cluster_engine.state import ClusterState, Move
from rules.cluster._common import CLUSTER, at_step, on_snapshot, topic
from rules.framework import Hit, Impact, Severity, rule


def _offenders(state: ClusterState) -> dict[str, tuple[int, int]]:
    return state.min_isr_at_rf()


@rule(
    id="KC027",
    name="min-isr-not-below-rf",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER,
)
def min_isr_not_below_rf(sim: Simulation) -> Iterator[Hit]:
    """``min.insync.replicas`` is not below the replication factor: one broker down blocks writes.

    Why: acks=all producers need ``min(min.insync.replicas, RF)`` in-sync replicas. With min ISR
    equal to RF every restart, failure or reassignment of one replica broker rejects produce with
    NOT_ENOUGH_REPLICAS and stops the high watermark (consumers stall). A reassignment that
    lowers a partition's RF below ``min.insync.replicas`` is accepted, and the threshold becomes
    ``min(min.insync.replicas, RF)`` (4.1:core/src/main/scala/kafka/cluster/Partition.scala:
    382-393): acks=all then means only RF copies, fewer than min.insync.replicas promises.

    Example:

        - create-topic: {topic: audit, replication-factor: 2, configs: {min.insync.replicas: 2}}

    Fix: use RF = min.insync.replicas + 1 (the usual RF=3, min ISR=2).
    """
    for name, (m, rf) in sorted(_offenders(sim.initial).items()):
        yield on_snapshot(
            f"Topic {name} has min.insync.replicas={m} with RF {rf}: one broker down blocks "
            "acks=all producers.",
            resources=[topic(name)],
            remediation=f"Lower min.insync.replicas to {rf - 1} or raise the RF to {m + 1}.",
            data={"min_isr": m, "rf": rf},
        )
    for t in sim.transitions:
        step = t.step
        if isinstance(step, Reassign) and not t.refused:
            yield from _rf_below_min_isr(t)
            continue
        if t.refused or not isinstance(step, AlterConfig | CreateTopic):
            continue
        if isinstance(step, AlterConfig) and step.key != "min.insync.replicas":
            continue
        before = _offenders(t.before)
        for name, (m, rf) in sorted(_offenders(t.after).items()):
            if name in before:
                continue
            yield at_step(
                t,
                f"After this step topic {name} has min.insync.replicas={m} with RF {rf}: one "
                "broker down blocks acks=all producers.",
                resources=[topic(name)],
                remediation=f"Keep min.insync.replicas below the RF ({rf - 1} at most).",
                data={"min_isr": m, "rf": rf},
            )


def _rf_below_min_isr(t: Transition) -> Iterator[Hit]:
    """Moves of this reassignment that take a partition's RF below its min.insync.replicas."""
    mins = t.before.topic_min_isr
    low: dict[str, list[Move]] = {}
    started = t.facts.moves if isinstance(t.facts, ReassignFacts) else ()
    for m in started:
        m_isr = mins.get(m.key[0], 1)
        if len(m.target) < m_isr <= len(m.original):
            low.setdefault(m.key[0], []).append(m)
    for name, moves in sorted(low.items()):
        m_isr = mins[name]
        rf = min(len(m.target) for m in moves)
        parts = ", ".join(f"{name}-{m.key[1]}" for m in sorted(moves, key=lambda m: m.key[1]))
        yield at_step(
            t,
            f"This reassignment lowers the RF of {parts} to {rf}, below "
            f"min.insync.replicas={m_isr}: the effective minimum ISR becomes "
            f"min({m_isr}, {rf}) = {rf}, so acks=all no longer means {m_isr} copies.",
            resources=[topic(name)],
            remediation=f"Keep at least {m_isr + 1} replicas (min.insync.replicas + 1), or lower "
            "min.insync.replicas knowingly.",
            key=f"rf:{name}",
            data={"min_isr": m_isr, "rf": rf, "partitions": len(moves)},
        )
