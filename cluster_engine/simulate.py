"""Apply a change plan to a snapshot, step by step.

:func:`simulate` returns a :class:`Simulation`: the initial state and one :class:`Transition` per
step (the step, the state before and after it, the moments inside it when brokers are down
together, and what the controller or the tools would refuse). A refused step leaves the state
unchanged, as Kafka would. Rules read transitions; reports read :meth:`Simulation.summaries`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ConfigDict

from cluster_engine.controller import (
    Refusal,
    config_refusal,
    feature_refusals,
    requested_levels,
)
from cluster_engine.errors import ClusterInputError
from cluster_engine.knowledge import (
    ELR_FEATURE,
    FEATURES,
    METADATA_VERSION,
    MIN_INSYNC_REPLICAS,
    MSG_ADD_VOTER_KRAFT0,
    MSG_REMOVE_VOTER_KRAFT0,
    MSG_VOTER_CHANGE_PENDING,
    THROTTLE_RATE_KEYS,
    THROTTLED_REPLICAS_KEYS,
    msg_cancel_unclean,
    msg_rf_unreachable,
    supported_range,
)
from cluster_engine.plan import (
    AddBroker,
    AddController,
    AddPartitions,
    AlterConfig,
    CancelReassignment,
    CreateTopic,
    DecommissionBroker,
    ElectLeaders,
    Plan,
    Reassign,
    RemoveController,
    Restart,
    RollingRestart,
    Step,
    UpdateFeature,
    UpgradeBinaries,
    VerifyReassignment,
)
from cluster_engine.snapshot import Snapshot
from cluster_engine.state import ClusterState, Health, Move, NodeState, initial_state


@dataclass(frozen=True, slots=True)
class Outage:
    """A moment inside a step: ``down`` brokers stopped together, ``out`` all those out of ISRs
    (the down ones plus restarted ones still catching up when the plan does not wait)."""

    batch: int
    down: frozenset[int]
    out: frozenset[int]
    health: Health


@dataclass(frozen=True)
class Transition:
    """One step and what it did. ``notes`` hold step-specific facts for rules (documented where
    they are set)."""

    index: int
    step: Step
    before: ClusterState
    after: ClusterState
    plan_path: str
    outages: tuple[Outage, ...] = ()
    refusals: tuple[Refusal, ...] = ()
    notes: Mapping[str, Any] = field(default_factory=dict)

    @property
    def refused(self) -> bool:
        return bool(self.refusals)

    @property
    def worst(self) -> Outage | None:
        """The outage leaving the most partitions under min ISR (then offline)."""
        return max(
            self.outages,
            key=lambda o: (o.health.offline, o.health.under_min_isr, -o.batch),
            default=None,
        )


class StepSummary(BaseModel):
    """What a timeline shows per step (``step`` None: the snapshot itself)."""

    model_config = ConfigDict(frozen=True)

    step: int | None
    line: int | None
    action: str
    refused: tuple[str, ...] = ()
    brokers: int
    down: tuple[int, ...]
    fenced: tuple[int, ...]
    partitions: int
    offline: int
    under_min_isr: int
    under_replicated: int
    at_min_isr: int
    worst_offline: int
    worst_under_min_isr: int
    features: dict[str, int]
    throttles: dict[str, str]
    reassignments: int
    bytes_to_move: int
    voters: tuple[int, ...]


@dataclass(frozen=True)
class Simulation:
    snapshot: Snapshot
    plan: Plan
    initial: ClusterState
    transitions: tuple[Transition, ...]

    @property
    def final(self) -> ClusterState:
        return self.transitions[-1].after if self.transitions else self.initial

    def summaries(self) -> tuple[StepSummary, ...]:
        out = [_summary(None, None, "snapshot", self.initial, ())]
        for t in self.transitions:
            out.append(
                _summary(
                    t.index,
                    t.step.line,
                    t.step.action,
                    t.after,
                    t.outages,
                    tuple(r.message for r in t.refusals),
                )
            )
        return tuple(out)


def _summary(
    index: int | None,
    line: int | None,
    action: str,
    state: ClusterState,
    outages: Sequence[Outage],
    refused: tuple[str, ...] = (),
) -> StepSummary:
    h = state.summary_health
    return StepSummary(
        step=index,
        line=line,
        action=action,
        refused=refused,
        brokers=len(state.brokers),
        down=tuple(sorted(state.down)),
        fenced=tuple(sorted(state.fenced)),
        partitions=len(state.table),
        offline=h.offline,
        under_min_isr=h.under_min_isr,
        under_replicated=h.under_replicated,
        at_min_isr=h.at_min_isr,
        worst_offline=max([h.offline, *(o.health.offline for o in outages)]),
        worst_under_min_isr=max([h.under_min_isr, *(o.health.under_min_isr for o in outages)]),
        features=dict(sorted(state.features.items())),
        throttles=dict(state.throttles),
        reassignments=len(state.moves),
        bytes_to_move=state.bytes_to_move,
        voters=state.voters,
    )


def simulate(snapshot: Snapshot, plan: Plan) -> Simulation:
    state = initial_state(snapshot)
    return Simulation(snapshot, plan, state, tuple(transitions(state, plan)))


def transitions(state: ClusterState, plan: Plan) -> Iterator[Transition]:
    """Yield each step's transition, feeding each step the previous step's ``after``."""
    previous: Transition | None = None
    for step in plan.steps:
        if state.catching_up and previous is not None and not previous.outages:
            # restarted brokers the plan did not wait for are back in the ISRs one step later
            state = state.evolve(
                out_of_isr=state.out_of_isr - state.catching_up, catching_up=frozenset()
            )
        t = _apply(state, step, plan.path, previous)
        yield t
        state, previous = t.after, t


# --------------------------------------------------------------------------------------------


def _bad(path: str, step: Step, message: str) -> ClusterInputError:
    return ClusterInputError(path, step.line, f"step {step.index + 1} ({step.action}): {message}")


def _apply(state: ClusterState, step: Step, path: str, previous: Transition | None) -> Transition:
    def done(
        after: ClusterState,
        outages: tuple[Outage, ...] = (),
        refusals: Sequence[Refusal] = (),
        **notes: Any,
    ) -> Transition:
        return Transition(
            step.index, step, state, after, path, outages, tuple(refusals), MappingProxyType(notes)
        )

    if isinstance(step, UpgradeBinaries | Restart | RollingRestart):
        return _restart(state, step, path, done)
    if isinstance(step, UpdateFeature):
        return _update_feature(state, step, done)
    if isinstance(step, AlterConfig):
        return _alter_config(state, step, done)
    if isinstance(step, Reassign):
        return _reassign(state, step, done)
    if isinstance(step, VerifyReassignment):
        return _verify(state, step, done)
    if isinstance(step, CancelReassignment):
        return _cancel(state, step, done)
    if isinstance(step, AddBroker):
        if step.id in state.nodes:
            raise _bad(path, step, f"node {step.id} is already in the cluster")
        version = step.version or _common_version(state)
        node = NodeState(step.id, True, False, version, step.rack, _ranges(version, {}))
        return done(state.evolve(nodes=MappingProxyType({**state.nodes, step.id: node})))
    if isinstance(step, DecommissionBroker):
        return _decommission(state, step, path, done)
    if isinstance(step, AddController | RemoveController):
        return _quorum_change(state, step, done)
    if isinstance(step, ElectLeaders):
        return _elect(state, step, done)
    if isinstance(step, CreateTopic | AddPartitions):
        return _create(state, step, path, previous, done)
    raise AssertionError(step)  # pragma: no cover - the plan model lists every kind


def _common_version(state: ClusterState) -> str | None:
    versions = sorted({n.version for n in state.nodes.values() if n.version})
    return versions[-1] if versions else None


def _ranges(
    version: str | None, old: Mapping[str, tuple[int, int]]
) -> Mapping[str, tuple[int, int]]:
    """The feature ranges a node of ``version`` advertises (knowledge), keeping unknown ones."""
    if version is None:
        return old
    out = dict(old)
    for name in (METADATA_VERSION, *FEATURES):
        span = supported_range(name, version)
        if span is not None:
            out[name] = span
        else:
            out.pop(name, None)
    return MappingProxyType(out)


# -- restarts --------------------------------------------------------------------------------


def _restart(state: ClusterState, step: Any, path: str, done: Any) -> Transition:
    if isinstance(step, RollingRestart):
        order = step.nodes if step.nodes is not None else state.brokers
        at_once = step.at_once
    elif isinstance(step, UpgradeBinaries):
        order, at_once = step.nodes, step.at_once
    else:
        order, at_once = step.nodes, len(step.nodes)
    for node in order:
        if node not in state.nodes:
            raise _bad(path, step, f"node {node} is not in the cluster")
    brokers = set(state.brokers)
    batches = [tuple(order[i : i + at_once]) for i in range(0, len(order), at_once)]
    outages: list[Outage] = []
    lagging: frozenset[int] = frozenset()
    for i, batch in enumerate(batches):
        down = frozenset(batch) & brokers
        out = state.out_of_isr | down | lagging
        outages.append(Outage(i, down | state.down, out, state.health(out)))
        lagging = down if not step.wait_for_urp else frozenset()
    restarted = frozenset(order)
    after = state.evolve(
        down=state.down - restarted,
        out_of_isr=(state.out_of_isr - restarted - state.catching_up) | lagging,
        catching_up=lagging,
    )
    if isinstance(step, UpgradeBinaries):
        nodes = dict(state.nodes)
        for n in step.nodes:
            old = nodes[n]
            nodes[n] = NodeState(
                old.id,
                old.is_broker,
                old.is_controller,
                step.version,
                old.rack,
                _ranges(step.version, old.supported),
                old.fenced,
                old.in_controlled_shutdown,
            )
        after = after.evolve(nodes=MappingProxyType(nodes))
    return done(after, tuple(outages), batches=tuple(batches))  # type: ignore[no-any-return]


# -- features and configs --------------------------------------------------------------------


def _update_feature(state: ClusterState, step: UpdateFeature, done: Any) -> Transition:
    """Notes: ``levels`` requested; ``elr_rewrite`` when ELR gets enabled (cluster-level value
    written or None, broker ids whose broker-level min.insync.replicas was deleted)."""
    levels = requested_levels(state, step)
    refusals = feature_refusals(state, step)
    if refusals:
        return done(state, refusals=refusals, levels=levels)  # type: ignore[no-any-return]
    features = dict(state.features)
    features.update(levels)
    after = state.evolve(features=MappingProxyType(features))
    notes: dict[str, Any] = {"levels": levels}
    if levels.get(ELR_FEATURE, 0) >= 1 and not state.elr_enabled:
        # maybeGenerateElrSafetyRecords, 4.1:MC/ConfigurationControlManager.java:643-678
        configs = after.configs
        created: str | None = None
        if MIN_INSYNC_REPLICAS not in configs.cluster:
            created = _controller_static_min_isr(state)
            configs = configs.with_value("cluster", None, MIN_INSYNC_REPLICAS, created)
        removed = tuple(sorted(b for b, v in configs.brokers.items() if MIN_INSYNC_REPLICAS in v))
        for b in removed:
            configs = configs.with_value("broker", str(b), MIN_INSYNC_REPLICAS, None)
        after = after.evolve(configs=configs)
        notes["elr_rewrite"] = {"cluster_value": created, "removed_brokers": removed}
    return done(after, **notes)  # type: ignore[no-any-return]


def _controller_static_min_isr(state: ClusterState) -> str:
    """The active controller's static min.insync.replicas (KafkaConfigSchema, default 1)."""
    for node_id in state.voters:
        value = state.configs.static.get(node_id, {}).get(MIN_INSYNC_REPLICAS)
        if value is not None:
            return value
    return "1"


