"""KC020 unclean-election-enabled."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.knowledge import UNCLEAN_LEADER_ELECTION
from cluster_engine.plan import AlterConfig, CreateTopic
from cluster_engine.simulate import Simulation
from rules.cluster._common import CLUSTER, at_step, names, on_snapshot
from rules.cluster.unclean_election_enabled_leaderless import leaderless_exposed
from rules.framework import Hit, Impact, Resource, Severity, rule


def _true(value: str | None) -> bool:
    return value is not None and value.strip().lower() == "true"


@rule(
    id="KC020",
    name="unclean-election-enabled",
    severity=Severity.WARNING,
    impact=Impact.DATA_LOSS,
    subject=CLUSTER,
)
def unclean_election_enabled(sim: Simulation) -> Iterator[Hit]:
    """``unclean.leader.election.enable=true``: an out-of-sync replica may become leader.

    Why: when every in-sync replica is lost, an unclean election promotes a replica that misses
    committed records; they are gone for good (the default is false since 0.11,
    4.1:storage/.../LogConfig.java:133). KRaft retries it every
    ``unclean.leader.election.interval.ms`` (5 min) for leaderless partitions. Enabling it
    while a partition is already leaderless is KC102 unclean-election-enabled-leaderless.

    Example:

        - alter-config: {scope: topic, entity: orders, key: unclean.leader.election.enable,
                         value: true}

    Fix: keep it false; decide per topic, before an incident, which data may be lost, and keep a
    MirrorMaker 2 standby for data that may not.
    """
    c = sim.initial.configs
    where: list[str] = []
    if _true(c.cluster.get(UNCLEAN_LEADER_ELECTION)):
        where.append("cluster default")
    where += [
        f"broker {b}" for b, v in sorted(c.brokers.items()) if _true(v.get(UNCLEAN_LEADER_ELECTION))
    ]
    where += [
        f"topic {t}" for t, v in sorted(c.topics.items()) if _true(v.get(UNCLEAN_LEADER_ELECTION))
    ]
    if where:
        yield on_snapshot(
            f"unclean.leader.election.enable=true in the snapshot ({names(where)}): a leaderless "
            "partition may elect an out-of-sync replica and lose committed records.",
            resources=[Resource(kind="config", name=UNCLEAN_LEADER_ELECTION)],
            remediation="Set it back to false (kafka-configs.sh --alter --delete-config).",
            key="snapshot",
        )
    for t in sim.transitions:
        step = t.step
        enabled = (
            isinstance(step, AlterConfig)
            and step.key == UNCLEAN_LEADER_ELECTION
            and _true(step.value)
        ) or (isinstance(step, CreateTopic) and _true(step.configs.get(UNCLEAN_LEADER_ELECTION)))
        if enabled and not t.refused and not leaderless_exposed(t):  # KC102 reports it
            yield at_step(
                t,
                "This step enables unclean.leader.election.enable: a leaderless partition may "
                "elect an out-of-sync replica and lose committed records.",
                resources=[Resource(kind="config", name=UNCLEAN_LEADER_ELECTION)],
                remediation="Leave unclean.leader.election.enable=false.",
            )
