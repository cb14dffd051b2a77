"""The parts of a cluster snapshot: nodes, features, the quorum, topics, configs,
reassignments and log dirs, each a validated, frozen model (``snapshot.Snapshot`` holds them)."""

from __future__ import annotations

from enum import StrEnum
from itertools import repeat
from typing import Any, Literal

from pydantic import Field, model_validator

from cluster_engine.bounds import Int32, Level, Long, NodeId, PartitionIndex, Size
from cluster_engine.model_base import Frozen as _Frozen
from cluster_engine.partitions import Partitions, TopicPartition


class Role(StrEnum):
    BROKER = "broker"
    CONTROLLER = "controller"


class FeatureRange(_Frozen):
    """The levels of one feature a node supports, both ends included."""

    min: Level
    max: Level

    @model_validator(mode="after")
    def _ordered(self) -> FeatureRange:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self


class Node(_Frozen):
    """A broker, a controller, or both (combined mode)."""

    id: NodeId
    roles: frozenset[Role] = frozenset({Role.BROKER})
    rack: str | None = None
    host: str | None = None
    port: Int32 | None = None
    software_version: str | None = Field(
        default=None, description="Kafka release the node runs, e.g. '4.1.0'"
    )
    supported_features: dict[str, FeatureRange] = Field(
        default_factory=dict,
        description="feature name -> supported levels (metadata.version as levels)",
    )
    fenced: bool = False
    in_controlled_shutdown: bool = False

    @property
    def is_broker(self) -> bool:
        return Role.BROKER in self.roles

    @property
    def is_controller(self) -> bool:
        return Role.CONTROLLER in self.roles


class Feature(_Frozen):
    """A finalized feature level, as ``kafka-features.sh describe`` prints it (0: not finalized)."""

    level: Level
    label: str | None = Field(
        default=None, description="the level as printed, e.g. '4.1-IV1' for metadata.version"
    )
    supported_min: Level | None = Field(default=None, description="as seen by the answering node")
    supported_max: Level | None = Field(default=None, description="as seen by the answering node")
    epoch: Long | None = None


class VendorFeature(_Frozen):
    """A feature whose levels are not integers (vendor builds, e.g. confluent.metadata.version)."""

    finalized: str
    supported_min: str | None = None
    supported_max: str | None = None
    epoch: Long | None = None


class QuorumMember(_Frozen):
    """A controller voter or an observer, from ``kafka-metadata-quorum.sh describe``."""

    id: NodeId
    directory_id: str | None = Field(
        default=None, description="None for static-quorum members (ZERO_UUID / null / omitted)"
    )
    endpoints: tuple[str, ...] = ()
    log_end_offset: Long | None = None
    lag: Long | None = None
    last_fetch_timestamp: Long | None = None
    last_caught_up_timestamp: Long | None = None


class Quorum(_Frozen):
    """The KRaft controller quorum."""

    leader_id: Int32 | None = None
    leader_epoch: Int32 | None = None
    high_watermark: Long | None = None
    max_follower_lag: Long | None = None
    max_follower_lag_time_ms: Long | None = None
    voters: tuple[QuorumMember, ...] = ()
    observers: tuple[QuorumMember, ...] = ()
    static_voters: str | None = Field(
        default=None,
        description="the controller.quorum.voters value when the quorum is configured statically",
    )

    @property
    def voter_ids(self) -> frozenset[int]:
        return frozenset(v.id for v in self.voters)