def _alter_config(state: ClusterState, step: AlterConfig, done: Any) -> Transition:
    """Notes: ``elr_cleared``: ``"*"`` (all topics) or the topic whose ELR state is cleared,
    with ``elr_partitions`` holding how many partitions had a non-empty ELR."""
    refusal = config_refusal(state, step)
    if refusal is not None:
        return done(state, refusals=[refusal])  # type: ignore[no-any-return]
    value = None if step.delete else step.value
    after = state.evolve(configs=state.configs.with_value(step.scope, step.entity, step.key, value))
    notes: dict[str, Any] = {}
    if step.key == MIN_INSYNC_REPLICAS and state.elr_enabled:
        # createClearElrRecordsAsNeeded, 4.1:MC/ConfigurationControlManager.java:228-248
        table = state.table
        topic = step.entity if step.scope == "topic" else None
        pids = table.pids_of_topic.get(topic or "", []) if topic else range(len(table))
        cleared = {pid: () for pid in pids if table.elr[pid]}
        notes["elr_cleared"] = topic or "*"
        notes["elr_partitions"] = len(cleared)
        if cleared:
            after = after.evolve(table=table.changed(elr=cleared))
    return done(after, **notes)  # type: ignore[no-any-return]


# -- reassignments ---------------------------------------------------------------------------


