"""A topic's partitions: the ``Partition`` model, and ``Partitions``, how a topic stores them.

A 200k-partition cluster would cost a pydantic object, a dict and a handful of tuples per
partition. ``Partitions`` keeps one topic's partitions as columns instead: arrays of numbers and
lists of replica tuples, each distinct tuple stored once (a cluster has few distinct replica
lists). It is a ``Sequence[Partition]`` that builds a ``Partition`` on access, validates and
serialises exactly as ``tuple[Partition, ...]`` does, and exposes its columns to the engine.
"""

from __future__ import annotations

from array import array
from collections.abc import Collection, Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import chain, repeat
from typing import Any, overload

from pydantic import Field, GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

from cluster_engine.arrays import naturals
from cluster_engine.bounds import INT32_MAX, Int32, NodeId, PartitionIndex
from cluster_engine.model_base import Frozen

TopicPartition = tuple[str, int]
Members = tuple[int, ...]

# The leader column's mark for "no leader" (the tool's 'none'): outside every int32.
NO_LEADER = -(2**40)
_EMPTY: Members = ()


class Partition(Frozen):
    """One partition as ``kafka-topics.sh --describe`` shows it. Lists keep the broker's order."""

    topic: str
    partition: PartitionIndex
    replicas: tuple[NodeId, ...]
    leader: Int32 | None = Field(default=None, description="None when the tool prints 'none'")
    isr: tuple[NodeId, ...] = ()
    elr: tuple[NodeId, ...] | None = Field(default=None, description="None when unknown ('N/A')")
    last_known_elr: tuple[NodeId, ...] | None = None
    adding_replicas: tuple[NodeId, ...] = ()
    removing_replicas: tuple[NodeId, ...] = ()

    @property
    def key(self) -> TopicPartition:
        return (self.topic, self.partition)

    @property
    def replication_factor(self) -> int:
        """Replicas minus the ones being added, as TopicCommand computes it."""
        return len(self.replicas) - len(self.adding_replicas)


_FIELDS = tuple(Partition.model_fields)


class Interner:
    """One shared tuple per distinct member list."""

    def __init__(self) -> None:
        self._seen: dict[Any, Any] = {(): _EMPTY}

    def __call__(self, value: Members) -> Members:
        return self._seen.setdefault(value, value)  # type: ignore[no-any-return]

    def maybe(self, value: Members | None) -> Members | None:
        return None if value is None else self._seen.setdefault(value, value)


