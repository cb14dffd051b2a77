"""The rule case files of ``fixtures/rules/{topology,cluster,fleet,workflow}/<rule-name>.yml``
(see :mod:`tests.rules.case_model`), loaded with located errors: ``path:line:col: what``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Self

import yaml
from pydantic import Field, ValidationError, model_validator

from tests.rules.case_model import (
    Case,
    ClusterCase,
    FleetCase,
    NonEmpty,
    SnapshotSpec,
    Strict,
    TopologyCase,
    WorkflowCase,
)


class CaseFile(Strict):
    rule: NonEmpty
    cases: tuple[Case, ...]  # each kind's file narrows it

    @model_validator(mode="after")
    def _cases_of_this_rule(self) -> Self:
        names = [c.name for c in self.cases]
        if len(set(names)) < len(names):
            raise ValueError(f"two cases named {max(names, key=names.count)!r}")
        for case in self.cases:
            for e in case.expect or ():
                if e.rule != self.rule:
                    raise ValueError(f"case {case.name!r} expects rule {e.rule} in {self.rule}.yml")
        return self


class ClusterExample(SnapshotSpec):
    """The cluster a rule's doc page example plan runs on: a snapshot, or ``like_case``: the
    snapshot of the file's case of that name."""

    like_case: str | None = None

    @model_validator(mode="after")
    def _reference_alone(self) -> Self:
        if self.like_case is not None and self.model_fields_set - {"like_case"}:
            raise ValueError("give like_case or a snapshot, not both")
        return self


class TopologyFile(CaseFile):
    cases: tuple[TopologyCase, ...] = Field(min_length=1)


class ClusterFile(CaseFile):
    cases: tuple[ClusterCase, ...] = Field(min_length=1)
    example: ClusterExample = ClusterExample()

    @model_validator(mode="after")
    def _example_case_exists(self) -> Self:
        name = self.example.like_case
        if name is not None and name not in {c.name for c in self.cases}:
            raise ValueError(f"example: no case named {name!r}")
        return self

    def example_snapshot(self) -> SnapshotSpec:
        """The snapshot the rule's doc page example runs on."""
        name = self.example.like_case
        if name is None:
            return self.example
        [case] = [c for c in self.cases if c.name == name]
        return case


class FleetFile(CaseFile):
    cases: tuple[FleetCase, ...] = Field(min_length=1)


class WorkflowFile(CaseFile):
    cases: tuple[WorkflowCase, ...] = Field(min_length=1)


Kind = Literal["topology", "cluster", "fleet", "workflow"]
FILE_MODELS: dict[Kind, type[CaseFile]] = {
    "topology": TopologyFile,
    "cluster": ClusterFile,
    "fleet": FleetFile,
    "workflow": WorkflowFile,
}


class CaseFileError(Exception):
    """A case file that does not validate: ``path:line:col: what`` per problem."""


def _node_at(node: yaml.Node, loc: tuple[int | str, ...]) -> yaml.Node:
    """The YAML node an error's ``loc`` points at: an unknown key's own node, else the deepest
    node the path reaches (union tags and missing keys are not in the document)."""
    for i, part in enumerate(loc):
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if k.value == part), None)
            if pair is not None:
                node = pair[0] if i == len(loc) - 1 else pair[1]
        elif (
            isinstance(node, yaml.SequenceNode)
            and isinstance(part, int)
            and part < len(node.value)
        ):
            node = node.value[part]
    return node


def _shown(path: Path) -> Path:
    """``path`` as the user would name it: relative to the current directory when under it."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path


def _located(path: Path, text: str, error: ValidationError) -> str:
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    path = _shown(path)
    lines = []
    for e in error.errors():
        at = _node_at(root, tuple(e["loc"])) if root is not None else None
        line, col = (at.start_mark.line + 1, at.start_mark.column + 1) if at else (1, 1)
        where = ".".join(str(p) for p in e["loc"])
        lines.append(f"{path}:{line}:{col}: {where}: {e['msg']}")
    return "\n".join(lines)


class _Loader(yaml.SafeLoader):
    """SafeLoader refusing a key given twice: the second would silently replace the first."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key, _ in node.value:
            if key.value in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key.value!r} given twice", key.start_mark
                )
            seen.add(key.value)
        return super().construct_mapping(node, deep=deep)


def load_file(path: Path, kind: Kind) -> CaseFile:
    """One case file, validated; :class:`CaseFileError` (located) when it does not."""
    text = path.read_text(encoding="utf-8")
    try:
        data = yaml.load(text, Loader=_Loader)  # a SafeLoader
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark
        where = f"{_shown(path)}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise CaseFileError(f"{where}: {e.problem}") from None
    try:
        loaded = FILE_MODELS[kind].model_validate(data)
    except ValidationError as e:
        raise CaseFileError(_located(path, text, e)) from None
    if loaded.rule != path.stem:
        raise CaseFileError(f"{path}:1:1: rule {loaded.rule} in a file named {path.name}")
    return loaded


def load_folder(folder: Path) -> dict[Kind, list[CaseFile]]:
    """Every case file under ``folder``/{topology,cluster,fleet,workflow}, by kind."""
    out: dict[Kind, list[CaseFile]] = {}
    for kind in FILE_MODELS:
        out[kind] = [load_file(p, kind) for p in sorted((folder / kind).glob("*.yml"))]
    return out
