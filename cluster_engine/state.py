"""The simulated cluster state: compact, shareable between steps, cheap to derive from.

Partitions live in one :class:`PartitionTable` of parallel lists indexed by a partition id
(``pid``), shared by every state that does not change replica lists. A restart does not copy
partitions: a state records which brokers are out of every ISR (``out_of_isr``) and the live ISR
of a partition is its table ISR minus those brokers. Health counts are derived from per-broker
indexes, so judging a 100-broker rolling restart touches each ISR membership once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType

from cluster_engine.knowledge import (
    ELR_FEATURE,
    KRAFT_VERSION,
    METADATA_VERSION,
    MIN_INSYNC_REPLICAS,
    THROTTLE_RATE_KEYS,
    THROTTLED_REPLICAS_KEYS,
    UNCLEAN_LEADER_ELECTION,
)
from cluster_engine.snapshot import Snapshot

TopicPartition = tuple[str, int]
ConfigMap = Mapping[str, str | None]


class PartitionTable:
    """Every partition as parallel lists; never mutated after construction."""

    def __init__(
        self,
        topic: list[str],
        number: list[int],
        replicas: list[tuple[int, ...]],
        isr: list[tuple[int, ...]],
        elr: list[tuple[int, ...]],
        leader: list[int],
        size: list[int],
    ) -> None:
        self.topic, self.number, self.replicas, self.isr = topic, number, replicas, isr
        self.elr, self.leader, self.size = elr, leader, size
        pids: dict[str, list[int]] = {}
        for pid, name in enumerate(topic):
            pids.setdefault(name, []).append(pid)
        self.pids_of_topic: Mapping[str, list[int]] = pids

    @classmethod
    def of(cls, snapshot: Snapshot) -> PartitionTable:
        sizes = snapshot.index.replica_sizes
        topic: list[str] = []
        number: list[int] = []
        replicas: list[tuple[int, ...]] = []
        isr: list[tuple[int, ...]] = []
        elr: list[tuple[int, ...]] = []
        leader: list[int] = []
        size: list[int] = []
        for t in snapshot.topics:
            for p in t.partitions:
                topic.append(p.topic)
                number.append(p.partition)
                replicas.append(p.replicas)
                isr.append(p.isr)
                elr.append(p.elr or ())
                leader.append(-1 if p.leader is None else p.leader)
                known = sizes.get((p.topic, p.partition)) if sizes else None
                size.append(max(known.values()) if known else -1)
        return cls(topic, number, replicas, isr, elr, leader, size)

    def __len__(self) -> int:
        return len(self.topic)

    @cached_property
    def pid_of(self) -> Mapping[TopicPartition, int]:
        return {(t, n): pid for pid, (t, n) in enumerate(zip(self.topic, self.number, strict=True))}

    @cached_property
    def isr_on(self) -> Mapping[int, list[int]]:
        """broker -> pids whose ISR holds it."""
        out: dict[int, list[int]] = {}
        for pid, members in enumerate(self.isr):
            for b in members:
                out.setdefault(b, []).append(pid)
        return out

    @cached_property
    def replicas_on(self) -> Mapping[int, list[int]]:
        """broker -> pids with a replica on it."""
        out: dict[int, list[int]] = {}
        for pid, members in enumerate(self.replicas):
            for b in members:
                out.setdefault(b, []).append(pid)
        return out

    def name(self, pid: int) -> str:
        return f"{self.topic[pid]}-{self.number[pid]}"

    def changed(
        self,
        replicas: Mapping[int, tuple[int, ...]] | None = None,
        isr: Mapping[int, tuple[int, ...]] | None = None,
        leader: Mapping[int, int] | None = None,
        elr: Mapping[int, tuple[int, ...]] | None = None,
    ) -> PartitionTable:
        """A new table with some pids' lists replaced (others shared)."""

        def patch(
            column: list[tuple[int, ...]], new: Mapping[int, tuple[int, ...]] | None
        ) -> list[tuple[int, ...]]:
            if not new:
                return column
            out = list(column)
            for pid, value in new.items():
                out[pid] = value
            return out

        leaders = self.leader
        if leader:
            leaders = list(self.leader)
            for pid, value in leader.items():
                leaders[pid] = value
        return PartitionTable(
            self.topic,
            self.number,
            patch(self.replicas, replicas),
            patch(self.isr, isr),
            patch(self.elr, elr),
            leaders,
            self.size,
        )

    def extended(
        self,
        topic: str,
        numbers: Iterable[int],
        placements: Iterable[tuple[int, ...]],
        isrs: Iterable[tuple[int, ...]],
    ) -> PartitionTable:
        """A new table with partitions appended (new topics, added partitions)."""
        t, n, r, i = list(self.topic), list(self.number), list(self.replicas), list(self.isr)
        e, ld, s = list(self.elr), list(self.leader), list(self.size)
        for num, replicas, members in zip(numbers, placements, isrs, strict=True):
            t.append(topic)
            n.append(num)
            r.append(replicas)
            i.append(members)
            e.append(())
            ld.append(members[0] if members else -1)
            s.append(0)
        return PartitionTable(t, n, r, i, e, ld, s)


