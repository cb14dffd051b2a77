"""Apply a change plan to a snapshot, step by step.

:func:`simulate` returns a :class:`Simulation`: the initial state and one :class:`Transition` per
step (the step, the state before and after it, the moments inside it when brokers are down
together, and what the controller or the tools would refuse). A refused step leaves the state
unchanged, as Kafka would. Rules read transitions; reports read :meth:`Simulation.summaries`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict

from cluster_engine import membership, reassignment
from cluster_engine.controller import (
    Refusal,
    config_refusal,
    feature_refusals,
    registration_refusals,
    requested_levels,
)
from cluster_engine.facts import ElrClearFacts, ElrRewriteFacts, RestartFacts, StepFacts
from cluster_engine.knowledge import (
    ELR_FEATURE,
    MIN_INSYNC_REPLICAS,
)
from cluster_engine.outcome import Effect, Outage, bad_step, effect, ranges
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
from cluster_engine.state import ClusterState, NodeState, initial_state


@dataclass(frozen=True)
class Transition:
    """One step and what it did. ``facts``: what the rules need to know of this kind of step
    beyond the state after it (:mod:`cluster_engine.facts`)."""

    index: int
    step: Step
    before: ClusterState
    after: ClusterState
    plan_path: str
    outages: tuple[Outage, ...] = ()
    refusals: tuple[Refusal, ...] = ()
    facts: StepFacts = None

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


def _apply(state: ClusterState, step: Step, path: str, previous: Transition | None) -> Transition:
    e = _effect(state, step, path, previous)
    return Transition(step.index, step, state, e.after, path, e.outages, e.refusals, e.facts)


def _effect(state: ClusterState, step: Step, path: str, previous: Transition | None) -> Effect:
    if isinstance(step, UpgradeBinaries | Restart | RollingRestart):
        return _restart(state, step, path)
    if isinstance(step, UpdateFeature):
        return _update_feature(state, step)
    if isinstance(step, AlterConfig):
        return _alter_config(state, step)
    if isinstance(step, Reassign):
        return reassignment.reassign(state, step)
    if isinstance(step, VerifyReassignment):
        return reassignment.verify(state, step)
    if isinstance(step, CancelReassignment):
        return reassignment.cancel(state, step)
    if isinstance(step, AddBroker):
        return membership.add_broker(state, step, path)
    if isinstance(step, DecommissionBroker):
        return membership.decommission(state, step, path)
    if isinstance(step, AddController | RemoveController):
        return membership.quorum_change(state, step)
    if isinstance(step, ElectLeaders):
        return membership.elect(state, step)
    if isinstance(step, CreateTopic | AddPartitions):
        during = previous.outages if previous is not None else ()
        return membership.create(state, step, path, during)
    raise AssertionError(step)  # pragma: no cover - the plan model lists every kind


# -- restarts --------------------------------------------------------------------------------


def _restart(
    state: ClusterState, step: UpgradeBinaries | Restart | RollingRestart, path: str
) -> Effect:
    if isinstance(step, RollingRestart):
        order = step.nodes if step.nodes is not None else state.brokers
        at_once = step.at_once
    elif isinstance(step, UpgradeBinaries):
        order, at_once = step.nodes, step.at_once
    else:
        order, at_once = step.nodes, len(step.nodes)
    for node in order:
        if node not in state.nodes:
            raise bad_step(path, step, f"node {node} is not in the cluster")
    refusals: list[Refusal] = []
    nodes = dict(state.nodes)
    if isinstance(step, UpgradeBinaries):
        for n in step.nodes:
            old = nodes[n]
            nodes[n] = NodeState(
                old.id,
                old.is_broker,
                old.is_controller,
                step.version,
                old.rack,
                ranges(step.version, old.supported),
                old.fenced,
                old.in_controlled_shutdown,
            )
            refusals.extend(registration_refusals(state, nodes[n]))
    # installed, but unable to register: they stay down and out of every ISR, through the rest
    # of the roll and after it
    stuck = frozenset(r.node for r in refusals if r.node is not None)
    brokers = set(state.brokers)
    batches = [tuple(order[i : i + at_once]) for i in range(0, len(order), at_once)]
    outages: list[Outage] = []
    lagging: frozenset[int] = frozenset()
    gone: frozenset[int] = frozenset()
    for i, batch in enumerate(batches):
        down = (frozenset(batch) | gone) & brokers
        out = state.out_of_isr | down | lagging
        outages.append(Outage(i, down | state.down, out, state.health(out)))
        lagging = down - gone if not step.wait_for_urp else frozenset()
        gone = gone | (frozenset(batch) & stuck)
    restarted = frozenset(order) - stuck
    after = state.evolve(
        nodes=MappingProxyType(nodes),
        down=(state.down - restarted) | stuck,
        out_of_isr=(state.out_of_isr - restarted - state.catching_up) | lagging | stuck,
        catching_up=lagging - stuck,
    )
    return effect(after, tuple(outages), refusals, RestartFacts(tuple(batches)))


# -- features and configs --------------------------------------------------------------------


def _update_feature(state: ClusterState, step: UpdateFeature) -> Effect:
    levels = requested_levels(state, step)
    refusals = feature_refusals(state, step)
    if refusals:
        return effect(state, refusals=refusals)
    features = dict(state.features)
    features.update(levels)
    after = state.evolve(features=MappingProxyType(features))
    if levels.get(ELR_FEATURE, 0) < 1 or state.elr_enabled:
        return effect(after)
    # maybeGenerateElrSafetyRecords, 4.1:MC/ConfigurationControlManager.java:643-678
    configs = after.configs
    created: str | None = None
    if MIN_INSYNC_REPLICAS not in configs.cluster:
        created = _controller_static_min_isr(state)
        configs = configs.with_value("cluster", None, MIN_INSYNC_REPLICAS, created)
    removed = tuple(sorted(b for b, v in configs.brokers.items() if MIN_INSYNC_REPLICAS in v))
    for b in removed:
        configs = configs.with_value("broker", str(b), MIN_INSYNC_REPLICAS, None)
    return effect(after.evolve(configs=configs), facts=ElrRewriteFacts(created, removed))


def _controller_static_min_isr(state: ClusterState) -> str:
    """The active controller's static min.insync.replicas (KafkaConfigSchema, default 1)."""
    for node_id in state.voters:
        value = state.configs.static.get(node_id, {}).get(MIN_INSYNC_REPLICAS)
        if value is not None:
            return value
    return "1"


def _alter_config(state: ClusterState, step: AlterConfig) -> Effect:
    refusal = config_refusal(state, step)
    if refusal is not None:
        return effect(state, refusals=[refusal])
    value = None if step.delete else step.value
    after = state.evolve(configs=state.configs.with_value(step.scope, step.entity, step.key, value))
    if step.key != MIN_INSYNC_REPLICAS or not state.elr_enabled:
        return effect(after)
    # createClearElrRecordsAsNeeded, 4.1:MC/ConfigurationControlManager.java:228-248
    table = state.table
    topic = step.entity if step.scope == "topic" else None
    pids = table.pids_of_topic.get(topic or "", []) if topic else range(len(table))
    cleared = {pid: () for pid in pids if table.elr[pid]}
    if cleared:
        after = after.evolve(table=table.changed(elr=cleared))
    return effect(after, facts=ElrClearFacts(topic or "*", len(cleared)))


# -- reassignments ---------------------------------------------------------------------------