def _reassign(state: ClusterState, step: Reassign, done: Any) -> Transition:
    """Notes: ``moves`` (the new :class:`Move` objects), ``throttled_brokers``."""
    table = state.table
    refusals: list[Refusal] = []
    if state.moves and not step.additional:
        refusals.append(
            Refusal(
                "existing-reassignment",
                "reassign",
                0,
                "Cannot execute because there is an existing partition assignment.  Use "
                "--additional to override this and create a new partition assignment in "
                "addition to the existing one.",
            )
        )
    registered = set(state.brokers)
    for m in step.partitions:
        unknown = [b for b in m.replicas if b not in registered]
        if unknown:
            refusals.append(
                Refusal("unknown-broker", "reassign", 0, f"Unknown broker id {unknown[0]}")
            )
        if (m.topic, m.partition) not in table.pid_of:
            refusals.append(
                Refusal(
                    "unknown-partition", "reassign", 0, f"Topic {m.topic}-{m.partition} not found"
                )
            )
    if refusals:
        return done(state, refusals=refusals)  # type: ignore[no-any-return]
    moves = dict(state.moves)
    new: list[Move] = []
    completed: dict[int, tuple[int, ...]] = {}
    for m in step.partitions:
        pid = table.pid_of[(m.topic, m.partition)]
        original = table.replicas[pid]
        adding = [b for b in m.replicas if b not in original]
        removing = [b for b in original if b not in m.replicas]
        if not adding and not removing:
            completed[pid] = m.replicas  # a reorder completes at once
            continue
        size = table.size[pid]
        move = Move(
            key=(m.topic, m.partition),
            original=original,
            target=m.replicas,
            bytes_left=max(size, 0) * len(adding),
            size_known=size >= 0,
            started_in_plan=True,
        )
        moves[move.key] = move
        new.append(move)
    after = state.evolve(moves=MappingProxyType(moves))
    if completed:
        after = after.evolve(table=table.changed(replicas=completed))
    throttled: tuple[int, ...] = ()
    if step.throttle is not None and new:
        after, throttled = _set_throttles(after, new, step.throttle)
    return done(after, moves=tuple(new), throttled_brokers=throttled)  # type: ignore[no-any-return]


