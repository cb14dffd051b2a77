"""The change plan: an ordered list of typed steps read from YAML, each knowing its line.

A plan is a YAML list of steps (or a mapping with ``steps:`` and an optional ``description:``).
Each step is either a one-key mapping, ``- restart: {nodes: [1, 2]}``, or carries its kind in
``action:``, ``- action: restart`` + fields. Keys are kebab-case, as on the Kafka tools' command
lines. Unknown keys and impossible values are :class:`ClusterInputError` with ``path:line``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, TypeAlias, get_args

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from cluster_engine.bounds import (
    INT16_MAX,
    INT32_MAX,
    INT64_MAX,
    MAX_PLAN_PARTITIONS,
    NodeId,
    PartitionCount,
    PartitionIndex,
)
from cluster_engine.errors import ClusterInputError, load_json, read_input
from cluster_engine.knowledge import METADATA_VERSION, parse_metadata_version, release_of
from linter import inputs


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


_STEP = TypeAdapter[Step](Step)


# --------------------------------------------------------------------------------------------
# Loading


def load_plan(path: str | Path) -> Plan:
    """Read a plan file; reassignment files are resolved relative to it."""
    p = Path(path)
    return parse_plan(read_input(p), str(path), base_dir=p.parent)


def parse_plan(text: str, path: str = "<plan>", base_dir: Path | None = None) -> Plan:
    """A plan from its YAML text; every failure (YAML, a duplicate key, an alias, a value out
    of range) is a located :class:`ClusterInputError`."""
    try:
        root = inputs.compose_yaml(text, path)
    except inputs.MalformedInput as error:
        raise ClusterInputError(error.path, error.line, error.detail, error.column) from None
    return _parse_plan(root, text, path, base_dir)


def _parse_plan(root: yaml.Node | None, text: str, path: str, base_dir: Path | None) -> Plan:
    if root is None:
        raise ClusterInputError(path, None, "the plan is empty")
    description: str | None = None
    steps_node: yaml.Node | None = root
    if isinstance(root, yaml.MappingNode):
        fields = _mapping(root)
        unknown = sorted(set(fields) - {"steps", "description"})
        if unknown:
            raise ClusterInputError(
                path, _line(fields[unknown[0]][0]), f"unknown key {unknown[0]!r} (expected steps)"
            )
        if "description" in fields:
            description = str(_value(fields["description"][1], path))
        steps_node = fields["steps"][1] if "steps" in fields else None
    if not isinstance(steps_node, yaml.SequenceNode):
        where = steps_node if steps_node is not None else root
        raise ClusterInputError(path, _line(where), "expected a list of steps")
    steps = tuple(_step(item, i, path, base_dir) for i, item in enumerate(steps_node.value))
    _check_growth(steps, path)
    return Plan(path=path, description=description, steps=steps)


def _check_growth(steps: Sequence[Step], path: str) -> None:
    """Refuse, before any simulation, a plan whose steps together create more partitions than
    the simulator will model (each step alone is bounded by its field's range)."""
    total = 0
    for step in steps:
        if isinstance(step, CreateTopic | AddPartitions):
            total += step.partitions
            if total > MAX_PLAN_PARTITIONS:
                raise ClusterInputError(
                    path,
                    step.line,
                    f"step {step.index + 1} ({step.action}): the plan's steps create more than "
                    f"{MAX_PLAN_PARTITIONS} partitions together, more than ksafe simulates",
                )


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _mapping(node: yaml.MappingNode) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    return {str(k.value): (k, v) for k, v in node.value}


def _value(node: yaml.Node, path: str) -> Any:
    try:
        return inputs.construct_yaml(node, path)
    except inputs.MalformedInput as error:
        raise ClusterInputError(error.path, error.line, error.detail, error.column) from None


def _step(node: yaml.Node, index: int, path: str, base_dir: Path | None) -> Step:
    line = _line(node)
    if not isinstance(node, yaml.MappingNode):
        raise ClusterInputError(path, line, f"step {index + 1}: expected a mapping")
    fields = _mapping(node)
    args_node: yaml.Node = node
    if "action" in fields:
        action = str(_value(fields["action"][1], path))
        data = _value(node, path)
    elif len(fields) == 1:
        action, (_, args_node) = next(iter(fields.items()))
        value = _value(args_node, path)
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise ClusterInputError(path, line, f"step {index + 1} ({action}): expected a mapping")
        data = {**value, "action": action}
    else:
        raise ClusterInputError(
            path, line, f"step {index + 1}: expected one step kind as its only key, or action:"
        )
    if action not in ACTIONS:
        close = difflib.get_close_matches(action, ACTIONS, n=1)
        expected = f" (expected one of {', '.join(ACTIONS)})"
        hint = f"; did you mean {close[0]!r}?" if close else expected
        raise ClusterInputError(path, line, f"step {index + 1}: unknown step {action!r}{hint}")
    if action == "reassign" and isinstance(data.get("file"), str):
        data["partitions"] = _read_reassignment(data["file"], base_dir, path, line)
    data["index"], data["line"] = index, line
    try:
        return _STEP.validate_python(data)
    except ValidationError as error:
        raise _located(error, args_node, path, index, action, line) from None


def _located(
    error: ValidationError, node: yaml.Node, path: str, index: int, action: str, line: int
) -> ClusterInputError:
    first = error.errors()[0]
    loc = [p for p in first["loc"][1:] if p != "function-after"]  # drop the union tag
    target: yaml.Node | None = node
    for part in loc:
        if isinstance(target, yaml.MappingNode):
            found = _mapping(target).get(str(part))
            key_wanted = first["type"] == "extra_forbidden"
            target = (found[0] if key_wanted else found[1]) if found else None
        elif isinstance(target, yaml.SequenceNode) and isinstance(part, int):
            target = target.value[part] if part < len(target.value) else None
        else:
            break
    where = _line(target) if target is not None else line
    field = ".".join(str(p) for p in loc)
    if first["type"] == "extra_forbidden":
        message = f"unknown key {field!r}"
    else:
        message = str(first["msg"]).removeprefix("Value error, ")
        if field:
            message = f"{field}: {message}"
    return ClusterInputError(path, where, f"step {index + 1} ({action}): {message}")


def _read_reassignment(
    file: str, base_dir: Path | None, plan_path: str, line: int
) -> list[Mapping[str, Any]]:
    """A ``kafka-reassign-partitions`` JSON file; only ``version`` 1 exists (cluster-facts §4)."""
    target = Path(file) if base_dir is None else base_dir / file
    try:
        data = load_json(read_input(target), str(target))
    except OSError as error:
        shown = file if str(target) == file else f"{file} ({target})"
        raise ClusterInputError(plan_path, line, f"cannot read {shown}: {error.strerror}") from None
    if not isinstance(data, dict) or not isinstance(data.get("partitions", None), list):
        raise ClusterInputError(str(target), None, 'expected {"version":1,"partitions":[...]}')
    version = data.get("version", 1)
    if version != 1:
        raise ClusterInputError(str(target), None, f"Not supported version field value {version}")
    if not data["partitions"]:
        raise ClusterInputError(str(target), None, "Partition reassignment list cannot be empty")
    return list(data["partitions"])
