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
from itertools import chain, compress
from operator import eq, lt, sub
from types import MappingProxyType
from typing import Any

from cluster_engine.config_state import ConfigState
from cluster_engine.knowledge import (
    ELR_FEATURE,
    KRAFT_VERSION,
    METADATA_VERSION,
    MIN_INSYNC_REPLICAS,
    THROTTLE_RATE_KEYS,
    THROTTLED_REPLICAS_KEYS,
    UNCLEAN_LEADER_ELECTION,
)
from cluster_engine.partitions import NO_LEADER
from cluster_engine.snapshot import Snapshot

TopicPartition = tuple[str, int]


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

    @classmethod
    def of(cls, snapshot: Snapshot) -> PartitionTable:
        # Column by column from each topic's own columns: no per-partition object is built.
        topic: list[str] = []
        number: list[int] = []
        replicas: list[tuple[int, ...]] = []
        isr: list[tuple[int, ...]] = []
        elr: list[tuple[int, ...]] = []
        leader: list[int] = []
        for t in snapshot.topics:
            parts = t.partitions
            topic += [t.name] * len(parts)
            number += parts.number
            replicas += parts.replicas
            isr += parts.isr
            elr += [e or () for e in parts.elr]
            leader += [-1 if x == NO_LEADER else x for x in parts.leader]
        sizes: dict[tuple[str, int], int] = {}
        for d in snapshot.log_dirs:
            for r in d.replicas:
                key = (r.topic, r.partition)
                if not r.is_future and r.size > sizes.get(key, -1):
                    sizes[key] = r.size
        size = (
            [sizes.get(k, -1) for k in zip(topic, number, strict=True)]
            if sizes
            else [-1] * len(topic)
        )
        return cls(topic, number, replicas, isr, elr, leader, size)

    def __len__(self) -> int:
        return len(self.topic)

    @cached_property
    def pids_of_topic(self) -> Mapping[str, list[int]]:
        pids: dict[str, list[int]] = {}
        for pid, name in enumerate(self.topic):
            pids.setdefault(name, []).append(pid)
        return pids

    @cached_property
    def topic_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.topic))

    @cached_property
    def isr_len(self) -> list[int]:
        return list(map(len, self.isr))

    @cached_property
    def rf(self) -> list[int]:
        return list(map(len, self.replicas))

    @cached_property
    def topic_rf(self) -> Mapping[str, int]:
        """The smallest replica count of each topic's partitions."""
        out: dict[str, int] = {}
        for name, n in zip(self.topic, self.rf, strict=True):
            if n < out.get(name, 1 << 30):
                out[name] = n
        return out

    @cached_property
    def pid_of(self) -> Mapping[TopicPartition, int]:
        return {(t, n): pid for pid, (t, n) in enumerate(zip(self.topic, self.number, strict=True))}

    @cached_property
    def isr_on(self) -> Mapping[int, list[int]]:
        """broker -> pids whose ISR holds it."""
        return _by_broker(self.isr)

    @cached_property
    def replicas_on(self) -> Mapping[int, list[int]]:
        """broker -> pids with a replica on it."""
        return _by_broker(self.replicas)

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