def _set_throttles(
    state: ClusterState, moves: Sequence[Move], rate: int
) -> tuple[ClusterState, tuple[int, ...]]:
    """What ``--execute --throttle`` writes (4.1:tools/.../ReassignPartitionsCommand.java:
    1059-1182): topic lists with SET semantics, rates on every broker of the move."""
    leader: dict[str, list[str]] = {}
    follower: dict[str, list[str]] = {}
    brokers: set[int] = set()
    for m in moves:
        topic, partition = m.key
        leader.setdefault(topic, []).extend(f"{partition}:{b}" for b in m.original)
        follower.setdefault(topic, []).extend(f"{partition}:{b}" for b in m.adding)
        brokers.update(m.original, m.target)
    configs = state.configs
    for topic in sorted(leader):
        configs = configs.with_value(
            "topic", topic, THROTTLED_REPLICAS_KEYS[0], ",".join(leader[topic])
        )
        configs = configs.with_value(
            "topic", topic, THROTTLED_REPLICAS_KEYS[1], ",".join(follower[topic])
        )
    for b in sorted(brokers):
        for key in THROTTLE_RATE_KEYS[:2]:
            configs = configs.with_value("broker", str(b), key, str(rate))
    return state.evolve(configs=configs), tuple(sorted(brokers))


def _clear_throttles(state: ClusterState, topics: set[str], brokers: set[int]) -> ClusterState:
    """What ``--verify``/``--cancel`` delete (ReassignPartitionsCommand.java:501-547)."""
    configs = state.configs
    for b in sorted(brokers | set(state.brokers)):
        for key in THROTTLE_RATE_KEYS:
            if key in configs.brokers.get(b, {}):
                configs = configs.with_value("broker", str(b), key, None)
    for topic in sorted(topics):
        for key in THROTTLED_REPLICAS_KEYS:
            if key in configs.topics.get(topic, {}):
                configs = configs.with_value("topic", topic, key, None)
    return state.evolve(configs=configs)