@dataclass(frozen=True, slots=True)
class NodeState:
    id: int
    is_broker: bool
    is_controller: bool
    version: str | None
    rack: str | None
    supported: Mapping[str, tuple[int, int]]  # feature -> (min, max); absent: not advertised
    fenced: bool = False
    in_controlled_shutdown: bool = False


@dataclass(frozen=True, slots=True)
class ConfigState:
    """Config values by scope. ``described`` is each topic's describe-header ``Configs:``."""

    cluster: ConfigMap
    brokers: Mapping[int, ConfigMap]
    static: Mapping[int, ConfigMap]
    topics: Mapping[str, ConfigMap]
    described: Mapping[str, ConfigMap]

    def topic_value(self, topic: str, key: str) -> str | None:
        """topic > cluster default > static broker > described header (cluster-facts §5)."""
        for scope in (self.topics.get(topic, {}), self.cluster):
            if key in scope:
                return scope[key]
        for values in self.static.values():
            if key in values:
                return values[key]
        return self.described.get(topic, {}).get(key)

    def broker_value(self, broker: int, key: str) -> str | None:
        for scope in (self.brokers.get(broker, {}), self.cluster, self.static.get(broker, {})):
            if key in scope:
                return scope[key]
        return None

    def with_value(
        self, scope: str, entity: str | None, key: str, value: str | None
    ) -> ConfigState:
        """Set (``value``) or delete (``None``) one key."""

        def edit(values: ConfigMap) -> ConfigMap:
            out = dict(values)
            if value is None:
                out.pop(key, None)
            else:
                out[key] = value
            return MappingProxyType(out)

        if scope == "cluster":
            return replace(self, cluster=edit(self.cluster))
        if scope == "broker":
            b = int(entity or 0)
            return replace(self, brokers={**self.brokers, b: edit(self.brokers.get(b, {}))})
        t = entity or ""
        return replace(self, topics={**self.topics, t: edit(self.topics.get(t, {}))})


@dataclass(frozen=True, slots=True)
class Move:
    """A reassignment in flight."""

    key: TopicPartition
    original: tuple[int, ...]
    target: tuple[int, ...]
    bytes_left: int  # bytes still to copy to the adding replicas (0 if unknown size)
    size_known: bool
    started_in_plan: bool

    @property
    def adding(self) -> tuple[int, ...]:
        return tuple(b for b in self.target if b not in self.original)

    @property
    def removing(self) -> tuple[int, ...]:
        return tuple(b for b in self.original if b not in self.target)


@dataclass(frozen=True, slots=True)
class Health:
    offline: int
    under_min_isr: int
    under_replicated: int
    at_min_isr: int
    under_min_isr_topics: tuple[str, ...] = ()
    offline_topics: tuple[str, ...] = ()


