"""KC012 restart-without-urp-wait."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.facts import RestartFacts
from cluster_engine.plan import Restart, RollingRestart, UpgradeBinaries
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, broker
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC012",
    name="restart-without-urp-wait",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def restart_without_urp_wait(t: Transition) -> Iterator[Hit]:
    """A rolling restart does not wait for under-replicated partitions to return to 0.

    Why: a restarted broker comes back fenced and rejoins each ISR only after catching up
    (``replica.lag.time.max.ms``, 30 s). Restarting the next broker before that takes a second
    replica of the same partitions out of the ISRs: the roll behaves like a parallel restart.

    Example:

        - rolling-restart: {wait-for-urp: false}

    Fix: set ``wait-for-urp: true``: after each broker, wait until it is unfenced and
    ``UnderReplicatedPartitions`` is 0.
    """
    step = t.step
    if not isinstance(step, Restart | RollingRestart | UpgradeBinaries) or step.wait_for_urp:
        return
    if not isinstance(t.facts, RestartFacts):
        return
    batches = t.facts.batches
    if len(batches) < 2:
        return
    worst = max(t.outages, key=lambda o: o.health.under_min_isr, default=None)
    effect = ""
    if worst is not None and worst.health.under_min_isr > t.before.summary_health.under_min_isr:
        effect = (
            f"; the simulation puts {worst.health.under_min_isr} partition(s) under min ISR "
            f"while brokers {sorted(worst.out)} are out together"
        )
    nodes = [b for batch in batches for b in batch]
    yield at_step(
        t,
        f"The restart of {len(nodes)} node(s) in {len(batches)} batches does not wait for "
        f"UnderReplicatedPartitions=0 between batches{effect}.",
        resources=[broker(b) for b in nodes],
        remediation="Set wait-for-urp: true, so each broker is unfenced and in sync before the "
        "next one stops.",
        data={"batches": [list(b) for b in batches]},
    )
