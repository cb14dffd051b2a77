"""KC104 restart-unavoidable-outage."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.plan import Restart, RollingRestart, UpgradeBinaries
from cluster_engine.simulate import Simulation, Transition
from rules.cluster._common import at_step, names, topic
from rules.cluster._inherent import fragile_pids, inherent
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC104",
    name="restart-unavoidable-outage",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject="cluster",
)
def restart_unavoidable_outage(sim: Simulation) -> Iterator[Hit]:
    """RF 1 topics (or min ISR not below RF) are briefly unavailable in any restart.

    Topics with RF 1, or with min.insync.replicas not below their RF, are unavailable whenever
    one of their brokers restarts, whatever the plan does.

    Why: acks=all producers need ``min(min.insync.replicas, RF)`` in-sync replicas. When that
    is the whole replica set, the broker's controlled shutdown removes it from the ISR
    (4.1:MC/ReplicationControlManager.java:1427-1436) and produce fails with
    NOT_ENOUGH_REPLICAS until it is back; at RF 1 the partition has no leader at all. No pacing
    of the roll avoids it, so it is reported once for the whole plan and does not fail the roll
    (KC011 restart-breaks-min-isr judges the other partitions).

    Example:

        - rolling-restart: {}          # topic audit has RF 1

    Fix: raise the topic's replication factor to 3 (``kafka-reassign-partitions.sh`` with a
    longer replica list per partition) and keep ``min.insync.replicas`` below it (2 for RF 3).
    """
    first: Transition | None = None
    topics: set[str] = set()
    for t in sim.transitions:
        if not isinstance(t.step, Restart | RollingRestart | UpgradeBinaries) or not t.outages:
            continue
        fragile = fragile_pids(t.before)
        if not fragile:
            continue
        hit: set[str] = set()
        for o in t.outages:
            hit |= inherent(t.before, o.out, fragile).topics
        if hit and first is None:
            first = t
        topics |= hit
    if first is None:
        return
    rf = {name: first.before.table.topic_rf.get(name) for name in topics}
    mins = first.before.topic_min_isr
    shown = sorted(f"{n} (RF {rf[n]}, min.insync.replicas {mins.get(n, 1)})" for n in topics)
    effects = []
    if any(rf[n] == 1 for n in topics):
        effects.append("RF 1 partitions go offline for every producer and consumer")
    if any((rf[n] or 0) >= 2 for n in topics):
        who = "the others" if effects else "they"
        effects.append(f"{who} reject acks=all writes with NOT_ENOUGH_REPLICAS")
    yield at_step(
        first,
        f"Restarting brokers makes the partitions of {names(shown)} unavailable while their "
        "broker is down (min(min.insync.replicas, RF) is their whole replica set): "
        f"{' and '.join(effects)}. No order of restarts avoids it; the roll is not failed "
        "for it.",
        resources=[topic(n) for n in sorted(topics)],
        remediation="Raise the replication factor of these topics to 3 (kafka-reassign-"
        "partitions.sh --execute with three replicas per partition) and keep "
        "min.insync.replicas below it; until then expect a short outage per restart.",
        key="|".join(sorted(topics)),
        data={"topics": sorted(topics), "rf": rf},
    )
