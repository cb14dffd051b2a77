"""The typed rule cases of ``fixtures/rules/{topology,cluster,fleet,workflow}/<rule-name>.yml``.

A file (:mod:`tests.rules.case_files`) is ``{rule: <name>, cases: [...]}`` (a cluster file may
add ``example``: the cluster its rule's doc page example runs on). Every model forbids unknown
keys, so a typo (``befor:``) fails loading with ``path:line:col: what`` instead of making a case
test nothing. ``expect`` is required: an empty list means "this rule must not fire", and then
the case still has to give some input. Each expectation is one finding of the file's rule; the
runner matches the rule's findings one to one with them.

Topology cases are a lint case (``topology`` text or ``topology_file``) or a diff case
(``before``/``after`` texts or ``before_file``/``after_file``, and/or ``config``: Streams
properties and versions); files are paths under the repository or ``corpus:<path>`` under
``../shared/corpus/topologies`` (skipped without it, and never counted as a rule's firing or
quiet case). Cluster cases give a snapshot (see :class:`SnapshotSpec`) and a ``plan`` (text) or
``plan_file``. Fleet
cases give ``apps`` as facts or as describe() ``versions``. Workflow cases give either
``acknowledgements`` (with ``today`` and a topology run they judge) or ``files`` changed since a
git ``revision``.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

from rules.framework import Severity

NonEmpty = Annotated[str, Field(min_length=1)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Expect(Strict):
    """One expected finding: its rule, severity and what it is about: a resource name it must
    carry, or a ``location`` (``path:line``) it must point at, or both; optionally the plan
    ``step``/``line`` and text the message, remediation or steps must (not) contain."""

    rule: NonEmpty
    severity: Severity
    resource: NonEmpty | None = None
    location: NonEmpty | None = None
    step: int | None = None
    line: int | None = None
    message: str | None = None
    message_contains: tuple[str, ...] = ()
    remediation: str | None = None
    not_in_remediation: str | None = None
    steps: str | None = None
    not_in_steps: str | None = None

    @field_validator("resource", mode="before")
    @classmethod
    def _number_as_name(cls, value: Any) -> Any:
        # broker ids and partition numbers are resource names too
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @model_validator(mode="after")
    def _about_something(self) -> Self:
        if self.resource is None and self.location is None:
            raise ValueError("say what the finding is about: a resource, a location, or both")
        return self


class _Case(Strict):
    name: NonEmpty
    expect: tuple[Expect, ...]

    @property
    def fires(self) -> bool:
        return bool(self.expect)


def _one_of(case: BaseModel, *keys: str) -> int:
    given = [k for k in keys if getattr(case, k) is not None]
    if len(given) > 1:
        raise ValueError(f"give one of {' / '.join(keys)}, not {' and '.join(given)}")
    return len(given)


# -- topology ---------------------------------------------------------------------------------


class StreamsInput(Strict):
    """The Streams properties texts and Kafka Streams versions of a diff case."""

    before: str | None = None
    after: str | None = None
    streams_version_before: str | None = None
    streams_version_after: str | None = None

    @model_validator(mode="after")
    def _some(self) -> Self:
        if not self.model_fields_set:
            raise ValueError("an empty config gives no input")
        return self


class LintCase(_Case):
    kind: Literal["lint"] = "lint"
    topology: str | None = None
    topology_file: str | None = None
    application_id: str | None = None

    @model_validator(mode="after")
    def _input(self) -> Self:
        if _one_of(self, "topology", "topology_file") != 1:
            raise ValueError("a lint case needs topology or topology_file")
        return self

    @property
    def corpus(self) -> bool:
        return (self.topology_file or "").startswith("corpus:")


class DiffCase(_Case):
    kind: Literal["diff"] = "diff"
    before: str | None = None
    after: str | None = None
    before_file: str | None = None
    after_file: str | None = None
    config: StreamsInput | None = None
    application_id: str | None = None

    @model_validator(mode="after")
    def _input(self) -> Self:
        sides = _one_of(self, "before", "before_file") + _one_of(self, "after", "after_file")
        if sides == 1:
            raise ValueError("a topology diff needs both a before and an after")
        if sides == 0 and self.config is None:
            raise ValueError("a diff case needs before/after topologies, a config, or both")
        return self

    @property
    def corpus(self) -> bool:
        return any((f or "").startswith("corpus:") for f in (self.before_file, self.after_file))


def _topology_kind(value: Any) -> str:
    keys = value.keys() if isinstance(value, dict) else ()
    return "lint" if {"topology", "topology_file"} & set(keys) else "diff"


TopologyCase = Annotated[
    Annotated[LintCase, Tag("lint")] | Annotated[DiffCase, Tag("diff")],
    Discriminator(_topology_kind),
]


# -- cluster ----------------------------------------------------------------------------------


class SnapshotSpec(Strict):
    """A cluster snapshot: ``snapshot_file`` (default the three-broker fixture) or an inline
    ``snapshot``; or a capture directory (``capture_dir``, default the three-broker captures)
    with ``captures`` (Kafka tool outputs by file name over its files, ``null`` leaving one out);
    then ``patch`` deep-merged into it (mappings merge, an empty mapping empties)."""

    snapshot_file: str | None = None
    snapshot: dict[str, Any] | None = None
    captures: dict[str, str | None] | None = None
    capture_dir: str | None = None
    patch: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        _one_of(self, "snapshot_file", "snapshot")
        if self.captured and (self.snapshot_file or self.snapshot is not None):
            raise ValueError("give a snapshot or captures, not both")
        return self

    @property
    def captured(self) -> bool:
        return self.captures is not None or self.capture_dir is not None


class InputError(Strict):
    """The plan is refused as input at ``line`` (exit 2)."""

    line: int
    message_contains: tuple[str, ...] = ()


class ClusterCase(SnapshotSpec):
    name: NonEmpty
    expect: tuple[Expect, ...] | None = None  # required unless the plan is refused as input
    plan: str | None = None  # YAML text; "[]" for a plan with no step
    plan_file: str | None = None  # a plan file under the repository
    topologies: dict[str, str] = {}  # application id -> describe() file, as --topology
    no_errors: bool = False  # no rule at all reports an error
    input_error: InputError | None = None

    @model_validator(mode="after")
    def _refused_plans_find_nothing(self) -> Self:
        if (self.input_error is None) == (self.expect is None):
            raise ValueError("give expect (the findings), or input_error (a plan refused as input)")
        if _one_of(self, "plan", "plan_file") != 1:
            raise ValueError("a cluster case needs a plan or a plan_file")
        return self

    @property
    def fires(self) -> bool:
        return bool(self.expect)


# -- fleet ------------------------------------------------------------------------------------


class FleetApp(Strict):
    """One app: its facts, or its describe() ``versions`` (oldest first) scanned by the library."""

    app: NonEmpty
    application_id: str | None = None
    versions: tuple[str, ...] | None = None
    upgrade: str | None = None
    produces: tuple[str, ...] = ()
    consumes: tuple[str, ...] = ()
    stateful_on: tuple[str, ...] = ()
    key_changes: tuple[str, ...] = ()
    internal: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _facts_or_versions(self) -> Self:
        facts = {"upgrade", "produces", "consumes", "stateful_on", "key_changes", "internal"}
        if self.versions is not None and facts & self.model_fields_set:
            raise ValueError("give versions or facts, not both")
        return self


class PartitionChangeSpec(Strict):
    topic: NonEmpty
    partitions: int
    step: int
    before: int | None = None


class _ProseExample(_Case):
    """A case of a rule whose doc page example is prose: ``doc_example: true`` marks the case
    that writes that example out (it must fire)."""

    doc_example: bool = False

    @model_validator(mode="after")
    def _example_fires(self) -> Self:
        if self.doc_example and not self.expect:
            raise ValueError("the doc page example is a case where the rule fires")
        return self


class FleetCase(_ProseExample):
    apps: tuple[FleetApp, ...] = Field(min_length=1)
    partition_changes: tuple[PartitionChangeSpec, ...] = ()


# -- workflow ---------------------------------------------------------------------------------


class AckSpec(Strict):
    """One ``[[acknowledgements]]`` entry of the configuration."""

    reason: NonEmpty
    fingerprint: str | None = None
    rule: str | None = None
    resource: str | None = None
    expires: date | None = None
    path: str | None = None


class AcknowledgementCase(_ProseExample):
    """A run (a lint of ``topology`` or a diff ``before`` -> ``after``) judged on ``today``
    with the configuration's ``acknowledgements``."""

    kind: Literal["acknowledgements"] = "acknowledgements"
    acknowledgements: tuple[AckSpec, ...] = Field(min_length=1)
    today: date
    topology: str | None = None
    before: str | None = None
    after: str | None = None
    application_id: str | None = None

    @model_validator(mode="after")
    def _run(self) -> Self:
        diff = (self.before is not None) + (self.after is not None)
        if diff == 1 or (diff == 2) == (self.topology is not None):
            raise ValueError("judge one run: a topology to lint, or a before and an after")
        return self


