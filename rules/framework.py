"""The rule framework: what a rule is, what it returns, and how findings get their identity.

A rule is a pure function decorated with :func:`rule`. It receives one subject (a topology, a
topology diff, a Streams config diff, a cluster plan step...) and yields :class:`Hit` objects: what
it found, about which resources, where. The runner turns hits into :class:`Finding` objects,
adding the rule's identity, its severity (default or overridden by config) and a fingerprint.

A rule is typed by its subject: ``Rule[DiffSubject]`` declared with ``subject=TOPOLOGY_DIFF`` (a
``SubjectKind[DiffSubject]``) must take a ``DiffSubject``, and :func:`run` given that kind must be
given one, so mypy rejects a rule or a call written for another subject. Each kind is declared
beside the class its rules receive.

Rules never compute their own fingerprint, severity or id: that keeps them short and makes the
identity of a finding a property of the framework, stable across runs and layouts.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from operator import itemgetter
from typing import Any, Generic, Literal, Self, TypeAlias, TypeGuard

from pydantic import BaseModel, ConfigDict
from typing_extensions import TypeVar


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return _SEVERITY_RANK[self]


# Looked up by the member itself (a str): ``rank`` is in every sort key of every finding.
_SEVERITY_RANK: dict[str, int] = {"error": 3, "warning": 2, "info": 1}


class Impact(StrEnum):
    """What a finding does to a running system; the HTML report groups findings by it."""

    STATE_LOSS = "state-loss"  # local state and its changelog are abandoned
    RESTORE = "restore"  # state survives but is rebuilt from the changelog
    DATA_LOSS = "data-loss"  # records are lost (in-flight repartition data, unclean election)
    AVAILABILITY = "availability"  # producers blocked, partitions offline, a step hangs
    IRREVERSIBLE = "irreversible"  # cannot be undone (metadata.version bumps)
    DOWNSTREAM = "downstream"  # other applications/consumers are affected
    HYGIENE = "hygiene"  # not broken today, fragile tomorrow (generated names, leftovers)


Subject: TypeAlias = Literal[
    "topology",
    "topology-diff",
    "streams-config",
    "cluster-step",
    "cluster",
    "cluster-apps",  # the simulation plus the Streams apps' topologies (rules.cluster._apps)
    "topology-file",  # a whole file between two git revisions (rules.workflow)
    "acknowledgements",  # the config's acknowledgements after a run (rules.workflow)
    "fleet",  # the whole fleet's topic graph, or a slice of it (rules.fleet)
]

# What a rule receives. A bare ``Rule`` is a rule of any subject (a catalogue, a selection).
S = TypeVar("S", default=Any)


class SubjectKind(str, Generic[S]):
    """A kind of subject, named as reports print it, typed by the object its rules receive:
    ``TOPOLOGY_DIFF: SubjectKind[DiffSubject] = SubjectKind("topology-diff")``."""

    __slots__ = ()

    def __new__(cls, name: Subject) -> Self:
        return super().__new__(cls, name)

    def owns(self, r: Rule[Any]) -> TypeGuard[Rule[S]]:
        """True when ``r`` is a rule of this kind, so it takes the subject this kind is typed by."""
        return r.subject == self


class Resource(BaseModel):
    """Something a finding is about: ``kind`` is e.g. ``store``, ``changelog-topic``,
    ``repartition-topic``, ``topic``, ``node``, ``subtopology``, ``broker``, ``partition``,
    ``feature``, ``config``."""

    model_config = ConfigDict(frozen=True)

    kind: str
    name: str


class Location(BaseModel):
    """Where a finding points in an input file. ``side`` says which input: ``before``/``after``
    for a topology diff, ``plan``/``snapshot`` for a cluster check."""

    model_config = ConfigDict(frozen=True)

    path: str | None = None
    line: int | None = None
    column: int | None = None
    side: str | None = None


class DeployStrategy(StrEnum):
    """How a change can go live, from least to most disruptive."""

    ROLLING_BOUNCE = "rolling-bounce"
    STOP_AND_RESTART = "stop-and-restart"
    BLUE_GREEN = "blue-green"
    RESET = "application-reset"

    @property
    def rank(self) -> int:
        return list(DeployStrategy).index(self)


# A location as a rule gives it (path, line, side): see :func:`location`.
At: TypeAlias = tuple[str | None, int | None, str | None]


class _NoData(Mapping[str, Any]):
    """The empty mapping of a hit without data: read only, and hashable, so that the dataclass
    takes it as a default (a default factory is a call for each hit: a fifth of making one)."""

    __slots__ = ()

    def __getitem__(self, key: str) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __hash__(self) -> int:
        return 0


_NO_DATA: Mapping[str, Any] = _NoData()


@dataclass(slots=True)
class Hit:
    """What a rule yields. ``key`` identifies the finding among the rule's others for the
    fingerprint (defaults to the sorted resources); never put line numbers in it.

    ``requires`` is the least disruptive deployment strategy under which the change is safe, and
    ``steps`` are the concrete runbook lines it adds (drain this topic, delete that task directory).

    Not frozen, unlike the Finding made from it: rules make one per finding, the runner reads it
    once, and a frozen dataclass's ``__init__`` costs three times as much (it sets every field
    through ``object.__setattr__``).
    """

    message: str
    resources: tuple[Resource, ...] = ()
    locations: tuple[Location | At, ...] = ()  # an At is made a Location with the finding
    remediation: str = ""
    key: str | None = None
    requires: DeployStrategy | None = None
    steps: tuple[str, ...] = ()
    step: int | None = None  # cluster plan step index (0-based) the hit belongs to
    # structured extras (estimates, counts); most hits have none: one shared empty mapping, read
    # only, instead of a dict made for each hit (the finding made of a hit gets its own dict)
    data: Mapping[str, Any] = _NO_DATA


class Finding(BaseModel):
    """One finding as users see it, in every output format."""

    model_config = ConfigDict(frozen=True)

    rule: str
    name: str
    severity: Severity
    impact: Impact
    message: str
    resources: tuple[Resource, ...] = ()
    locations: tuple[Location, ...] = ()
    remediation: str = ""
    fingerprint: str
    requires: DeployStrategy | None = None
    steps: tuple[str, ...] = ()
    step: int | None = None
    line: int | None = None  # cluster plan line of ``step``, when known
    data: dict[str, Any] = {}
    acknowledged: str | None = None  # the reason, when an acknowledgement in config matches

    def sort_key(self) -> tuple[int, str, str, str]:
        return (-_SEVERITY_RANK[self.severity], self.rule, self.fingerprint, self.message)


@dataclass(frozen=True, slots=True)
class Rule(Generic[S]):
    """A rule's permanent identity plus its function. ``doc`` is the docstring: the rule's page."""

    id: str
    name: str
    severity: Severity
    impact: Impact
    subject: SubjectKind[S]
    func: Callable[[S], Iterable[Hit]]

    @property
    def doc(self) -> str:
        return inspect.cleandoc(self.func.__doc__ or "")

    @property
    def summary(self) -> str:
        return self.doc.split("\n", 1)[0]

    def __call__(self, subject: S) -> Iterable[Hit]:
        return self.func(subject)


def rule(
    *, id: str, name: str, severity: Severity, impact: Impact, subject: SubjectKind[S]
) -> Callable[[Callable[[S], Iterable[Hit]]], Rule[S]]:
    """Declare a rule. IDs (``KS``/``KC`` + 3 digits) and names are permanent."""

    def wrap(func: Callable[[S], Iterable[Hit]]) -> Rule[S]:
        return Rule(id=id, name=name, severity=severity, impact=impact, subject=subject, func=func)

    return wrap


def fingerprint(rule_id: str, hit: Hit) -> str:
    """A stable identity: rule + key (or resources). Never line numbers, never messages."""
    key = hit.key if hit.key is not None else "|".join(
        sorted(f"{r.kind}={r.name}" for r in hit.resources)
    )
    return _digest(rule_id, key)


@functools.lru_cache(maxsize=1 << 16)
def _digest(rule_id: str, key: str) -> str:
    # The same keys (generated names such as ``|KSTREAM-FILTER-0000000003``) recur in every app
    # of a fleet: the cache saves a sha256 per finding.
    return hashlib.sha256(f"{rule_id}\x00{key}".encode()).hexdigest()[:16]


def to_finding(r: Rule[Any], hit: Hit, severity: Severity | None = None) -> Finding:
    """The finding ``r`` makes of ``hit`` (its severity overridden by ``severity``)."""
    return _finding(r, hit, r.severity if severity is None else Severity(severity))


def _finding(r: Rule[Any], hit: Hit, severity: Severity) -> Finding:
    """:func:`to_finding` with the severity settled (the runner settles it once per rule: an
    Enum call per finding costs as much as the rest of the finding's fields)."""
    return _trusted(
        Finding,
        {
            "rule": r.id,
            "name": r.name,
            "severity": severity,
            "impact": r.impact,
            "message": hit.message,
            "resources": tuple(hit.resources),
            "locations": tuple([_made(x) if type(x) is tuple else x for x in hit.locations]),
            "remediation": hit.remediation,
            "fingerprint": fingerprint(r.id, hit),
            "requires": hit.requires,
            "steps": tuple(hit.steps),
            "step": hit.step,
            "line": None,
            "data": dict(hit.data),
            "acknowledged": None,
        },
        _GIVEN,
    )


# The fields a finding made by a rule is given (the rest keep their defaults), as pydantic records
# them for ``model_fields_set``.
_GIVEN = frozenset(Finding.model_fields) - {"line", "acknowledged"}
_AT_LINE = frozenset({"path", "line"})
_AT_LINE_OF_SIDE = frozenset({"path", "line", "side"})

_M = TypeVar("_M", bound=BaseModel)
_set = object.__setattr__  # bound once: four calls per finding and per location


def _trusted(cls: type[_M], values: dict[str, Any], given: frozenset[str]) -> _M:
    """``cls(**values)`` without validating values that are typed already (every field, in field
    order; ``given`` the ones a caller would have named): the same model, equal, with the same
    dump and fields set. Validation would cost twice the rest of making a finding, for some
    thirty findings (and their locations) an app in a fleet scan."""
    model = object.__new__(cls)
    _set(model, "__dict__", values)
    _set(model, "__pydantic_fields_set__", set(given))
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model


def location(path: str | None, line: int | None, side: str | None = None) -> At:
    """``Location(path=path, line=line, side=side)`` (``side`` unset when None) for a hit: made a
    Location when the hit is made a finding. Rules point almost every hit at a line, and the
    fleet scan, which makes rows of hits (:func:`run_raw`), has no column for locations."""
    return (path, line, side)


def _made(at: At) -> Location:
    """The Location ``at`` stands for, made like :func:`to_finding` makes findings."""
    path, line, side = at
    values = {"path": path, "line": line, "column": None, "side": side}
    return _trusted(Location, values, _AT_LINE if side is None else _AT_LINE_OF_SIDE)


def run(
    rules: Iterable[Rule[Any]],
    kind: SubjectKind[S],
    subject: S,
    *,
    severities: Mapping[str, Severity] | None = None,
) -> list[Finding]:
    """Run every rule of ``kind`` on ``subject``; return sorted findings.

    ``severities`` overrides a rule's default severity, keyed by rule id.
    """
    return sorted(collect(rules, kind, subject, severities=severities), key=Finding.sort_key)


def collect(
    rules: Iterable[Rule[Any]],
    kind: SubjectKind[S],
    subject: S,
    *,
    severities: Mapping[str, Severity] | None = None,
) -> list[Finding]:
    """:func:`run` without the sort, for a caller that sorts all its findings at the end."""
    return [
        _finding(r, hit, severity)
        for r, severity in _chosen(rules, kind, severities)
        for hit in r.func(subject)
    ]


def _chosen(
    rules: Iterable[Rule[Any]], kind: SubjectKind[S], severities: Mapping[str, Severity] | None
) -> list[tuple[Rule[Any], Severity]]:
    """Each rule of ``kind`` with its severity (``severities`` overriding a rule's default,
    keyed by rule id): the rules :func:`collect` and :func:`run_raw` run. A list made in one
    call, not a generator: a step of one per rule cost as much as most rules' own run on a
    diff with nothing to find (the fleet scan runs some thirty rules an app)."""
    overrides = severities or {}
    chosen = []
    for r in rules:
        if r.subject != kind:  # ``kind.owns(r)``, without a call per rule of the catalogue
            continue
        override = overrides.get(r.id)
        chosen.append((r, r.severity if override is None else Severity(override)))
    return chosen


# A hit with its rule, severity and fingerprint: what a finding is made of, for a caller that
# makes findings of its own form (the fleet scan's rows) and would only take a Finding apart.
Raw: TypeAlias = tuple["Rule[Any]", Hit, Severity, str]
_FINGERPRINT = itemgetter(3)  # of a Raw


def run_raw(
    rules: Iterable[Rule[Any]],
    kind: SubjectKind[S],
    subject: S,
    *,
    severities: Mapping[str, Severity] | None = None,
) -> list[Raw]:
    """:func:`run`'s findings before they are made, in the same order (:meth:`Finding.sort_key`,
    stably)."""
    # The hits of a rule share the head of their sort key (severity, rule): grouped by it in
    # order of appearance, each group sorted stably by the rest (fingerprint, message), the
    # order is the one stable sort by the whole key gives, and the sort compares strings first
    # (one C comparison) instead of tuples whose first item is equal.
    groups: dict[tuple[int, str], list[Raw]] = {}
    for r, severity in _chosen(rules, kind, severities):
        rule_id = r.id
        # a keyed hit's fingerprint (most are keyed) straight from the digest: fingerprint()'s
        # own call cost as much as the digest's cache
        made = [
            (r, hit, severity, fingerprint(rule_id, hit) if key is None else _digest(rule_id, key))
            for hit in r.func(subject)
            for key in (hit.key,)
        ]
        if made:
            head = (-_SEVERITY_RANK[severity], rule_id)
            group = groups.get(head)
            if group is None:
                groups[head] = made
            else:  # the same rule twice in ``rules``
                group += made
    out: list[Raw] = []
    for head in sorted(groups):
        group = groups[head]
        if len(group) > 1:
            if len(set(map(_FINGERPRINT, group))) == len(group):
                # one hit a key, as rules give them: the message never decides, and a sort of
                # strings alone compares each pair in one C call (a pair of tuples costs three)
                group.sort(key=_FINGERPRINT)
            else:
                keys = [(fp, hit.message) for _, hit, _, fp in group]
                # sorted by index with the keys made on the way: no Python call per key
                group = [group[i] for i in sorted(range(len(group)), key=keys.__getitem__)]
        out += group
    return out


def find_rule(rules: Iterable[Rule[Any]], ref: str) -> Rule[Any] | None:
    """Look a rule up by id (case-insensitive) or name."""
    for r in rules:
        if ref.upper() == r.id or ref == r.name:
            return r
    return None


