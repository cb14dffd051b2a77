"""KC015 broker-added-without-reassignment."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.plan import AddBroker, Reassign
from cluster_engine.simulate import Simulation
from rules.cluster._common import CLUSTER, at_step, broker
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC015",
    name="broker-added-without-reassignment",
    severity=Severity.WARNING,
    impact=Impact.HYGIENE,
    subject=CLUSTER,
)
def broker_added_without_reassignment(sim: Simulation) -> Iterator[Hit]:
    """A broker is added but no later reassignment moves partitions onto it.

    Why: Kafka never moves data by itself. A new broker registers, unfences and hosts nothing
    until partitions are reassigned to it; only new topics land there.

    Example:

        - add-broker: {id: 4}
        # no reassign step naming broker 4

    Fix: add a ``reassign`` step (throttled) whose target replicas include the new broker, e.g.
    generated with ``kafka-reassign-partitions.sh --generate --broker-list``.
    """
    for i, t in enumerate(sim.transitions):
        if not isinstance(t.step, AddBroker) or t.refused:
            continue
        new = t.step.id
        used = any(
            isinstance(later.step, Reassign)
            and not later.refused
            and any(new in m.replicas for m in later.step.partitions)
            for later in sim.transitions[i + 1 :]
        )
        if not used:
            yield at_step(
                t,
                f"Broker {new} is added but no later reassignment moves any partition onto it: "
                "it will carry no load.",
                resources=[broker(new)],
                remediation=f"Add a throttled reassign step with broker {new} in its target "
                "replicas, then verify-reassignment.",
            )