def _verify(state: ClusterState, step: VerifyReassignment, done: Any) -> Transition:
    """Notes: ``completed`` moves; ``cleared`` whether throttles were removed; ``kept_because``."""
    moves = dict(state.moves)
    completed: list[Move] = []
    after = state
    if step.wait and moves:
        table = state.table
        replicas: dict[int, tuple[int, ...]] = {}
        isr: dict[int, tuple[int, ...]] = {}
        leader: dict[int, int] = {}
        for move in moves.values():
            pid = table.pid_of.get(move.key)
            if pid is None:
                continue
            replicas[pid] = move.target
            isr[pid] = move.target
            if table.leader[pid] not in move.target:
                leader[pid] = move.target[0]
        completed = list(moves.values())
        moves = {}
        after = after.evolve(
            table=table.changed(replicas=replicas, isr=isr, leader=leader),
            moves=MappingProxyType({}),
        )
    kept_because = None
    if moves:
        kept_because = "reassignments are still in progress"
    elif step.preserve_throttles:
        kept_because = "--preserve-throttles"
    if kept_because is None:
        topics = {m.key[0] for m in completed} | {m.key[0] for m in state.moves.values()}
        brokers = {b for m in completed for b in (*m.original, *m.target)}
        after = _clear_throttles(after, topics, brokers)
    return done(  # type: ignore[no-any-return]
        after, completed=tuple(completed), cleared=kept_because is None, kept_because=kept_because
    )


def _cancel(state: ClusterState, step: CancelReassignment, done: Any) -> Transition:
    """Notes: ``cancelled`` moves, ``unclean`` keys needing an unclean election (refused unless
    the topic allows it: those are in ``refusals`` and stay in flight)."""
    table = state.table
    replicas: dict[int, tuple[int, ...]] = {}
    isr: dict[int, tuple[int, ...]] = {}
    leader: dict[int, int] = {}
    refusals: list[Refusal] = []
    unclean: list[tuple[str, int]] = []
    remaining: dict[tuple[str, int], Move] = {}
    cancelled: list[Move] = []
    for key, move in sorted(state.moves.items()):
        pid = table.pid_of.get(key)
        if pid is None:
            continue
        kept = tuple(b for b in table.isr[pid] if b not in move.adding)
        if not kept:
            unclean.append(key)
            if not state.unclean_enabled(key[0]):
                refusals.append(Refusal("cancel-unclean", "reassign", 0, msg_cancel_unclean(*key)))
                remaining[key] = move
                continue
            live = [b for b in move.original if b not in state.down]
            kept = tuple(live[:1])
        replicas[pid] = move.original
        isr[pid] = kept
        if table.leader[pid] not in kept:
            leader[pid] = kept[0] if kept else -1
        cancelled.append(move)
    after = state.evolve(
        table=table.changed(replicas=replicas, isr=isr, leader=leader),
        moves=MappingProxyType(remaining),
    )
    if not step.preserve_throttles:
        after = _clear_throttles(after, {m.key[0] for m in state.moves.values()}, set())
    return done(  # type: ignore[no-any-return]
        after, refusals=refusals, cancelled=tuple(cancelled), unclean=tuple(unclean)
    )


# -- membership ------------------------------------------------------------------------------


def _decommission(
    state: ClusterState, step: DecommissionBroker, path: str, done: Any
) -> Transition:
    """Notes: ``holding``: broker -> pids still with a replica on it (not moved away)."""
    for b in step.brokers:
        if b not in state.nodes or not state.nodes[b].is_broker:
            raise _bad(path, step, f"broker {b} is not registered")
    gone = frozenset(step.brokers)
    holding = {b: tuple(state.table.replicas_on.get(b, ())) for b in step.brokers}
    out = state.out_of_isr | gone
    outage = Outage(0, gone | state.down, out, state.health(out))
    nodes = {i: n for i, n in state.nodes.items() if i not in gone}
    after = state.evolve(nodes=MappingProxyType(nodes), down=state.down | gone, out_of_isr=out)
    return done(after, (outage,), holding=holding)  # type: ignore[no-any-return]


def _quorum_change(
    state: ClusterState, step: AddController | RemoveController, done: Any
) -> Transition:
    adding = isinstance(step, AddController)
    refusals: list[Refusal] = []
    if state.kraft_version < 1:
        message = MSG_ADD_VOTER_KRAFT0 if adding else MSG_REMOVE_VOTER_KRAFT0
        refusals.append(Refusal("kraft-version-0", "kraft.version", 0, message))
    elif state.pending_voter_change:
        refusals.append(
            Refusal("voter-change-pending", "kraft.version", 0, MSG_VOTER_CHANGE_PENDING)
        )
    elif adding and step.id in state.voters:
        refusals.append(
            Refusal(
                "duplicate-voter",
                "kraft.version",
                0,
                f"Voter {step.id} already exists (DUPLICATE_VOTER)",
            )
        )
    elif not adding and step.id not in state.voters:
        refusals.append(
            Refusal(
                "voter-not-found",
                "kraft.version",
                0,
                f"Voter {step.id} not found (VOTER_NOT_FOUND)",
            )
        )
    if refusals:
        return done(state, refusals=refusals)  # type: ignore[no-any-return]
    voters = (
        tuple(sorted({*state.voters, step.id}))
        if adding
        else tuple(v for v in state.voters if v != step.id)
    )
    nodes = dict(state.nodes)
    if adding and step.id not in nodes:
        version = step.version or _common_version(state)  # type: ignore[union-attr]
        nodes[step.id] = NodeState(step.id, False, True, version, None, _ranges(version, {}))
    if not adding and step.id in nodes and not nodes[step.id].is_broker:
        del nodes[step.id]
    after = state.evolve(
        voters=voters, nodes=MappingProxyType(nodes), pending_voter_change=not step.wait
    )
    return done(after, was_pending=state.pending_voter_change)  # type: ignore[no-any-return]


