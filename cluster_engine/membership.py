"""Membership and topic steps: brokers and controllers joining or leaving, leader elections,
topic and partition creation."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from cluster_engine.config_types import invalid_config_value
from cluster_engine.controller import Refusal, RefusalKind, registration_refusals
from cluster_engine.facts import CreateFacts, DecommissionFacts, ElectFacts
from cluster_engine.knowledge import (
    MSG_ADD_VOTER_KRAFT0,
    MSG_REMOVE_VOTER_KRAFT0,
    MSG_VOTER_CHANGE_PENDING,
    msg_rf_unreachable,
)
from cluster_engine.outcome import Effect, Outage, bad_step, common_version, effect, ranges
from cluster_engine.plan import (
    AddBroker,
    AddController,
    AddPartitions,
    CreateTopic,
    DecommissionBroker,
    ElectLeaders,
    RemoveController,
)
from cluster_engine.state import ClusterState, NodeState


def add_broker(state: ClusterState, step: AddBroker, path: str) -> Effect:
    if step.id in state.nodes:
        raise bad_step(path, step, f"node {step.id} is already in the cluster")
    version = step.version or common_version(state)
    node = NodeState(step.id, True, False, version, step.rack, ranges(version, {}))
    refusals = registration_refusals(state, node)
    if refusals:  # it never registers: the cluster does not change
        return effect(state, refusals=refusals)
    return effect(state.evolve(nodes=MappingProxyType({**state.nodes, step.id: node})))


def decommission(state: ClusterState, step: DecommissionBroker, path: str) -> Effect:
    for b in step.brokers:
        if b not in state.nodes or not state.nodes[b].is_broker:
            raise bad_step(path, step, f"broker {b} is not registered")
    gone = frozenset(step.brokers)
    holding = MappingProxyType(
        {b: tuple(state.table.replicas_on.get(b, ())) for b in step.brokers}
    )
    out = state.out_of_isr | gone
    outage = Outage(0, gone | state.down, out, state.health(out))
    nodes = {i: n for i, n in state.nodes.items() if i not in gone}
    after = state.evolve(nodes=MappingProxyType(nodes), down=state.down | gone, out_of_isr=out)
    return effect(after, (outage,), facts=DecommissionFacts(holding))


def quorum_change(state: ClusterState, step: AddController | RemoveController) -> Effect:
    adding = isinstance(step, AddController)
    refusals: list[Refusal] = []
    if state.kraft_version < 1:
        message = MSG_ADD_VOTER_KRAFT0 if adding else MSG_REMOVE_VOTER_KRAFT0
        refusals.append(Refusal(RefusalKind.KRAFT_VERSION_0, "kraft.version", 0, message))
    elif state.pending_voter_change:
        refusals.append(
            Refusal(RefusalKind.VOTER_CHANGE_PENDING, "kraft.version", 0, MSG_VOTER_CHANGE_PENDING)
        )
    elif adding and step.id in state.voters:
        refusals.append(
            Refusal(
                RefusalKind.DUPLICATE_VOTER,
                "kraft.version",
                0,
                f"Voter {step.id} already exists (DUPLICATE_VOTER)",
            )
        )
    elif not adding and step.id not in state.voters:
        refusals.append(
            Refusal(
                RefusalKind.VOTER_NOT_FOUND,
                "kraft.version",
                0,
                f"Voter {step.id} not found (VOTER_NOT_FOUND)",
            )
        )
    new_node: NodeState | None = None
    if isinstance(step, AddController) and not refusals and step.id not in state.nodes:
        version = step.version or common_version(state)
        new_node = NodeState(step.id, False, True, version, None, ranges(version, {}))
        # a controller whose binary does not support the finalized levels never catches up
        refusals.extend(registration_refusals(state, new_node))
    if refusals:
        return effect(state, refusals=refusals)
    voters = (
        tuple(sorted({*state.voters, step.id}))
        if adding
        else tuple(v for v in state.voters if v != step.id)
    )
    nodes = dict(state.nodes)
    if new_node is not None:
        nodes[step.id] = new_node
    if not adding and step.id in nodes and not nodes[step.id].is_broker:
        del nodes[step.id]
    after = state.evolve(
        voters=voters, nodes=MappingProxyType(nodes), pending_voter_change=not step.wait
    )
    return effect(after)


def elect(state: ClusterState, step: ElectLeaders) -> Effect:
    if step.type != "unclean":
        return effect(state)
    table = state.table
    topics = set(step.topics) if step.topics is not None else None
    isr: dict[int, tuple[int, ...]] = {}
    leader: dict[int, int] = {}
    gone = state.out_of_isr | state.down
    for pid, members in enumerate(table.isr):
        if topics is not None and table.topic[pid] not in topics:
            continue
        if any(b not in gone for b in members):
            continue
        live = [b for b in table.replicas[pid] if b not in gone]
        if live:
            isr[pid] = (live[0],)
            leader[pid] = live[0]
    after = state.evolve(table=table.changed(isr=isr, leader=leader)) if isr else state
    return effect(after, facts=ElectFacts(tuple(sorted(isr))))


def _create_brokers(
    state: ClusterState, step: CreateTopic | AddPartitions, during: Sequence[Outage]
) -> tuple[frozenset[int], list[int], list[int]]:
    """The brokers shutting down, registered, and live when the partitions are placed."""
    shutting: frozenset[int] = frozenset(
        i for i, n in state.nodes.items() if n.in_controlled_shutdown
    )
    down = state.down
    if isinstance(step, CreateTopic) and step.during_restart:
        worst = max(during, key=lambda o: len(o.down), default=None)
        if worst is not None:
            shutting, down = shutting | worst.down, down | worst.down
    registered = [b for b in state.brokers if b not in shutting]
    live = [b for b in registered if b not in down and not state.nodes[b].fenced]
    return shutting, registered, live


def _create_shape(
    state: ClusterState, step: CreateTopic | AddPartitions, path: str
) -> tuple[str, int, int, int]:
    """The topic's name, first new partition, replication factor and new partition count."""
    if isinstance(step, CreateTopic):
        rf = step.replication_factor or int(
            state.configs.broker_value(
                state.brokers[0] if state.brokers else 0, "default.replication.factor"
            )
            or 1
        )
        return step.topic, 0, rf, step.partitions
    name = step.topic
    existing = state.table.pids_of_topic.get(name)
    if not existing:
        raise bad_step(path, step, f"topic {name} is not in the cluster")
    start = len(existing)
    return name, start, len(state.table.replicas[existing[0]]), step.partitions - start


