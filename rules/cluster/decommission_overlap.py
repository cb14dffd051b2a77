"""KC014 decommission-overlap."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from cluster_engine.plan import DecommissionBroker
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, broker, ids, names
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC014",
    name="decommission-overlap",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def decommission_overlap(t: Transition) -> Iterator[Hit]:
    """Brokers sharing partitions are removed at once (or one after the other, undrained).

    Why: every partition with replicas on two removed brokers loses two replicas together: with
    RF=3 it is left with one, below min.insync.replicas=2, or offline when it had RF=2.

    Example:

        - decommission-broker: {brokers: [3, 4]}   # orders-0 has replicas on 3 and 4

    Fix: decommission one broker at a time, each only after its partitions were reassigned
    away; never remove two brokers until you have checked they share no partition.
    """
    if not isinstance(t.step, DecommissionBroker):
        return
    table = t.before.table
    removed = set(t.step.brokers) | {b for b in t.before.down if b not in t.before.nodes}
    if len(removed) < 2:
        return
    hits: Counter[int] = Counter()
    for b in removed:
        hits.update(table.replicas_on.get(b, ()))
    shared = [pid for pid, n in hits.items() if n >= 2]
    if not shared:
        return
    topics = {table.topic[p] for p in shared}
    h = t.outages[0].health if t.outages else None
    effect = (
        f"; {h.under_min_isr} partition(s) end under min ISR, {h.offline} offline"
        if h is not None
        else ""
    )
    yield at_step(
        t,
        f"Brokers {ids(removed)} share {len(shared)} partition(s) of topic(s) {names(topics)}; "
        f"removing them together drops two replicas of each{effect}.",
        resources=[broker(b) for b in sorted(removed)],
        remediation="Drain and decommission one broker at a time.",
        data={"brokers": sorted(removed), "partitions": len(shared), "topics": sorted(topics)},
    )
