"""KC104 restart-unavoidable-outage."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.plan import Restart, RollingRestart, UpgradeBinaries
from cluster_engine.simulate import Simulation, Transition
from rules.cluster._common import CLUSTER, at_step, names, topic
from rules.cluster._inherent import fragile_pids, inherent
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC104",
    name="restart-unavoidable-outage",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER,
)
def restart_unavoidable_outage(sim: Simulation) -> Iterator[Hit]:
    """RF 1 topics are briefly offline in any restart of their brokers.

    A topic with RF 1 is offline whenever its broker restarts, whatever the plan does.

    Why: a partition with one replica has no leader while that broker is down: every producer
    and consumer of it waits until the broker is back. No pacing of the roll avoids it, so it is
    reported once for the whole plan and does not fail the roll (KC011 restart-breaks-min-isr
    judges the other partitions). The same holds for acks=all writes to any topic whose
    ``min.insync.replicas`` is not below its RF (``min(min.insync.replicas, RF)`` is then the
    whole replica set): KC027 min-isr-not-below-rf reports those once.

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
        # RF >= 2 with min ISR not below it is KC027 min-isr-not-below-rf's, reported once there
        rf_of = t.before.table.topic_rf
        hit = {n for n in hit if rf_of.get(n) == 1}
        if hit and first is None:
            first = t
        topics |= hit
    if first is None:
        return
    shown = sorted(topics)
    yield at_step(
        first,
        f"Restarting brokers takes the partitions of {names(shown)} (RF 1) offline while their "
        "broker is down: every producer and consumer of them waits. No order of restarts "
        "avoids it; the roll is not failed for it.",
        resources=[topic(n) for n in sorted(topics)],
        remediation="Raise the replication factor of these topics to 3 (kafka-reassign-"
        "partitions.sh --execute with three replicas per partition, min.insync.replicas 2); "
        "until then expect a short outage of them per restart.",
        key="|".join(shown),
        # the roll passes, but its verdict must not read as "no outage"
        data={
            "topics": shown,
            "verdict_note": f"Safe only with a brief outage: {names(shown)} (RF 1) go offline "
            "while their broker restarts.",
        },
    )
