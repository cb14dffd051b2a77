"""KC021 unclean-election-planned."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.facts import ElectFacts
from cluster_engine.plan import ElectLeaders
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, names, topic
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC021",
    name="unclean-election-planned",
    severity=Severity.ERROR,
    impact=Impact.DATA_LOSS,
    subject=CLUSTER_STEP,
)
def unclean_election_planned(t: Transition) -> Iterator[Hit]:
    """The plan runs an unclean leader election: committed records are lost.

    Why: ``kafka-leader-election.sh --election-type UNCLEAN`` promotes an out-of-sync replica;
    the controller resets the ISR to it with LeaderRecoveryState=RECOVERING
    (4.1:MC/PartitionChangeBuilder.java:348-356). Every record the new leader missed is gone.
    Quiet when the simulation finds no leaderless partition in scope at this step: the
    election then has nothing to act on.

    Example:

        - elect-leaders: {type: unclean, topics: [orders]}

    Fix: bring back a broker that was in the ISR instead; if the data is truly lost anyway,
    document the decision and fail over consumers from a MirrorMaker 2 standby.
    """
    step = t.step
    if not isinstance(step, ElectLeaders) or not isinstance(t.facts, ElectFacts):
        return
    pids = t.facts.unclean
    if not pids:
        return  # no partition in scope is leaderless at this step: nothing to elect
    table = t.before.table
    topics = sorted({table.topic[p] for p in pids})
    scope = f"topics {names(step.topics)}" if step.topics else "all topics"
    effect = (
        f"{len(pids)} leaderless partition(s) of {names(topics)} would elect an out-of-sync "
        "replica"
    )
    yield at_step(
        t,
        f"Unclean leader election on {scope}: {effect}, losing the records it missed.",
        resources=[topic(n) for n in topics],
        remediation="Recover an in-sync replica's broker instead of electing uncleanly.",
        data={"partitions": len(pids), "topics": topics},
    )
