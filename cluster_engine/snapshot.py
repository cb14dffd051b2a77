"""The cluster snapshot: a KRaft cluster at one moment, as a validated, frozen model.

It is built from the Kafka tools' own outputs (``cluster_engine.ingest``) or written by hand as
YAML/JSON (``Snapshot.model_validate``; the JSON schema is ``ksafe schema snapshot``). It is only
a record of facts: judging them is the rules' job, changing them the simulator's.

Queries that must stay fast on large clusters (200k partitions, 100 brokers) go through
``Snapshot.index``, plain dicts and tuples built once per snapshot, so no pydantic work is done
per lookup.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from functools import cached_property
from typing import Any, Literal

from pydantic import Field, model_validator

from cluster_engine.config_state import ConfigState
from cluster_engine.model_base import Frozen as _Frozen
from cluster_engine.partitions import Partition, Partitions, TopicPartition
from cluster_engine.snapshot_parts import (
    FACT_KINDS,
    Configs,
    FactKind,
    Feature,
    FeatureRange,
    LogDir,
    Node,
    Quorum,
    QuorumMember,
    Reassignment,
    ReassignmentState,
    ReplicaSize,
    Role,
    Topic,
    UnreadFile,
    VendorFeature,
)

__all__ = [
    "DEFAULT_MIN_INSYNC_REPLICAS",
    "DEFAULT_UNCLEAN_LEADER_ELECTION",
    "FACT_KINDS",
    "Configs",
    "FactKind",
    "Feature",
    "FeatureRange",
    "LogDir",
    "Node",
    "Partition",
    "Partitions",
    "Quorum",
    "QuorumMember",
    "Reassignment",
    "ReassignmentState",
    "ReplicaSize",
    "Role",
    "Snapshot",
    "SnapshotIndex",
    "Topic",
    "TopicPartition",
    "UnreadFile",
    "VendorFeature",
    "throttled_replicas",
]

# Kafka's own defaults for the configs the engine reads most (4.1 source):
# min.insync.replicas: server-common/.../ServerLogConfigs.java:138-139,
#   storage/.../LogConfig.java:221
# unclean.leader.election.enable: storage/.../LogConfig.java:133, ReplicationConfigs.java:118,158
DEFAULT_MIN_INSYNC_REPLICAS = 1
DEFAULT_UNCLEAN_LEADER_ELECTION = False


class Snapshot(_Frozen):
    """A KRaft cluster at one moment."""

    snapshot_version: Literal[1] = 1
    cluster_id: str | None = None
    nodes: tuple[Node, ...] = ()
    features: dict[str, Feature] = Field(
        default_factory=dict, description="finalized levels by feature name (absent = 0)"
    )
    vendor_features: dict[str, VendorFeature] = Field(default_factory=dict)
    quorum: Quorum | None = None
    topics: tuple[Topic, ...] = ()
    configs: Configs = Field(default_factory=Configs)
    reassignments: tuple[Reassignment, ...] = ()
    log_dirs: tuple[LogDir, ...] = ()
    facts: tuple[FactKind, ...] | None = Field(
        default=None,
        description="the kinds of facts captured (topics: kafka-topics --describe, configs, "
        "features, quorum, log-dirs, reassignments, nodes: kafka-broker-api-versions); None: "
        "all of them, as in a snapshot written by hand",
    )
    unread: tuple[UnreadFile, ...] = Field(
        default=(), description="files of the capture directory that were not read, and why"
    )

    @model_validator(mode="after")
    def _unique(self) -> Snapshot:
        for what, keys in (
            ("node", [n.id for n in self.nodes]),
            ("topic", [t.name for t in self.topics]),
            ("reassignment", [r.key for r in self.reassignments]),
            ("log dir", [(d.broker, d.path) for d in self.log_dirs]),
        ):
            dup = _first_duplicate(keys)
            if dup is not None:
                raise ValueError(f"{what} {dup!r} is listed twice")
        return self

    # -- queries -------------------------------------------------------------------------------

    @cached_property
    def index(self) -> SnapshotIndex:
        """Lookup tables, built on first use and kept (the model is frozen)."""
        return SnapshotIndex(self)

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Snapshot:
        """A copy with some fields replaced (not validated); its caches are rebuilt on use."""
        copied = super().model_copy(update=update, deep=deep)
        for cached in ("index", "config_state"):
            copied.__dict__.pop(cached, None)
        return copied

    def has(self, kind: FactKind) -> bool:
        """Whether the snapshot holds facts of ``kind`` (a hand-written one holds them all)."""
        return self.facts is None or kind in self.facts

    @property
    def quorum_is_dynamic(self) -> bool:
        """KIP-853 dynamic quorum: kraft.version >= 1 (4.1:docs/operations/kraft.md:159)."""
        return self.kraft_version >= 1

    def feature_level(self, name: str) -> int:
        """The finalized level of a feature; 0 when it is not finalized."""
        feature = self.features.get(name)
        return feature.level if feature is not None else 0

    @property
    def metadata_version(self) -> Feature | None:
        return self.features.get("metadata.version")

    @property
    def kraft_version(self) -> int:
        return self.feature_level("kraft.version")

    @property
    def elr_enabled(self) -> bool:
        # 4.1:MC/FeatureControlManager.java:470-473
        return self.feature_level("eligible.leader.replicas.version") >= 1

    @cached_property
    def config_state(self) -> ConfigState:
        """The configs by scope, with the resolver the simulator uses."""
        c = self.configs
        return ConfigState.of(
            cluster=c.cluster_default,
            brokers=c.brokers,
            static=c.broker_static,
            topics=c.topics,
            described={t.name: t.described_configs for t in self.topics},
        )

    def effective_config(
        self,
        key: str,
        *,
        topic: str | None = None,
        broker: int | None = None,
        default: str | None = None,
        broker_key: str | None = None,
    ) -> str | None:
        """The value in force (``ConfigState.topic_value``), else ``default``."""
        value = self.config_state.topic_value(topic, key, broker, broker_key)
        return default if value is None else value

    def min_insync_replicas(self, topic: str, broker: int | None = None) -> int:
        value = self.effective_config("min.insync.replicas", topic=topic, broker=broker)
        return int(value) if value is not None else DEFAULT_MIN_INSYNC_REPLICAS

    def unclean_leader_election(self, topic: str, broker: int | None = None) -> bool:
        value = self.effective_config("unclean.leader.election.enable", topic=topic, broker=broker)
        if value is None:
            return DEFAULT_UNCLEAN_LEADER_ELECTION
        return value.strip().lower() == "true"


class SnapshotIndex:
    """Plain dicts over a snapshot, built once. Read-only by convention: do not mutate."""

    def __init__(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot
        self.nodes: dict[int, Node] = {n.id: n for n in snapshot.nodes}
        self.topics: dict[str, Topic] = {t.name: t for t in snapshot.topics}
        self.reassignments: dict[TopicPartition, Reassignment] = {
            r.key: r for r in snapshot.reassignments
        }
        sizes: defaultdict[TopicPartition, dict[int, int]] = defaultdict(dict)
        for d in snapshot.log_dirs:
            for r in d.replicas:
                if not r.is_future:
                    sizes[(r.topic, r.partition)][d.broker] = r.size
        self.replica_sizes: dict[TopicPartition, dict[int, int]] = dict(sizes)

    # Partition objects are built from the topics' columns only when asked for.

    @cached_property
    def partitions(self) -> dict[TopicPartition, Partition]:
        return {p.key: p for t in self._snapshot.topics for p in t.partitions}

    @cached_property
    def partitions_by_broker(self) -> dict[int, tuple[Partition, ...]]:
        by_broker: defaultdict[int, list[Partition]] = defaultdict(list)
        for p in self.partitions.values():
            for b in p.replicas:
                by_broker[b].append(p)
        return {b: tuple(ps) for b, ps in by_broker.items()}

    @cached_property
    def leaders_by_broker(self) -> dict[int, tuple[Partition, ...]]:
        led: defaultdict[int, list[Partition]] = defaultdict(list)
        for p in self.partitions.values():
            if p.leader is not None:
                led[p.leader].append(p)
        return {b: tuple(ps) for b, ps in led.items()}

    @property
    def broker_ids(self) -> tuple[int, ...]:
        return tuple(sorted(i for i, n in self.nodes.items() if n.is_broker))

    @property
    def controller_ids(self) -> tuple[int, ...]:
        return tuple(sorted(i for i, n in self.nodes.items() if n.is_controller))

    def partitions_on(self, broker: int) -> tuple[Partition, ...]:
        return self.partitions_by_broker.get(broker, ())

    def partition_size(self, topic: str, partition: int) -> int | None:
        """Largest known size of a partition's replicas, in bytes (None when unknown)."""
        sizes = self.replica_sizes.get((topic, partition))
        return max(sizes.values()) if sizes else None

    def in_flight(self) -> Iterator[Reassignment]:
        return (r for r in self.reassignments.values() if r.state is ReassignmentState.IN_PROGRESS)


def _first_duplicate(keys: list[Any]) -> Any | None:
    seen: set[Any] = set()
    for k in keys:
        if k in seen:
            return k
        seen.add(k)
    return None


def throttled_replicas(value: str | None) -> Mapping[int, frozenset[int]] | Literal["*"]:
    """Parse ``leader/follower.replication.throttled.replicas``: ``"*"`` or partition -> brokers."""
    if value is None or not value.strip():
        return {}
    if value.strip() == "*":
        return "*"
    out: defaultdict[int, set[int]] = defaultdict(set)
    for item in value.split(","):
        item = item.strip()
        if not item:
            continue
        partition, _, broker = item.partition(":")
        out[int(partition)].add(int(broker))
    return {p: frozenset(bs) for p, bs in out.items()}