class Partitions(Sequence[Partition]):
    """A topic's partitions in the order given, as columns; never mutated after construction.

    ``topics`` is the one topic name all partitions carry, or one name per partition when a
    hand-written snapshot gave them different names (the ``Topic`` validator refuses that)."""

    __slots__ = (
        "adding",
        "elr",
        "isr",
        "last_known_elr",
        "leader",
        "number",
        "removing",
        "replicas",
        "topics",
    )

    def __init__(
        self,
        topics: str | list[str],
        number: array[int],
        leader: array[int],
        replicas: list[Members],
        isr: list[Members],
        elr: list[Members | None],
        last_known_elr: list[Members | None],
        adding: list[Members],
        removing: list[Members],
    ) -> None:
        self.topics, self.number, self.leader = topics, number, leader
        self.replicas, self.isr, self.elr, self.last_known_elr = replicas, isr, elr, last_known_elr
        self.adding, self.removing = adding, removing

    @classmethod
    def empty(cls) -> Partitions:
        return cls("", array("q"), array("q"), [], [], [], [], [], [])

    @classmethod
    def of(cls, parts: Iterable[Partition], intern: Interner | None = None) -> Partitions:
        parts = list(parts)
        same = intern or Interner()
        names = [p.topic for p in parts]
        topics: str | list[str] = names[0] if len(set(names)) == 1 else names
        return cls(
            topics if parts else "",
            array("q", [p.partition for p in parts]),
            array("q", [NO_LEADER if p.leader is None else p.leader for p in parts]),
            [same(p.replicas) for p in parts],
            [same(p.isr) for p in parts],
            [same.maybe(p.elr) for p in parts],
            [same.maybe(p.last_known_elr) for p in parts],
            [same(p.adding_replicas) for p in parts],
            [same(p.removing_replicas) for p in parts],
        )

    # -- Sequence ------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.number)

    @overload
    def __getitem__(self, index: int) -> Partition: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Partition]: ...

    def __getitem__(self, index: int | slice) -> Partition | Sequence[Partition]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(len(self))[index])
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return Partition.model_construct(**dict(zip(_FIELDS, self._row(index), strict=True)))

    def __iter__(self) -> Iterator[Partition]:
        return (self[i] for i in range(len(self)))

    def topic_of(self, index: int) -> str:
        return self.topics if isinstance(self.topics, str) else self.topics[index]

    def _row(self, i: int) -> tuple[Any, ...]:
        leader = self.leader[i]
        return (
            self.topic_of(i),
            self.number[i],
            self.replicas[i],
            None if leader == NO_LEADER else leader,
            self.isr[i],
            self.elr[i],
            self.last_known_elr[i],
            self.adding[i],
            self.removing[i],
        )

    def _columns(self) -> tuple[Any, ...]:
        return (
            self.topics,
            self.number,
            self.leader,
            self.replicas,
            self.isr,
            self.elr,
            self.last_known_elr,
            self.adding,
            self.removing,
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Partitions):
            if len(self) != len(other):
                return False
            if isinstance(self.topics, str) != isinstance(other.topics, str):
                return list(self) == list(other)
            return self._columns() == other._columns()
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash((len(self), self.topic_of(0) if len(self) else "", tuple(self.number)))

    def __repr__(self) -> str:
        return f"Partitions({list(self)!r})"

    # -- queries -------------------------------------------------------------------------------

    def first_problem(self, name: str) -> str | None:
        """Why these cannot be topic ``name``'s partitions: another topic's name or a number
        listed twice, for the first partition in order that shows it."""
        if self.topics == name and (
            self.number == counting(len(self.number))  # 0, 1, ...: compared as bytes
            or len(set(self.number)) == len(self.number)
        ):
            return None
        seen: set[int] = set()
        for i, number in enumerate(self.number):
            topic = self.topic_of(i)
            if topic != name:
                return f"partition {number} names topic {topic!r}"
            if number in seen:
                return f"partition {number} is listed twice"
            seen.add(number)
        return None

    def dump(self) -> list[dict[str, Any]]:
        """What ``tuple[Partition, ...]`` serialises to in python mode, in order (JSON writes
        tuples as arrays too)."""
        leaders = [None if x == NO_LEADER else x for x in self.leader]
        names = [self.topics] * len(self) if isinstance(self.topics, str) else self.topics
        return [
            {
                "topic": t,
                "partition": n,
                "replicas": r,
                "leader": ld,
                "isr": i,
                "elr": e,
                "last_known_elr": k,
                "adding_replicas": a,
                "removing_replicas": m,
            }
            for t, n, r, ld, i, e, k, a, m in zip(
                names,
                self.number,
                self.replicas,
                leaders,
                self.isr,
                self.elr,
                self.last_known_elr,
                self.adding,
                self.removing,
                strict=True,
            )
        ]

    # -- pydantic ------------------------------------------------------------------------------

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        models = handler.generate_schema(tuple[Partition, ...])

        def validate(value: Any, inner: core_schema.ValidatorFunctionWrapHandler) -> Partitions:
            if isinstance(value, Partitions):
                return value
            plain = _plain(value)
            return plain if plain is not None else cls.of(inner(value))

        return core_schema.no_info_wrap_validator_function(
            validate,
            models,
            serialization=core_schema.plain_serializer_function_ser_schema(_serialise),
        )


@lru_cache(maxsize=16)
def counting(n: int) -> array[int]:
    """0, 1, ..., n - 1: the numbers of most topics' partitions (a topic has one of few counts)."""
    return naturals(range(n))


_KNOWN = frozenset(_FIELDS)
_REQUIRED = ("topic", "partition", "replicas")
_LIST_KINDS = frozenset({list, tuple})
_NULLABLE_KINDS = _LIST_KINDS | {type(None)}