class Topic(_Frozen):
    name: str
    topic_id: str | None = None
    partitions: Partitions = Field(default=(), validate_default=True)
    described_configs: dict[str, str] = Field(
        default_factory=dict,
        description="the describe header's Configs: every non-default value, whatever its source",
    )
    marked_for_deletion: bool = False
    produce_rate: int | None = Field(
        default=None,
        ge=0,
        description="bytes/s written to the topic (all partitions), e.g. the brokers' "
        "BytesInPerSec{topic=...} metric; no Kafka tool output gives it",
    )

    @model_validator(mode="before")
    @classmethod
    def _name_partitions(cls, data: Any) -> Any:
        # Hand-written snapshots need not repeat the topic name on every partition.
        parts = data.get("partitions") if isinstance(data, dict) else None
        if isinstance(parts, list | tuple) and not _all_named(parts):
            name = data.get("name")
            data = {
                **data,
                "partitions": [
                    {"topic": name, **p} if isinstance(p, dict) and "topic" not in p else p
                    for p in data["partitions"]
                ],
            }
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Topic:
        problem = self.partitions.first_problem(self.name)
        if problem is not None:
            raise ValueError(problem)
        return self

    @property
    def partition_count(self) -> int:
        return len(self.partitions)

    @property
    def replication_factor(self) -> int:
        """From the first partition, like TopicCommand; 0 for a topic with no partitions."""
        parts = self.partitions
        if not parts:
            return 0
        first = min(range(len(parts)), key=parts.number.__getitem__)
        return len(parts.replicas[first]) - len(parts.adding[first])


class Configs(_Frozen):
    """Config values by scope, as ``kafka-configs.sh --describe`` lists them (None = sensitive)."""

    cluster_default: dict[str, str | None] = Field(
        default_factory=dict, description="--entity-default brokers (DYNAMIC_DEFAULT_BROKER_CONFIG)"
    )
    brokers: dict[NodeId, dict[str, str | None]] = Field(
        default_factory=dict, description="per broker id (DYNAMIC_BROKER_CONFIG)"
    )
    broker_static: dict[NodeId, dict[str, str | None]] = Field(
        default_factory=dict,
        description="per broker id, from server.properties (STATIC_BROKER_CONFIG)",
    )
    topics: dict[str, dict[str, str | None]] = Field(
        default_factory=dict, description="per topic (DYNAMIC_TOPIC_CONFIG)"
    )


class ReassignmentState(StrEnum):
    IN_PROGRESS = "in-progress"
    COMPLETED = "completed"
    NOT_ACTIVE = "not-active"  # "There is no active reassignment ..., but replica set is ..."


class Reassignment(_Frozen):
    """A partition reassignment seen by --verify, --list, a describe or the JSON that started it."""

    topic: str
    partition: PartitionIndex
    state: ReassignmentState = ReassignmentState.IN_PROGRESS
    replicas: tuple[NodeId, ...] | None = Field(
        default=None, description="current full replica set"
    )
    adding: tuple[NodeId, ...] = ()
    removing: tuple[NodeId, ...] = ()
    target: tuple[NodeId, ...] | None = Field(default=None, description="the replicas asked for")

    @property
    def key(self) -> TopicPartition:
        return (self.topic, self.partition)


class ReplicaSize(_Frozen):
    topic: str
    partition: PartitionIndex
    size: Size = Field(description="bytes")
    offset_lag: Long = 0
    is_future: bool = Field(default=False, description="destination copy of a log-dir move")


class LogDir(_Frozen):
    broker: NodeId
    path: str
    error: str | None = Field(default=None, description="Java exception class name, if any")
    total_bytes: Size | None = None
    usable_bytes: Size | None = None
    replicas: tuple[ReplicaSize, ...] = ()

    @property
    def used_fraction(self) -> float | None:
        if not self.total_bytes or self.usable_bytes is None:
            return None
        return 1.0 - self.usable_bytes / self.total_bytes


FactKind = Literal["topics", "configs", "features", "quorum", "log-dirs", "reassignments", "nodes"]
FACT_KINDS: tuple[FactKind, ...] = (
    "topics",
    "configs",
    "features",
    "quorum",
    "log-dirs",
    "reassignments",
    "nodes",
)


class UnreadFile(_Frozen):
    """A file of a capture directory that was not read."""

    path: str
    reason: str


def _all_named(parts: list[Any] | tuple[Any, ...]) -> bool:
    """Whether no partition is a mapping without its topic (for a plain list of dicts, read
    in C: a 200k-partition snapshot)."""
    if set(map(type, parts)) <= {dict}:
        return all(map(dict.__contains__, parts, repeat("topic")))
    return not any(isinstance(p, dict) and "topic" not in p for p in parts)