@dataclass(frozen=True)
class ClusterState:
    """The cluster between two steps. Immutable; steps build new states sharing unchanged parts."""

    table: PartitionTable
    nodes: Mapping[int, NodeState]
    features: Mapping[str, int]
    configs: ConfigState
    voters: tuple[int, ...]
    static_quorum: bool
    down: frozenset[int] = frozenset()  # stopped (restarting, decommissioned)
    out_of_isr: frozenset[int] = frozenset()  # brokers dropped from every ISR, vs the table
    catching_up: frozenset[int] = frozenset()  # restarted without waiting; back after one step
    moves: Mapping[TopicPartition, Move] = field(default_factory=dict)
    pending_voter_change: bool = False

    # -- derived -------------------------------------------------------------------------------

    @property
    def brokers(self) -> tuple[int, ...]:
        """Registered brokers, by id."""
        return tuple(sorted(i for i, n in self.nodes.items() if n.is_broker))

    @property
    def controllers(self) -> tuple[int, ...]:
        return tuple(sorted(i for i, n in self.nodes.items() if n.is_controller))

    @property
    def fenced(self) -> frozenset[int]:
        return frozenset(i for i, n in self.nodes.items() if n.fenced) | (
            self.down & set(self.brokers)
        )

    @property
    def metadata_version(self) -> int:
        return self.features.get(METADATA_VERSION, 0)

    @property
    def kraft_version(self) -> int:
        return self.features.get(KRAFT_VERSION, 0)

    @property
    def elr_enabled(self) -> bool:
        return self.features.get(ELR_FEATURE, 0) >= 1

    @cached_property
    def topic_min_isr(self) -> Mapping[str, int]:
        out: dict[str, int] = {}
        for name in self.table.pids_of_topic:
            value = self.configs.topic_value(name, MIN_INSYNC_REPLICAS)
            out[name] = int(value) if value is not None and value.strip().isdigit() else 1
        return out

    def unclean_enabled(self, topic: str) -> bool:
        value = self.configs.topic_value(topic, UNCLEAN_LEADER_ELECTION)
        return value is not None and value.strip().lower() == "true"

    @cached_property
    def _eff_min(self) -> list[int]:
        mins = self.topic_min_isr
        return [
            min(mins[t], len(r)) for t, r in zip(self.table.topic, self.table.replicas, strict=True)
        ]

    @cached_property
    def _slack(self) -> list[int]:
        """len(ISR) - effective min ISR, per pid (negative: under min ISR already)."""
        return [len(i) - m for i, m in zip(self.table.isr, self._eff_min, strict=True)]

    def health(self, out: frozenset[int] | None = None) -> Health:
        """Partition health with ``out`` (default: this state's ``out_of_isr``) out of the ISRs."""
        out = self.out_of_isr if out is None else out
        return _health(self, out)

    @cached_property
    def summary_health(self) -> Health:
        return self.health()

    @property
    def throttles(self) -> Mapping[str, str]:
        """Active throttle configs, ``broker:<id>:<key>`` / ``topic:<name>:<key>`` -> value."""
        out: dict[str, str] = {}
        for b, values in self.configs.brokers.items():
            for key in THROTTLE_RATE_KEYS:
                if values.get(key) is not None:
                    out[f"broker:{b}:{key}"] = str(values[key])
        for key in THROTTLE_RATE_KEYS:
            if self.configs.cluster.get(key) is not None:
                out[f"cluster:{key}"] = str(self.configs.cluster[key])
        for t, values in self.configs.topics.items():
            for key in THROTTLED_REPLICAS_KEYS:
                if values.get(key):
                    out[f"topic:{t}:{key}"] = str(values[key])
        return dict(sorted(out.items()))

    def rate_on(self, broker: int, key: str) -> int | None:
        value = self.configs.broker_value(broker, key)
        try:
            return int(value) if value is not None else None
        except ValueError:
            return None

    @property
    def bytes_to_move(self) -> int:
        return sum(m.bytes_left for m in self.moves.values())

    def evolve(self, **changes: object) -> ClusterState:
        return replace(self, **changes)  # type: ignore[arg-type]


def _health(state: ClusterState, out: frozenset[int]) -> Health:
    table, slack, eff = state.table, state._slack, state._eff_min
    base = _base_health(state)
    if not out:
        return base
    isr_on = table.isr_on
    hits: Counter[int] | dict[int, int]
    if len(out) == 1:
        (only,) = out
        hits = dict.fromkeys(isr_on.get(only, ()), 1)
    else:
        hits = Counter()
        for b in out:
            hits.update(isr_on.get(b, ()))
    under = base.under_min_isr
    offline = base.offline
    urp = base.under_replicated
    at_min = base.at_min_isr
    under_topics: set[str] = set(base.under_min_isr_topics)
    offline_topics: set[str] = set(base.offline_topics)
    isr, replicas = table.isr, table.replicas
    for pid, n in hits.items():
        s = slack[pid]
        live = len(isr[pid]) - n
        if len(isr[pid]) == len(replicas[pid]):
            urp += 1
        if s == 0:
            at_min -= 1
        if live == 0 and len(isr[pid]) > 0:
            offline += 1
            offline_topics.add(table.topic[pid])
        if s >= 0 and live < eff[pid]:
            under += 1
            under_topics.add(table.topic[pid])
        elif s - n == 0:
            at_min += 1
    return Health(
        offline, under, urp, at_min, tuple(sorted(under_topics)), tuple(sorted(offline_topics))
    )


