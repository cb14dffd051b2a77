"""KC013 decommission-before-drain."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.facts import DecommissionFacts
from cluster_engine.plan import DecommissionBroker
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, broker, names, plural
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC013",
    name="decommission-before-drain",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def decommission_before_drain(t: Transition) -> Iterator[Hit]:
    """A broker is decommissioned while it still holds replicas.

    Why: the controller does not check that a broker is drained: ``unregisterBroker`` only removes
    it from every ISR and ELR (4.1:MC/ReplicationControlManager.java:1385-1394). Its replicas
    stay in the replica lists, permanently under-replicated, one failure away from going under
    min.insync.replicas, until someone reassigns them. A partition whose every replica is on the
    decommissioned brokers (RF 1) has no other replica to lead it: it goes offline, and its only
    copy leaves with the broker.

    Example:

        - decommission-broker: {brokers: [3]}     # broker 3 still holds orders-0 ... orders-5

    Fix: reassign every partition off the broker (throttled), verify the reassignment, check its
    partition count is 0, then stop and unregister it.
    """
    if not isinstance(t.step, DecommissionBroker) or not isinstance(t.facts, DecommissionFacts):
        return
    holding = t.facts.holding
    table = t.before.table
    leaving = set(t.step.brokers)
    for b, pids in sorted(holding.items()):
        if not pids:
            continue
        # every replica on leaving brokers: nothing is left to lead it or copy from
        sole = [p for p in pids if set(table.replicas[p]) <= leaving]
        moving_off = {
            table.pid_of[m.key]
            for m in t.before.moves.values()
            if b in m.removing and m.key in table.pid_of
        }
        topics = {table.topic[p] for p in pids}
        still = f" ({len(moving_off)} of them still moving off)" if moving_off else ""
        lost = ""
        if sole:
            shown = names(table.name(p) for p in sole)
            lost = (
                f" No replica on another broker, so offline with the only copy lost (data loss): "
                f"{plural(len(sole), 'partition')} ({shown})."
            )
        rest = len(pids) - len(sole)
        under = (
            f" Decommissioning it leaves {'the other ' if sole else ''}{rest} partition(s) "
            "under-replicated until they are reassigned."
            if rest
            else ""
        )
        yield at_step(
            t,
            f"Broker {b} still holds {len(pids)} replica(s){still} of topic(s) {names(topics)}."
            f"{lost}{under}",
            resources=[broker(b)],
            remediation=f"Reassign every partition off broker {b} and verify the reassignment "
            "before the decommission-broker step.",
            data={
                "broker": b,
                "replicas": len(pids),
                "topics": sorted(topics),
                "offline": len(sole),
            },
        )