class FileSpec(Strict):
    """A describe() file between the base revision and now."""

    path: NonEmpty
    status: Literal["added", "modified", "renamed", "deleted"]
    old_path: str | None = None
    before: str | None = None  # the text at the revision
    after: str | None = None  # the text now

    @model_validator(mode="after")
    def _texts(self) -> Self:
        if (self.before is None) != (self.status == "added"):
            raise ValueError("an added file has no before; any other needs its text at the base")
        if (self.after is None) != (self.status == "deleted"):
            raise ValueError("a deleted file has no after; any other needs its text now")
        return self


class GitBaseCase(_ProseExample):
    """``ksafe diff --git-base REVISION``: the describe() files changed since ``revision``."""

    kind: Literal["git-base"] = "git-base"
    revision: NonEmpty = "origin/main"
    files: tuple[FileSpec, ...] = Field(min_length=1)
    application_id: str | None = None


def _workflow_kind(value: Any) -> str:
    keys = value.keys() if isinstance(value, dict) else ()
    return "git-base" if "files" in keys else "acknowledgements"


WorkflowCase = Annotated[
    Annotated[AcknowledgementCase, Tag("acknowledgements")]
    | Annotated[GitBaseCase, Tag("git-base")],
    Discriminator(_workflow_kind),
]

Case = LintCase | DiffCase | ClusterCase | FleetCase | AcknowledgementCase | GitBaseCase