def _base_health(state: ClusterState) -> Health:
    cached = state.__dict__.get("_base")
    if isinstance(cached, Health):
        return cached
    table, slack = state.table, state._slack
    offline = under = urp = at_min = 0
    under_topics: set[str] = set()
    offline_topics: set[str] = set()
    for pid, (members, replicas) in enumerate(zip(table.isr, table.replicas, strict=True)):
        s = slack[pid]
        if not members:
            offline += 1
            offline_topics.add(table.topic[pid])
        if s < 0:
            under += 1
            under_topics.add(table.topic[pid])
        elif s == 0:
            at_min += 1
        if len(members) < len(replicas):
            urp += 1
    health = Health(
        offline, under, urp, at_min, tuple(sorted(under_topics)), tuple(sorted(offline_topics))
    )
    state.__dict__["_base"] = health
    return health


def initial_state(snapshot: Snapshot) -> ClusterState:
    """The state the snapshot describes."""
    nodes = {
        n.id: NodeState(
            id=n.id,
            is_broker=n.is_broker,
            is_controller=n.is_controller,
            version=n.software_version,
            rack=n.rack,
            supported=MappingProxyType(
                {name: (r.min, r.max) for name, r in n.supported_features.items()}
            ),
            fenced=n.fenced,
            in_controlled_shutdown=n.in_controlled_shutdown,
        )
        for n in snapshot.nodes
    }
    c = snapshot.configs
    configs = ConfigState(
        cluster=MappingProxyType(dict(c.cluster_default)),
        brokers={b: MappingProxyType(dict(v)) for b, v in c.brokers.items()},
        static={b: MappingProxyType(dict(v)) for b, v in c.broker_static.items()},
        topics={t: MappingProxyType(dict(v)) for t, v in c.topics.items()},
        described={t.name: MappingProxyType(dict(t.described_configs)) for t in snapshot.topics},
    )
    quorum = snapshot.quorum
    voters = tuple(sorted(quorum.voter_ids)) if quorum else ()
    if not voters:
        voters = tuple(sorted(i for i, n in nodes.items() if n.is_controller))
    kraft = snapshot.feature_level(KRAFT_VERSION)
    static = kraft < 1 or bool(quorum and quorum.static_voters)
    table = PartitionTable.of(snapshot)
    moves: dict[TopicPartition, Move] = {}
    for r in snapshot.index.in_flight():
        current = r.replicas or ()
        original = tuple(b for b in current if b not in r.adding) or current
        target = r.target or tuple(b for b in current if b not in r.removing)
        pid = table.pid_of.get(r.key)
        size = table.size[pid] if pid is not None else -1
        adding = [b for b in target if b not in original]
        moves[r.key] = Move(
            key=r.key,
            original=original,
            target=target,
            bytes_left=max(size, 0) * len(adding),
            size_known=size >= 0,
            started_in_plan=False,
        )
    return ClusterState(
        table=table,
        nodes=MappingProxyType(nodes),
        features=MappingProxyType({k: f.level for k, f in snapshot.features.items()}),
        configs=configs,
        voters=voters,
        static_quorum=static,
        moves=MappingProxyType(moves),
    )


@dataclass(frozen=True, slots=True)
class Estimate:
    """How long moves take at the throttles in force: the busiest broker's bytes over its rate.

    ``seconds`` is None when some broker of the move is unthrottled (then the network decides).
    """

    seconds: float | None
    bytes: int
    unknown_sizes: int
    bottleneck: int | None  # the broker that takes longest


def estimate(state: ClusterState, moves: Iterable[Move]) -> Estimate:
    """Each destination fetches its new replicas at ``follower.replication.throttled.rate``; each
    leader serves them at ``leader.replication.throttled.rate`` (QuotaConfig.java:75-83)."""
    inbound: Counter[int] = Counter()
    outbound: Counter[int] = Counter()
    unknown = total = 0
    table = state.table
    for m in moves:
        if not m.size_known:
            unknown += 1
        per_replica = m.bytes_left // max(len(m.adding), 1)
        pid = table.pid_of.get(m.key)
        source = table.leader[pid] if pid is not None and table.leader[pid] >= 0 else m.original[0]
        for b in m.adding:
            inbound[b] += per_replica
            outbound[source] += per_replica
            total += per_replica
    worst: float = 0.0
    bottleneck: int | None = None
    for counts, key in (
        (inbound, THROTTLE_RATE_KEYS[1]),
        (outbound, THROTTLE_RATE_KEYS[0]),
    ):
        for broker, size in sorted(counts.items()):
            rate = state.rate_on(broker, key)
            if rate is None or rate >= 2**62:
                return Estimate(None, total, unknown, broker)
            seconds = size / rate if rate > 0 else float("inf")
            if seconds > worst:
                worst, bottleneck = seconds, broker
    return Estimate(worst, total, unknown, bottleneck)


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
