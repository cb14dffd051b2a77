"""The simulated cluster state: compact, shareable between steps, cheap to derive from.

Partitions live in one :class:`~cluster_engine.table.PartitionTable`, shared by every state that
does not change replica lists. A restart does not copy partitions: a state records which brokers
are out of every ISR (``out_of_isr``) and the live ISR of a partition is its table ISR minus
those brokers; :mod:`cluster_engine.health` counts what that does to the partitions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType

from cluster_engine.config_state import ConfigState
from cluster_engine.health import Health, PartitionHealth
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
from cluster_engine.table import PartitionTable, TopicPartition

__all__ = [
    "ClusterState",
    "ConfigState",
    "Health",
    "Move",
    "NodeState",
    "PartitionTable",
    "initial_state",
]


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
    def partition_health(self) -> PartitionHealth:
        """Health arithmetic over the table; shared by ``evolve`` while table and configs are."""
        mins: dict[str, int] = {}
        for name in self.table.topic_names:
            value = self.configs.topic_value(name, MIN_INSYNC_REPLICAS)
            mins[name] = int(value) if value is not None and value.strip().isdigit() else 1
        return PartitionHealth(self.table, mins)

    @property
    def topic_min_isr(self) -> Mapping[str, int]:
        return self.partition_health.topic_min_isr

    def unclean_enabled(self, topic: str) -> bool:
        value = self.configs.topic_value(topic, UNCLEAN_LEADER_ELECTION)
        return value is not None and value.strip().lower() == "true"

    def min_isr_at_rf(self) -> dict[str, tuple[int, int]]:
        """Topics with a partition whose min.insync.replicas is not below its RF (RF >= 2):
        topic -> (min.insync.replicas, smallest such RF)."""
        return self.partition_health.min_isr_at_rf()

    def health(self, out: frozenset[int] | None = None) -> Health:
        """Partition health with ``out`` (default: this state's ``out_of_isr``) out of the ISRs."""
        return self.partition_health.health(self.out_of_isr if out is None else out)

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
        shared = self.__dict__.get("partition_health")
        if shared is not None and new.table is self.table and new.configs is self.configs:
            new.__dict__["partition_health"] = shared
        return new


def initial_state(snapshot: Snapshot) -> ClusterState:
    """The state the snapshot describes."""
    nodes = _nodes(snapshot)
    quorum = snapshot.quorum
    voters = tuple(sorted(quorum.voter_ids)) if quorum else ()
    if not voters:
        voters = tuple(sorted(i for i, n in nodes.items() if n.is_controller))
    kraft = snapshot.feature_level(KRAFT_VERSION)
    table = PartitionTable.of(snapshot)
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
        configs=snapshot.config_state,
        voters=voters,
        static_quorum=kraft < 1 or bool(quorum and quorum.static_voters),
        moves=MappingProxyType(_moves(snapshot, table)),
        produce_rates=MappingProxyType(
            {t.name: t.produce_rate for t in snapshot.topics if t.produce_rate is not None}
        ),
        elr_unknown=frozenset(t.name for t in snapshot.topics if None in t.partitions.elr),
    )


def _nodes(snapshot: Snapshot) -> dict[int, NodeState]:
    return {
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


def _moves(snapshot: Snapshot, table: PartitionTable) -> dict[TopicPartition, Move]:
    """The reassignments in flight, with the bytes their adding replicas still have to copy."""
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
    return moves