def _by_broker(
    column: list[tuple[int, ...]], pids: list[int] | None = None
) -> dict[int, list[int]]:
    """broker -> the pids (default: positions in ``column``) whose tuple holds it."""
    out: dict[int, list[int]] = {}
    appenders: dict[int, Any] = {}
    for pid, members in zip(pids, column, strict=True) if pids is not None else enumerate(column):
        for b in members:
            append = appenders.get(b)
            if append is None:
                out[b] = []
                append = appenders[b] = out[b].append
            append(pid)
    return out


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
    # the ranges kafka-features.sh describe printed (as seen by the node that answered), assumed
    # for ``described_nodes``: the snapshot's nodes with no ranges and no version of their own
    described_ranges: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    described_nodes: frozenset[int] = frozenset()
    # bytes/s written to a topic, from the snapshot or a reassign step's produce-rates
    produce_rates: Mapping[str, int] = field(default_factory=dict)
    # topics with a partition whose ELR the snapshot did not show ('N/A' or no column)
    elr_unknown: frozenset[str] = frozenset()

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
        for name in self.table.topic_names:
            value = self.configs.topic_value(name, MIN_INSYNC_REPLICAS)
            out[name] = int(value) if value is not None and value.strip().isdigit() else 1
        return out

    def unclean_enabled(self, topic: str) -> bool:
        value = self.configs.topic_value(topic, UNCLEAN_LEADER_ELECTION)
        return value is not None and value.strip().lower() == "true"

    @cached_property
    def _eff_min(self) -> list[int]:
        mins = self.topic_min_isr
        return [min(mins[t], n) for t, n in zip(self.table.topic, self.table.rf, strict=True)]

    @cached_property
    def _slack(self) -> list[int]:
        """len(ISR) - effective min ISR, per pid (negative: under min ISR already)."""
        return list(map(sub, self.table.isr_len, self._eff_min))

    @cached_property
    def _single_index(
        self,
    ) -> tuple[dict[int, list[int]], dict[int, list[int]], Counter[int], Counter[int]]:
        """broker -> pids at min ISR holding it; broker -> pids whose ISR is only it; per
        broker, how many fully replicated ISRs and ISRs one above min hold it."""
        table, slack = self.table, self._slack
        isr = table.isr
        at_min = [p for p, s in enumerate(slack) if s == 0]
        lone = [p for p, n in enumerate(table.isr_len) if n == 1]
        full = map(eq, table.isr_len, table.rf)
        above = (s == 1 for s in slack)
        return (
            _by_broker([isr[p] for p in at_min], at_min),
            _by_broker([isr[p] for p in lone], lone),
            Counter(chain.from_iterable(compress(isr, full))),
            Counter(chain.from_iterable(compress(isr, above))),
        )

    def min_isr_at_rf(self) -> dict[str, tuple[int, int]]:
        """Topics with a partition whose min.insync.replicas is not below its RF (RF >= 2):
        topic -> (min.insync.replicas, smallest such RF)."""
        table, mins = self.table, self.topic_min_isr
        out: dict[str, tuple[int, int]] = {}
        pairs = enumerate(zip(self._eff_min, table.rf, strict=True))
        for pid in [p for p, (e, n) in pairs if e == n >= 2]:
            name = table.topic[pid]
            rf = min(table.rf[pid], out.get(name, (0, 1 << 30))[1])
            out[name] = (mins[name], rf)
        return out

    @cached_property
    def _isr_sets(self) -> dict[int, frozenset[int]]:
        return {b: frozenset(pids) for b, pids in self.table.isr_on.items()}

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
        new = replace(self, **changes)  # type: ignore[arg-type]
        if new.table is self.table and new.configs is self.configs:
            # partition-derived caches depend only on the table and the configs: share them
            for name in (
                "topic_min_isr",
                "_eff_min",
                "_slack",
                "_base",
                "_single_index",
                "_isr_sets",
            ):
                if name in self.__dict__:
                    new.__dict__[name] = self.__dict__[name]
        return new


def _health(state: ClusterState, out: frozenset[int]) -> Health:
    base = _base_health(state)
    if not out:
        return base
    table, slack, eff = state.table, state._slack, state._eff_min
    if len(out) == 1:
        # One broker out: only partitions at min ISR go under it, only single-member ISRs go
        # offline; both are few, and the counts come from per-broker counters.
        (only,) = out
        at_min_on, lone_on, full_count, above_count = state._single_index
        under_pids = at_min_on.get(only, [])
        offline_pids = lone_on.get(only, [])
        under_topics = {table.topic[p] for p in under_pids}
        offline_topics = {table.topic[p] for p in offline_pids}
        return Health(
            base.offline + len(offline_pids),
            base.under_min_isr + len(under_pids),
            base.under_replicated + full_count[only],
            base.at_min_isr - len(under_pids) + above_count[only],
            tuple(sorted(under_topics | set(base.under_min_isr_topics))),
            tuple(sorted(offline_topics | set(base.offline_topics))),
        )
    if len(out) == 2:
        return _pair_health(state, base, *sorted(out))
    isr_on, isr_len, rf = table.isr_on, table.isr_len, table.rf
    hits: Counter[int] = Counter()
    for b in out:
        hits.update(isr_on.get(b, ()))
    under, offline = base.under_min_isr, base.offline
    urp, at_min = base.under_replicated, base.at_min_isr
    under_set: set[str] = set(base.under_min_isr_topics)
    offline_set: set[str] = set(base.offline_topics)
    for pid, n in hits.items():
        s = slack[pid]
        live = isr_len[pid] - n
        if isr_len[pid] == rf[pid]:
            urp += 1
        if s == 0:
            at_min -= 1
        if live == 0:
            offline += 1
            offline_set.add(table.topic[pid])
        if s >= 0 and live < eff[pid]:
            under += 1
            under_set.add(table.topic[pid])
        elif s - n == 0:
            at_min += 1
    return Health(offline, under, urp, at_min, tuple(sorted(under_set)), tuple(sorted(offline_set)))