def _create_refusals(
    state: ClusterState,
    step: CreateTopic | AddPartitions,
    shape: tuple[str, int, int, int],
    registered: list[int],
    live: list[int],
) -> list[Refusal]:
    name, start, rf, count = shape
    refusals: list[Refusal] = []
    if isinstance(step, CreateTopic) and name in state.table.pids_of_topic:
        refusals.append(
            Refusal(RefusalKind.TOPIC_EXISTS, name, 0, f"Topic '{name}' already exists.")
        )
    if isinstance(step, AddPartitions) and count < 0:
        # 4.1:MC/ReplicationControlManager.java createPartitions (INVALID_PARTITIONS)
        message = (
            f"The topic {name} currently has {start} partition(s); {step.partitions} would not "
            "be an increase."
        )
        refusals.append(Refusal(RefusalKind.PARTITION_COUNT, name, 0, message))
    elif isinstance(step, AddPartitions) and count == 0:
        message = f"Topic already has {start} partition(s)."
        refusals.append(Refusal(RefusalKind.PARTITION_COUNT, name, 0, message))
    if isinstance(step, CreateTopic):
        for key, value in sorted(step.configs.items()):
            invalid = invalid_config_value(key, value)
            if invalid is not None:
                refusals.append(Refusal(RefusalKind.INVALID_CONFIG, key, 0, invalid))
    if rf > len(registered):
        refusals.append(
            Refusal(
                RefusalKind.REPLICATION_FACTOR, name, rf, msg_rf_unreachable(rf, len(registered))
            )
        )
    elif not live:
        refusals.append(
            Refusal(
                RefusalKind.REPLICATION_FACTOR,
                name,
                rf,
                f"Unable to replicate the partition {rf} time(s): "
                "All brokers are currently fenced.",
            )
        )
    return refusals


def _placements(
    start: int, rf: int, count: int, registered: list[int], live: list[int]
) -> list[tuple[int, ...]]:
    placements = []
    for i in range(count):  # the leader is always unfenced; unfenced brokers are preferred
        first = live[(start + i) % len(live)]
        rest = [b for b in live + [b for b in registered if b not in live] if b != first]
        shift = (start + i) % len(rest) if rest else 0
        placements.append((first, *(rest[shift:] + rest[:shift])[: rf - 1]))
    return placements


def create(
    state: ClusterState,
    step: CreateTopic | AddPartitions,
    path: str,
    during: Sequence[Outage],
) -> Effect:
    shutting, registered, live = _create_brokers(state, step, during)
    shape = _create_shape(state, step, path)
    name, start, rf, count = shape
    facts = CreateFacts(rf, tuple(registered), tuple(live), tuple(sorted(shutting)))
    refusals = _create_refusals(state, step, shape, registered, live)
    if refusals:
        return effect(state, refusals=refusals, facts=facts)
    placements = _placements(start, rf, count, registered, live)
    isrs = [tuple(b for b in p if b in live) for p in placements]
    table = state.table.extended(name, range(start, start + count), placements, isrs)
    after = state.evolve(table=table)
    if isinstance(step, CreateTopic):
        configs = after.configs
        for key, value in step.configs.items():
            configs = configs.with_value("topic", name, key, value)
        after = after.evolve(configs=configs)
    return effect(after, facts=facts)
