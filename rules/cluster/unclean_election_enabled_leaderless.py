"""KC102 unclean-election-enabled-leaderless."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.knowledge import UNCLEAN_LEADER_ELECTION
from cluster_engine.plan import AlterConfig
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, names, plural, topic
from rules.framework import Hit, Impact, Severity, rule


def leaderless_exposed(t: Transition) -> list[int]:
    """Partitions with no live in-sync replica before ``t`` that its config change exposes to
    an unclean election (unclean.leader.election.enable true after it, not before)."""
    step = t.step
    if (
        not isinstance(step, AlterConfig)
        or step.key != UNCLEAN_LEADER_ELECTION
        or step.value is None
        or step.value.strip().lower() != "true"
        or t.refused
    ):
        return []
    before, after = t.before, t.after
    table = before.table
    gone = before.out_of_isr | before.fenced  # fenced includes brokers the plan stopped
    broker = int(step.entity) if step.scope == "broker" and step.entity else None
    out: list[int] = []
    for p, (name, leader, isr) in enumerate(zip(table.topic, table.leader, table.isr, strict=True)):
        if leader != -1 and any(b not in gone for b in isr):
            continue
        if step.scope == "topic" and name != step.entity:
            continue
        if broker is not None:
            overridden = UNCLEAN_LEADER_ELECTION in before.configs.topics.get(name, {})
            if broker not in table.replicas[p] or overridden:
                continue
        elif before.unclean_enabled(name) or not after.unclean_enabled(name):
            continue
        out.append(p)
    return out


@rule(
    id="KC102",
    name="unclean-election-enabled-leaderless",
    severity=Severity.ERROR,
    impact=Impact.DATA_LOSS,
    subject=CLUSTER_STEP,
)
def unclean_election_enabled_leaderless(t: Transition) -> Iterator[Hit]:
    """Enabling unclean leader election while a partition is leaderless loses its data now.

    Why: a partition whose in-sync replicas are all gone has no leader. As soon as
    ``unclean.leader.election.enable`` is true for it, the KRaft controller elects an
    out-of-sync replica (it checks leaderless partitions every
    ``unclean.leader.election.interval.ms``) and resets the ISR to it with
    LeaderRecoveryState=RECOVERING (4.1:MC/PartitionChangeBuilder.java:348-356): every record
    the new leader missed is gone, at that moment, not in some later incident.

    Example:

        - alter-config: {scope: topic, entity: orders, key: unclean.leader.election.enable,
                         value: true}       # orders-0 shows Leader: none in the snapshot

    Fix: bring back a broker that was in the ISR (its data is intact); enable unclean election
    only as a documented last resort once those brokers are known lost.
    """
    pids = leaderless_exposed(t)
    if not pids:
        return
    table = t.before.table
    topics = sorted({table.topic[p] for p in pids})
    yield at_step(
        t,
        f"This step enables unclean leader election while {plural(len(pids), 'partition')} of "
        f"{names(topics)} have no live in-sync replica: the controller elects an out-of-sync "
        "replica right away and the records it missed are lost.",
        resources=[topic(n) for n in topics],
        remediation="Restart a broker that was in the ISR instead, and keep "
        "unclean.leader.election.enable=false.",
        key="|".join(topics),
        data={"partitions": len(pids), "topics": topics},
    )
