"""Reassignment steps (execute, verify, cancel), their throttles, and duration estimates.

Throttles follow ``kafka-reassign-partitions.sh`` (4.1:tools/.../ReassignPartitionsCommand.java):
``--execute --throttle`` writes them, ``--verify`` and ``--cancel`` remove them.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from cluster_engine.controller import Refusal, RefusalKind
from cluster_engine.facts import CancelFacts, ReassignFacts, VerifyFacts
from cluster_engine.knowledge import THROTTLE_RATE_KEYS, THROTTLED_REPLICAS_KEYS, msg_cancel_unclean
from cluster_engine.outcome import Effect, effect
from cluster_engine.plan import CancelReassignment, Reassign, VerifyReassignment
from cluster_engine.state import ClusterState, Move

# 4.1:tools/.../ReassignPartitionsCommand.java:124-127 (CANNOT_EXECUTE_BECAUSE_OF_EXISTING_MESSAGE)
MSG_EXISTING_REASSIGNMENT = (
    "Cannot execute because there is an existing partition assignment.  Use --additional to "
    "override this and create a new partition assignment in addition to the existing one. The "
    "--additional flag can also be used to change the throttle by resubmitting the current "
    "reassignment."
)
# Errors.UNKNOWN_TOPIC_OR_PARTITION's message, what describeTopics fails with
MSG_UNKNOWN_TOPIC = "This server does not host this topic-partition."


def reassign(state: ClusterState, step: Reassign) -> Effect:
    table = state.table
    refusals: list[Refusal] = []
    # The tool's own checks, in its order (4.1:tools/.../ReassignPartitionsCommand.java:
    # executeAssignment): it stops at the first, so at most one refusal is reported.
    if state.moves and not step.additional:
        refusals.append(
            Refusal(RefusalKind.EXISTING_REASSIGNMENT, "reassign", 0, MSG_EXISTING_REASSIGNMENT)
        )
    registered = set(state.brokers)
    unknown = sorted({b for m in step.partitions for b in m.replicas if b not in registered})
    if not refusals and unknown:
        refusals.append(
            Refusal(RefusalKind.UNKNOWN_BROKER, "reassign", 0, f"Unknown broker id {unknown[0]}")
        )
    missing = [m for m in step.partitions if (m.topic, m.partition) not in table.pid_of]
    if not refusals and missing:
        topics = {m.topic for m in missing if m.topic not in table.pids_of_topic}
        if topics:  # describeTopics fails first for a topic that does not exist
            message = MSG_UNKNOWN_TOPIC
        else:
            message = "Unable to find partition: " + ", ".join(
                f"{m.topic}-{m.partition}" for m in missing
            )
        refusals.append(Refusal(RefusalKind.UNKNOWN_PARTITION, "reassign", 0, message))
    if refusals:
        missed = tuple(f"{m.topic}-{m.partition}" for m in missing)
        return effect(state, refusals=refusals, facts=ReassignFacts((), tuple(unknown), missed))
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
    if step.produce_rates:
        rates = {**state.produce_rates, **step.produce_rates}
        after = after.evolve(produce_rates=MappingProxyType(rates))
    if completed:
        after = after.evolve(table=table.changed(replicas=completed))
    if step.throttle is not None and new:
        after = _set_throttles(after, new, step.throttle)
    return effect(after, facts=ReassignFacts(tuple(new)))


def _set_throttles(state: ClusterState, moves: Sequence[Move], rate: int) -> ClusterState:
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
    return state.evolve(configs=configs)


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


def verify(state: ClusterState, step: VerifyReassignment) -> Effect:
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
    return effect(after, facts=VerifyFacts(kept_because))


def cancel(state: ClusterState, step: CancelReassignment) -> Effect:
    table = state.table
    replicas: dict[int, tuple[int, ...]] = {}
    isr: dict[int, tuple[int, ...]] = {}
    leader: dict[int, int] = {}
    refusals: list[Refusal] = []
    unclean: list[tuple[str, int]] = []
    remaining: dict[tuple[str, int], Move] = {}
    for key, move in sorted(state.moves.items()):
        pid = table.pid_of.get(key)
        if pid is None:
            continue
        kept = tuple(b for b in table.isr[pid] if b not in move.adding)
        if not kept:
            unclean.append(key)
            if not state.unclean_enabled(key[0]):
                refusals.append(
                    Refusal(RefusalKind.CANCEL_UNCLEAN, "reassign", 0, msg_cancel_unclean(*key))
                )
                remaining[key] = move
                continue
            live = [b for b in move.original if b not in state.down]
            kept = tuple(live[:1])
        replicas[pid] = move.original
        isr[pid] = kept
        if table.leader[pid] not in kept:
            leader[pid] = kept[0] if kept else -1
    after = state.evolve(
        table=table.changed(replicas=replicas, isr=isr, leader=leader),
        moves=MappingProxyType(remaining),
    )
    if not step.preserve_throttles:
        after = _clear_throttles(after, {m.key[0] for m in state.moves.values()}, set())
    return effect(after, refusals=refusals, facts=CancelFacts(tuple(unclean)))


@dataclass(frozen=True, slots=True)
class Estimate:
    """How long moves take at the throttles in force: the busiest broker's bytes over its rate.

    ``seconds`` is None when some broker of the move is unthrottled (then the network decides).
    With produce rates, a broker's rate is what its throttle leaves after the writes its moving
    partitions take in meanwhile; ``stalled`` are the brokers where nothing is left (the move
    never catches up), ``writes`` the bytes/s counted in, ``writes_known`` whether every moving
    topic had a rate (else the writes of the others are assumed to be 0).
    """

    seconds: float | None
    bytes: int
    unknown_sizes: int
    bottleneck: int | None  # the broker that takes longest
    stalled: tuple[tuple[int, str, float, int], ...] = ()  # (broker, rate key, writes, rate)
    writes: float = 0.0
    writes_known: bool = False


def estimate(state: ClusterState, moves: Iterable[Move]) -> Estimate:
    """Each destination fetches its new replicas at ``follower.replication.throttled.rate``; each
    leader serves them at ``leader.replication.throttled.rate`` (QuotaConfig.java:75-83).

    The state's ``produce_rates`` (bytes/s written to a topic) are spread evenly over each
    topic's partitions (a skewed key makes some partitions hotter: the estimate is then
    optimistic for them)."""
    produce = state.produce_rates
    inbound: Counter[int] = Counter()
    outbound: Counter[int] = Counter()
    writes_in: defaultdict[int, float] = defaultdict(float)
    writes_out: defaultdict[int, float] = defaultdict(float)
    unknown = total = 0
    writes = 0.0
    known = True
    table = state.table
    for m in moves:
        if not m.size_known:
            unknown += 1
        per_replica = m.bytes_left // max(len(m.adding), 1)
        pid = table.pid_of.get(m.key)
        source = table.leader[pid] if pid is not None and table.leader[pid] >= 0 else m.original[0]
        topic_rate = produce.get(m.key[0])
        known = known and topic_rate is not None
        partition_rate = (topic_rate or 0) / max(len(table.pids_of_topic.get(m.key[0], ())), 1)
        for b in m.adding:
            inbound[b] += per_replica
            outbound[source] += per_replica
            total += per_replica
            writes_in[b] += partition_rate
            writes_out[source] += partition_rate
            writes += partition_rate
    worst: float = 0.0
    bottleneck: int | None = None
    stalled: list[tuple[int, str, float, int]] = []
    unbounded: int | None = None
    for counts, key, inflow in (
        (inbound, THROTTLE_RATE_KEYS[1], writes_in),
        (outbound, THROTTLE_RATE_KEYS[0], writes_out),
    ):
        for broker, size in sorted(counts.items()):
            rate = state.rate_on(broker, key)
            if rate is None or rate >= 2**62:
                unbounded = broker if unbounded is None else unbounded
                continue
            left = rate - inflow[broker]
            if inflow[broker] and left <= 0:
                stalled.append((broker, key, inflow[broker], rate))
            seconds = size / left if left > 0 else float("inf")
            if seconds > worst:
                worst, bottleneck = seconds, broker
    known = known and bool(inbound)
    if unbounded is not None:
        return Estimate(None, total, unknown, unbounded, tuple(stalled), writes, known)
    return Estimate(worst, total, unknown, bottleneck, tuple(stalled), writes, known)


def human_duration(seconds: float | None) -> str:
    if seconds is None:
        return "unbounded by any throttle"
    if seconds == float("inf"):
        return "never (a throttle of 0 B/s stops replication)"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def human_bytes(size: int) -> str:
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"  # pragma: no cover