def _plain(value: Any) -> Partitions | None:
    """``value`` as columns when it is plain data that ``tuple[Partition, ...]`` takes as it is:
    a list of dicts with known keys, the required ones present, exact ints in their ranges and
    lists or tuples of them (a snapshot read from JSON or YAML). Checked column by column, each
    distinct member list once: a 200k-partition snapshot would otherwise be validated as 200k
    models. None for anything else, which pydantic validates (and locates what it refuses)."""
    if type(value) is not list or not value or set(map(type, value)) != {dict}:
        return None
    if not all(map(_KNOWN.issuperset, value)):  # (a dict's keys are what issuperset reads)
        return None
    if not all(all(map(dict.__contains__, value, repeat(k))) for k in _REQUIRED):
        return None
    names = list(map(dict.__getitem__, value, repeat("topic")))
    numbers = list(map(dict.__getitem__, value, repeat("partition")))
    leaders = list(map(dict.get, value, repeat("leader")))
    if set(map(type, names)) != {str} or set(map(type, numbers)) != {int}:
        return None
    if min(numbers) < 0 or max(numbers) > INT32_MAX:
        return None
    led = [x for x in leaders if x is not None]
    if led and (set(map(type, led)) != {int} or min(led) < -INT32_MAX - 1 or max(led) > INT32_MAX):
        return None
    seen: dict[Members | None, Members | None] = {}  # one tuple per distinct list
    columns: list[list[Members | None]] = []
    for key, default in _MEMBER_COLUMNS:
        column = list(map(dict.get, value, repeat(key), repeat(default)))
        kinds = set(map(type, column))
        if not kinds <= (_NULLABLE_KINDS if default is None else _LIST_KINDS):
            return None
        lists = column if type(None) not in kinds else [m for m in column if m is not None]
        # every member's type: a set of lists would let True or 1.0 pass as an equal 1
        if not set(map(type, chain.from_iterable(lists))) <= {int}:
            return None
        if type(None) in kinds:
            tuples = [None if m is None else tuple(m) for m in column]
        else:
            tuples = list(map(tuple, column))
        columns.append(list(map(seen.setdefault, tuples, tuples)))
    ids = {i for members in seen if members for i in members}
    if ids and (min(ids) < 0 or max(ids) > INT32_MAX):
        return None
    replicas, isr, elr, last_known, adding, removing = columns
    return Partitions(
        names[0] if len(set(names)) == 1 else names,
        array("q", numbers),
        array("q", [NO_LEADER if x is None else x for x in leaders]),
        replicas,  # type: ignore[arg-type]  # never None: the column allows no None
        isr,  # type: ignore[arg-type]
        elr,
        last_known,
        adding,  # type: ignore[arg-type]
        removing,  # type: ignore[arg-type]
    )


# The member-list fields, in the order of _plain's columns, with their defaults.
_MEMBER_COLUMNS: tuple[tuple[str, Members | None], ...] = (
    ("replicas", _EMPTY),
    ("isr", _EMPTY),
    ("elr", None),
    ("last_known_elr", None),
    ("adding_replicas", _EMPTY),
    ("removing_replicas", _EMPTY),
)


def in_range(
    number: Sequence[int], leader: Collection[int], lists: Iterable[Sequence[Members | None]]
) -> bool:
    """Whether partition ``number``s, ``leader``s (``NO_LEADER``: none) and the broker ids in
    the member ``lists`` columns fit their Kafka types (columns filled without pydantic)."""
    if not len(number):
        return True
    if min(number) < 0 or max(number) > INT32_MAX:
        return False
    leaders = set(leader) - {NO_LEADER}
    if leaders and (min(leaders) < -INT32_MAX - 1 or max(leaders) > INT32_MAX):
        return False
    ids = {b for column in lists for members in set(column) if members for b in members}
    return not ids or (min(ids) >= 0 and max(ids) <= INT32_MAX)


def _serialise(value: Any) -> Any:
    if isinstance(value, Partitions):
        return value.dump()
    return [p.model_dump() for p in value]


def columns_of(partitions: Sequence[Partition]) -> Partitions:
    """``partitions`` as columns (a ``Partitions`` is returned as it is)."""
    return partitions if isinstance(partitions, Partitions) else Partitions.of(partitions)
