"""KC008 throttle-left-behind."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.facts import VerifyFacts
from cluster_engine.plan import Reassign, VerifyReassignment
from cluster_engine.simulate import Simulation
from rules.cluster._common import CLUSTER, at_step, config, names, on_snapshot
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC008",
    name="throttle-left-behind",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER,
)
def throttle_left_behind(sim: Simulation) -> Iterator[Hit]:
    """Replication throttles stay configured with no reassignment to justify them.

    Why: ``--verify`` removes throttles only when no reassignment at all is in flight and
    ``--preserve-throttles`` was not given, and only on the topics of its JSON
    (4.1:tools/.../ReassignPartitionsCommand.java:209-237,501-547). A leftover
    ``leader.replication.throttled.replicas`` with a low rate slows every later catch-up of those
    replicas, including recovery after a broker failure: a latent outage.

    Example:

        - reassign: {file: move.json, throttle: 50000000}
        # no verify-reassignment after it completes

    Fix: run ``kafka-reassign-partitions.sh --verify`` once every reassignment is done, or
    delete the throttle configs with ``kafka-configs.sh --alter --delete-config``.
    """
    initial, final = sim.initial, sim.final
    if initial.throttles and not initial.moves and (not sim.transitions or final.throttles):
        yield on_snapshot(
            "The snapshot has replication throttles and no reassignment in flight: "
            + names(initial.throttles, 6)
            + ".",
            resources=[config(k) for k in initial.throttles],
            remediation="Delete them with kafka-configs.sh --alter --delete-config "
            "leader.replication.throttled.rate,follower.replication.throttled.rate (brokers) "
            "and leader/follower.replication.throttled.replicas (topics).",
            key="snapshot",
        )
    if not final.throttles or (final.throttles == initial.throttles and not initial.moves):
        return
    origin = next(
        (
            t
            for t in reversed(sim.transitions)
            if isinstance(t.step, Reassign | VerifyReassignment) and not t.refused
        ),
        None,
    )
    if origin is None:
        return
    if final.moves:
        why = "the plan ends with reassignments in flight and no verify-reassignment after them"
    elif isinstance(origin.facts, VerifyFacts):
        why = f"the last verify-reassignment kept them: {origin.facts.kept_because}"
    else:
        why = "no verify-reassignment runs after the reassignment completes"
    yield at_step(
        origin,
        f"After the plan, replication throttles remain ({why}): {names(final.throttles, 6)}. "
        "Left in place they slow every later catch-up of those replicas.",
        resources=[config(k) for k in final.throttles],
        remediation="End the plan with verify-reassignment (wait: true, without "
        "preserve-throttles) once every reassignment is complete.",
        key="plan",
        data={"throttles": dict(final.throttles)},
    )
