"""Read a change plan from YAML: each step located (``path:line``), every failure a
:class:`ClusterInputError`; reassignment files resolved relative to the plan."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    TypeAdapter,
    ValidationError,
)

from cluster_engine.bounds import (
    MAX_PLAN_PARTITIONS,
)
from cluster_engine.errors import ClusterInputError, load_json, read_input
from cluster_engine.plan_steps import ACTIONS, AddPartitions, CreateTopic, Move, Plan, Step
from linter import inputs

_STEP = TypeAdapter[Step](Step)


# --------------------------------------------------------------------------------------------
# Loading


def load_plan(path: str | Path) -> Plan:
    """Read a plan file; reassignment files are resolved relative to it."""
    p = Path(path)
    return parse_plan(read_input(p), inputs.label(path), base_dir=p.parent)


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
    """A ``kafka-reassign-partitions`` JSON file; only ``version`` 1 exists (the tool
    refuses any other)."""
    target = Path(file) if base_dir is None else base_dir / file
    try:
        text = read_input(target)
        data = load_json(text, str(target))
    except OSError as error:
        shown = file if str(target) == file else f"{file} ({target})"
        raise ClusterInputError(
            plan_path, line, f"cannot read {shown}: {error.strerror}"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("partitions", None), list):
        raise ClusterInputError(str(target), None, 'expected {"version":1,"partitions":[...]}')
    version = data.get("version", 1)
    if version != 1:
        row, column = inputs.json_position(text, ["version"]) or (None, None)
        shown = str(version) if len(str(version)) <= 40 else inputs.quote(str(version))
        raise ClusterInputError(
            str(target), row, f"Not supported version field value {shown}", column
        )
    if not data["partitions"]:
        raise ClusterInputError(str(target), None, "Partition reassignment list cannot be empty")
    for i, item in enumerate(data["partitions"]):
        try:
            Move.model_validate(item)
        except ValidationError as error:
            raise _json_located(error, text, str(target), i) from None
    return list(data["partitions"])


def _json_located(error: ValidationError, text: str, path: str, index: int) -> ClusterInputError:
    """A bad partition of a reassignment JSON file, at the value's own line and column there."""
    first = error.errors()[0]
    loc = [p for p in first["loc"] if not str(p).startswith("function-")]
    where = inputs.json_position(text, ["partitions", index, *loc])
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)
    message = str(first["msg"]).removeprefix("Value error, ")
    found = first.get("input")
    shown = isinstance(found, int | float | str) and not isinstance(found, bool)
    if first["type"] != "missing" and shown:
        message += f" (found {inputs.quote(str(found))})"
    line, column = where if where is not None else (None, None)
    return ClusterInputError(path, line, f"partitions[{index}]{field}: {message}", column)
