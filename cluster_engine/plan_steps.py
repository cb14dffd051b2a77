"""The change plan's model: the typed steps, the ``Step`` union and ``Plan``.

A plan is a YAML list of steps (or a mapping with ``steps:`` and an optional ``description:``).
Each step is either a one-key mapping, ``- restart: {nodes: [1, 2]}``, or carries its kind in
``action:``, ``- action: restart`` + fields. Keys are kebab-case, as on the Kafka tools' command
lines. Unknown keys and impossible values are :class:`ClusterInputError` with ``path:line``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypeAlias, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    model_validator,
)

from cluster_engine.bounds import (
    INT16_MAX,
    INT32_MAX,
    INT64_MAX,
    NodeId,
    PartitionCount,
    PartitionIndex,
)
from cluster_engine.knowledge import METADATA_VERSION, parse_metadata_version, release_of


def _kebab(name: str) -> str:
    return name.replace("_", "-")


def _one_or_many(value: Any) -> Any:
    return [value] if isinstance(value, int | str) and not isinstance(value, bool) else value


def _as_text(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return value


def _not_bool(what: str) -> BeforeValidator:
    # YAML reads yes/no/true/false as booleans, and pydantic would take them as 1 and 0
    def check(value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError(f"expected {what}, got the boolean {str(value).lower()}")
        return value

    return BeforeValidator(check)


def _release(value: Any) -> Any:
    text = _as_text(value)
    if isinstance(text, str) and release_of(text) is None:
        raise ValueError(f"{text!r} is not a Kafka release (expected e.g. 4.1.0)")
    return text


Id = Annotated[NodeId, _not_bool("an id")]
NodeIds = Annotated[tuple[Id, ...], BeforeValidator(_one_or_many)]
Release = Annotated[str, BeforeValidator(_release)]
PositiveInt = Annotated[int, Field(ge=1, le=INT32_MAX)]
ConfigValue = Annotated[str, BeforeValidator(_as_text)]


class _Model(BaseModel):
    model_config = ConfigDict(
        frozen=True, extra="forbid", alias_generator=_kebab, populate_by_name=True
    )


class _Step(_Model):
    index: int = Field(default=0, description="0-based position in the plan (set by the loader)")
    line: int = Field(default=0, description="1-based line of the step in the plan file")
    note: str | None = None


def _distinct(nodes: Sequence[int], what: str) -> None:
    if len(set(nodes)) != len(nodes):
        raise ValueError(f"{what} lists a node twice: {list(nodes)}")


class UpgradeBinaries(_Step):
    """Install ``version`` on ``nodes``, restarting them as a roll (``at-once`` at a time)."""

    action: Literal["upgrade-binaries"] = "upgrade-binaries"
    nodes: NodeIds = Field(min_length=1)
    version: Release
    at_once: PositiveInt = 1
    wait_for_urp: bool = True

    @model_validator(mode="after")
    def _check(self) -> UpgradeBinaries:
        _distinct(self.nodes, "nodes")
        return self


class Restart(_Step):
    """Restart ``nodes`` at the same time."""

    action: Literal["restart"] = "restart"
    nodes: NodeIds = Field(min_length=1)
    wait_for_urp: bool = True

    @model_validator(mode="after")
    def _check(self) -> Restart:
        _distinct(self.nodes, "nodes")
        return self


class RollingRestart(_Step):
    """Restart ``nodes`` (default: every broker, by id) ``at-once`` at a time, in order."""

    action: Literal["rolling-restart"] = "rolling-restart"
    nodes: NodeIds | None = None
    at_once: PositiveInt = 1
    wait_for_urp: bool = True

    @model_validator(mode="after")
    def _check(self) -> RollingRestart:
        if self.nodes is not None:
            _distinct(self.nodes, "nodes")
        return self


class UpdateFeature(_Step):
    """``kafka-features.sh upgrade|downgrade --feature F=L`` or ``--release-version R``."""

    action: Literal["update-feature"] = "update-feature"
    feature: str | None = None
    level: Annotated[Annotated[int, Field(le=INT16_MAX)] | str, _not_bool("a level")] | None = None
    release_version: Annotated[str, BeforeValidator(_as_text)] | None = None
    unsafe: bool = False
    release_level: int | None = Field(
        default=None, description="metadata.version level of release-version (set on load)"
    )

    @model_validator(mode="after")
    def _check(self) -> UpdateFeature:
        if (self.feature is None) == (self.release_version is None):
            raise ValueError("give either feature (with level) or release-version")
        if self.release_version is not None:
            if self.level is not None:
                raise ValueError("level goes with feature, not with release-version")
            mv = parse_metadata_version(self.release_version)
            if mv is None:
                raise ValueError(f"unknown release-version {self.release_version!r}")
            object.__setattr__(self, "release_level", mv)
            return self
        if self.level is None:
            raise ValueError(f"feature {self.feature} needs a level")
        if isinstance(self.level, str):
            is_mv = self.feature == METADATA_VERSION
            parsed = parse_metadata_version(self.level) if is_mv else None
            if parsed is None:
                raise ValueError(f"level {self.level!r} is not a number")
            object.__setattr__(self, "level", parsed)
        if isinstance(self.level, int) and self.level < 0:
            raise ValueError("A feature version cannot be less than 0.")
        return self

    @property
    def target_level(self) -> int:
        """The level of ``feature`` (metadata.version for a release-version)."""
        if self.release_level is not None:
            return self.release_level
        assert isinstance(self.level, int)
        return self.level


class AlterConfig(_Step):
    """``kafka-configs.sh --alter``: ``scope`` cluster (``--entity-default``), broker or topic."""

    action: Literal["alter-config"] = "alter-config"
    scope: Literal["cluster", "broker", "topic"]
    entity: ConfigValue | None = None
    key: str = Field(min_length=1)
    value: ConfigValue | None = None
    delete: bool = False

    @model_validator(mode="after")
    def _check(self) -> AlterConfig:
        if self.delete == (self.value is not None):
            raise ValueError("give either value or delete: true")
        if self.scope == "cluster" and self.entity is not None:
            raise ValueError("scope cluster takes no entity")
        if self.scope != "cluster" and self.entity is None:
            raise ValueError(f"scope {self.scope} needs an entity")
        if self.scope == "broker" and not str(self.entity).isdigit():
            raise ValueError(f"broker entity must be a broker id, got {self.entity!r}")
        return self


class Move(_Model):
    """One partition of a ``kafka-reassign-partitions`` JSON file."""

    topic: str = Field(min_length=1)
    partition: Annotated[PartitionIndex, _not_bool("a partition")]
    replicas: tuple[Id, ...] = Field(min_length=1)
    log_dirs: tuple[str, ...] | None = Field(default=None, alias="log_dirs")

    @model_validator(mode="after")
    def _check(self) -> Move:
        if len(set(self.replicas)) != len(self.replicas):
            raise ValueError(f"duplicate brokers in replicas {list(self.replicas)}")
        if self.log_dirs is not None and len(self.log_dirs) != len(self.replicas):
            raise ValueError(
                f"Size of replicas list {list(self.replicas)} is different from size of log "
                f"dirs list {list(self.log_dirs)}"
            )
        return self


class Reassign(_Step):
    """``kafka-reassign-partitions.sh --execute`` of a JSON ``file`` (relative to the plan) or
    of inline ``partitions``, with ``--throttle`` in bytes/s; ``produce-rates``: topic -> bytes/s
    written to it, for the checks that weigh the throttle against new writes."""

    action: Literal["reassign"] = "reassign"
    file: str | None = None
    partitions: tuple[Move, ...] = ()
    throttle: int | None = Field(default=None, ge=-1, le=INT64_MAX)
    log_dir_throttle: int | None = Field(default=None, ge=-1, le=INT64_MAX)
    additional: bool = False
    produce_rates: dict[str, Annotated[int, Field(ge=0)]] = Field(
        default_factory=dict,
        description="bytes/s written to each moving topic (all its partitions), when known",
    )

    @model_validator(mode="after")
    def _check(self) -> Reassign:
        if self.file is None and not self.partitions:
            raise ValueError("give a reassignment JSON file or inline partitions")
        seen = {(m.topic, m.partition) for m in self.partitions}
        if len(seen) != len(self.partitions):
            raise ValueError("a partition is listed twice")
        if self.throttle == -1:  # the tool's default: no throttle
            object.__setattr__(self, "throttle", None)
        return self


class VerifyReassignment(_Step):
    """``--verify``. ``wait``: run it once every move has finished (else: while they still run)."""

    action: Literal["verify-reassignment"] = "verify-reassignment"
    wait: bool = True
    preserve_throttles: bool = False


class CancelReassignment(_Step):
    """``--cancel`` of the reassignments in flight (clears throttles unless preserved)."""

    action: Literal["cancel-reassignment"] = "cancel-reassignment"
    preserve_throttles: bool = False


class AddBroker(_Step):
    action: Literal["add-broker"] = "add-broker"
    id: Id
    version: Release | None = None
    rack: str | None = None


class DecommissionBroker(_Step):
    """Stop and unregister (``kafka-cluster.sh unregister``) ``brokers``."""

    action: Literal["decommission-broker"] = "decommission-broker"
    brokers: NodeIds = Field(min_length=1)


class AddController(_Step):
    """``kafka-metadata-quorum.sh add-controller``. ``wait``: until the new voter set commits."""

    action: Literal["add-controller"] = "add-controller"
    id: Id
    version: Release | None = None
    wait: bool = True


class RemoveController(_Step):
    """``kafka-metadata-quorum.sh remove-controller``. ``wait``: until the change commits."""

    action: Literal["remove-controller"] = "remove-controller"
    id: Id
    wait: bool = True


class ElectLeaders(_Step):
    """``kafka-leader-election.sh --election-type preferred|unclean`` on ``topics`` (default
    all)."""

    action: Literal["elect-leaders"] = "elect-leaders"
    type: Literal["preferred", "unclean"] = "preferred"
    topics: tuple[str, ...] | None = None


class CreateTopic(_Step):
    """``kafka-topics.sh --create``; ``during-restart``: while the previous restart step runs
    (an application creating its topics in the middle of a roll)."""

    action: Literal["create-topic"] = "create-topic"
    topic: str = Field(min_length=1)
    partitions: PartitionCount = 1
    # None: default.replication.factor; the protocol field is an int16
    replication_factor: Annotated[int, Field(ge=1, le=INT16_MAX)] | None = None
    configs: dict[str, ConfigValue] = {}
    during_restart: bool = False


class AddPartitions(_Step):
    """``kafka-topics.sh --alter --partitions N``: ``partitions`` is the new total."""

    action: Literal["add-partitions"] = "add-partitions"
    topic: str = Field(min_length=1)
    partitions: PartitionCount


Step: TypeAlias = Annotated[
    UpgradeBinaries
    | Restart
    | RollingRestart
    | UpdateFeature
    | AlterConfig
    | Reassign
    | VerifyReassignment
    | CancelReassignment
    | AddBroker
    | DecommissionBroker
    | AddController
    | RemoveController
    | ElectLeaders
    | CreateTopic
    | AddPartitions,
    Field(discriminator="action"),
]

# Each step's ``action`` literal, in the union's order.
ACTIONS: tuple[str, ...] = tuple(
    get_args(kind.model_fields["action"].annotation)[0] for kind in get_args(get_args(Step)[0])
)


class Plan(_Model):
    """A change plan: ``steps`` in the order they are run."""

    path: str = "<plan>"
    description: str | None = None
    steps: tuple[Step, ...] = ()