def _pair_health(state: ClusterState, base: Health, a: int, b: int) -> Health:
    """Two brokers out (a parallel restart, or a roll that does not wait): only partitions
    holding both differ from two one-broker outages, and set intersections find them."""
    table, slack = state.table, state._slack
    isr_len, rf = table.isr_len, table.rf
    at_min_on, lone_on, full_count, above_count = state._single_index
    sets = state._isr_sets
    both = sets.get(a, frozenset()) & sets.get(b, frozenset())
    under = set(at_min_on.get(a, ())) | set(at_min_on.get(b, ()))
    under.update(p for p in both if slack[p] == 1)
    offline = set(lone_on.get(a, ())) | set(lone_on.get(b, ()))
    offline.update(p for p in both if isr_len[p] == 2)
    both_full = sum(1 for p in both if isr_len[p] == rf[p])
    both_above = sum(1 for p in both if slack[p] == 1)
    both_two = sum(1 for p in both if slack[p] == 2)
    lost_min = len(at_min_on.get(a, ())) + len(at_min_on.get(b, ()))
    lost_min -= sum(1 for p in both if slack[p] == 0)
    return Health(
        base.offline + len(offline),
        base.under_min_isr + len(under),
        base.under_replicated + full_count[a] + full_count[b] - both_full,
        base.at_min_isr - lost_min + above_count[a] + above_count[b] - 2 * both_above + both_two,
        tuple(sorted({table.topic[p] for p in under} | set(base.under_min_isr_topics))),
        tuple(sorted({table.topic[p] for p in offline} | set(base.offline_topics))),
    )


def _base_health(state: ClusterState) -> Health:
    cached = state.__dict__.get("_base")
    if isinstance(cached, Health):
        return cached
    table, slack = state.table, state._slack
    isr_len = table.isr_len
    under_pids = [p for p, s in enumerate(slack) if s < 0]
    offline_pids = [p for p, n in enumerate(isr_len) if n == 0]
    health = Health(
        len(offline_pids),
        len(under_pids),
        sum(map(lt, isr_len, table.rf)),
        slack.count(0),
        tuple(sorted({table.topic[p] for p in under_pids})),
        tuple(sorted({table.topic[p] for p in offline_pids})),
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
    configs = snapshot.config_state
    quorum = snapshot.quorum
    voters = tuple(sorted(quorum.voter_ids)) if quorum else ()
    if not voters:
        voters = tuple(sorted(i for i, n in nodes.items() if n.is_controller))
    kraft = snapshot.feature_level(KRAFT_VERSION)
    static = kraft < 1 or bool(quorum and quorum.static_voters)
    table = PartitionTable.of(snapshot)
    moves: dict[TopicPartition, Move] = {}
    for r in snapshot.reassignments:
        if r.state != "in-progress":
            continue
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
        described_ranges=MappingProxyType(
            {
                k: (f.supported_min, f.supported_max)
                for k, f in snapshot.features.items()
                if f.supported_min is not None and f.supported_max is not None
            }
        ),
        described_nodes=frozenset(
            i for i, n in nodes.items() if not n.supported and n.version is None
        ),
        configs=configs,
        voters=voters,
        static_quorum=static,
        moves=MappingProxyType(moves),
        produce_rates=MappingProxyType(
            {t.name: t.produce_rate for t in snapshot.topics if t.produce_rate is not None}
        ),
        elr_unknown=frozenset(t.name for t in snapshot.topics if None in t.partitions.elr),
    )