def _elect(state: ClusterState, step: ElectLeaders, done: Any) -> Transition:
    """Notes: ``unclean``: pids elected from an out-of-sync replica (records lost)."""
    if step.type != "unclean":
        return done(state)  # type: ignore[no-any-return]
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
    return done(after, unclean=tuple(sorted(isr)))  # type: ignore[no-any-return]


def _create(
    state: ClusterState,
    step: CreateTopic | AddPartitions,
    path: str,
    previous: Transition | None,
    done: Any,
) -> Transition:
    """Notes: ``rf``, ``usable`` brokers for placement, ``shutting_down`` (brokers in
    controlled shutdown at that moment), ``live`` (unfenced, not down)."""
    table = state.table
    shutting: frozenset[int] = frozenset(
        i for i, n in state.nodes.items() if n.in_controlled_shutdown
    )
    down = state.down
    if isinstance(step, CreateTopic) and step.during_restart and previous is not None:
        worst = max(previous.outages, key=lambda o: len(o.down), default=None)
        if worst is not None:
            shutting, down = shutting | worst.down, down | worst.down
    registered = [b for b in state.brokers if b not in shutting]
    live = [b for b in registered if b not in down and not state.nodes[b].fenced]
    if isinstance(step, CreateTopic):
        name, start = step.topic, 0
        rf = step.replication_factor or int(
            state.configs.broker_value(
                state.brokers[0] if state.brokers else 0, "default.replication.factor"
            )
            or 1
        )
        count = step.partitions
    else:
        name = step.topic
        existing = table.pids_of_topic.get(name)
        if not existing:
            raise _bad(path, step, f"topic {name} is not in the cluster")
        start = len(existing)
        rf = len(table.replicas[existing[0]])
        count = step.partitions - start
    notes = {
        "rf": rf,
        "usable": tuple(registered),
        "live": tuple(live),
        "shutting_down": tuple(sorted(shutting)),
    }
    refusals: list[Refusal] = []
    if isinstance(step, CreateTopic) and name in table.pids_of_topic:
        refusals.append(Refusal("topic-exists", name, 0, f"Topic '{name}' already exists."))
    if count <= 0:
        refusals.append(
            Refusal(
                "partitions",
                name,
                0,
                f"Topic currently has {start} partitions, which is higher than the requested "
                f"{step.partitions}.",
            )
        )
    if rf > len(registered):
        refusals.append(
            Refusal("replication-factor", name, rf, msg_rf_unreachable(rf, len(registered)))
        )
    elif not live:
        refusals.append(
            Refusal(
                "replication-factor",
                name,
                rf,
                f"Unable to replicate the partition {rf} time(s): "
                "All brokers are currently fenced.",
            )
        )
    if refusals:
        return done(state, refusals=refusals, **notes)  # type: ignore[no-any-return]
    placements = []
    for i in range(count):  # the leader is always unfenced; unfenced brokers are preferred
        first = live[(start + i) % len(live)]
        rest = [b for b in live + [b for b in registered if b not in live] if b != first]
        shift = (start + i) % len(rest) if rest else 0
        placements.append((first, *(rest[shift:] + rest[:shift])[: rf - 1]))
    isrs = [tuple(b for b in p if b in live) for p in placements]
    after = state.evolve(table=table.extended(name, range(start, start + count), placements, isrs))
    if isinstance(step, CreateTopic):
        configs = after.configs
        for key, value in step.configs.items():
            configs = configs.with_value("topic", name, key, value)
        after = after.evolve(configs=configs)
    return done(after, **notes)  # type: ignore[no-any-return]
