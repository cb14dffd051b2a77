"""KC011 restart-breaks-min-isr."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.outcome import Outage
from cluster_engine.plan import Restart, RollingRestart, UpgradeBinaries
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, ids, names, topic
from rules.cluster._inherent import fragile_pids, inherent
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC011",
    name="restart-breaks-min-isr",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def restart_breaks_min_isr(t: Transition) -> Iterator[Hit]:
    """A restart leaves partitions below min.insync.replicas (or offline) while it runs.

    Why: a broker entering controlled shutdown is removed from every ISR at once
    (4.1:MC/ReplicationControlManager.java:1427-1436). A partition whose ISR would drop below
    ``min(min.insync.replicas, RF)`` rejects acks=all produce with NOT_ENOUGH_REPLICAS and, since
    3.7, stops advancing its high watermark, so consumers stall too. With RF=3 and min ISR 2,
    two brokers sharing partitions must never be down together.

    Partitions whose min.insync.replicas is not below their RF (RF 1 included) go unavailable
    whenever one of their brokers restarts, however the roll is paced: they are not counted
    here but reported once, by KC104 restart-unavoidable-outage (RF 1) and KC027
    min-isr-not-below-rf (the others).

    Example:

        - restart: {nodes: [1, 2]}          # 3 brokers, RF=3, min.insync.replicas=2

    Fix: restart one broker at a time (``at-once: 1``) and wait for under-replicated partitions
    to return to 0 before the next; or restart only brokers that share no partition.
    """
    if not isinstance(t.step, Restart | RollingRestart | UpgradeBinaries):
        return
    base = t.before.summary_health
    fragile = fragile_pids(t.before)
    # (outage, partitions under min ISR, offline, topics), the unavoidable part left out
    judged: list[tuple[Outage, int, int, list[str]]] = []
    for o in t.outages:
        part = inherent(t.before, o.out, fragile)
        under = o.health.under_min_isr - part.under_min_isr
        offline = o.health.offline - part.offline
        if under > base.under_min_isr or offline > base.offline:
            named = (set(o.health.under_min_isr_topics) | set(o.health.offline_topics)) - (
                part.topics
                - part.avoidable_topics
                - set(base.under_min_isr_topics)
                - set(base.offline_topics)
            )
            judged.append((o, under, offline, sorted(named)))
    if not judged:
        return
    worst, under, offline_now, topics = max(judged, key=lambda j: (j[2], j[1]))
    new_under = under - base.under_min_isr
    offline = offline_now - base.offline
    down = ids(worst.out)
    lagging = worst.out - worst.down
    lag_note = f" (broker(s) {ids(lagging)} still catching up)" if lagging else ""
    off_note = f", {offline} of them offline" if offline > 0 else ""
    yield at_step(
        t,
        f"With broker(s) {down} out of the ISRs{lag_note}, {new_under} partition(s) fall "
        f"below min.insync.replicas{off_note}, in topic(s) {names(topics)}: acks=all producers "
        "get NOT_ENOUGH_REPLICAS and consumers stall until the brokers are back in sync.",
        resources=[topic(n) for n in topics],
        remediation="Restart one broker at a time and wait for UnderReplicatedPartitions=0 "
        "(and the broker unfenced) before the next one.",
        key="|".join(topics),
        data={
            "brokers": sorted(worst.out),
            "partitions": new_under,
            "offline": offline,
            "topics": topics,
            "batches": [{"down": sorted(o.out), "under_min_isr": u} for o, u, _, _ in judged],
        },
    )
