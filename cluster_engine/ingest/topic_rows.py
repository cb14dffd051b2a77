"""``kafka-topics.sh --describe`` partition lines stored as columns, and the reader that fills
them from the lines in the tool's own form.

A describe can be 200k lines long. A run of lines in the tool's form (each led by a TAB, the same
fields in the same order) is read column by column: the run is split on TABs once, each column
is a slice of that list, and each distinct field text (``Leader: 3``, ``Replicas: 1,2,3``) is
checked and converted once, its value reused for every line that carries it. Whatever this
accepts, the general reader in ``topics`` reads the same; a run in any other form is left to it.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from cluster_engine.arrays import naturals
from cluster_engine.bounds import INT32_MAX
from cluster_engine.partitions import NO_LEADER, Interner, Members

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class PartitionLine:
    line: int
    topic: str
    partition: int
    leader: int | None
    replicas: tuple[int, ...]
    isr: tuple[int, ...]
    adding: tuple[int, ...]
    removing: tuple[int, ...]
    elr: tuple[int, ...] | None  # None: not printed, or N/A
    last_known_elr: tuple[int, ...] | None
    marked_for_deletion: bool


@dataclass(slots=True)
class PartitionRows:
    """Partition lines as columns, in the order read; broker lists interned."""

    line: array[int] = field(default_factory=lambda: array("q"))
    topic: list[str] = field(default_factory=list)
    number: array[int] = field(default_factory=lambda: array("q"))
    leader: array[int] = field(default_factory=lambda: array("q"))  # NO_LEADER: none
    replicas: list[Members] = field(default_factory=list)
    isr: list[Members] = field(default_factory=list)
    adding: list[Members] = field(default_factory=list)
    removing: list[Members] = field(default_factory=list)
    elr: list[Members | None] = field(default_factory=list)
    last_known_elr: list[Members | None] = field(default_factory=list)
    deleting: set[int] = field(default_factory=set)  # rows marked for deletion

    def __len__(self) -> int:
        return len(self.number)

    def append(self, p: PartitionLine, intern: Interner, topic: str) -> None:
        if p.marked_for_deletion:
            self.deleting.add(len(self.number))
        self.line.append(p.line)
        self.topic.append(topic)
        self.number.append(p.partition)
        self.leader.append(NO_LEADER if p.leader is None else p.leader)
        self.replicas.append(intern(p.replicas))
        self.isr.append(intern(p.isr))
        self.adding.append(intern(p.adding))
        self.removing.append(intern(p.removing))
        self.elr.append(intern.maybe(p.elr))
        self.last_known_elr.append(intern.maybe(p.last_known_elr))

    def row(self, i: int) -> PartitionLine:
        leader = self.leader[i]
        return PartitionLine(
            line=self.line[i],
            topic=self.topic[i],
            partition=self.number[i],
            leader=None if leader == NO_LEADER else leader,
            replicas=self.replicas[i],
            isr=self.isr[i],
            adding=self.adding[i],
            removing=self.removing[i],
            elr=self.elr[i],
            last_known_elr=self.last_known_elr[i],
            marked_for_deletion=i in self.deleting,
        )


# What the tool's own form allows in each field (numbers of at most 10 digits fit the int64
# arrays; one above int32 is left to the general reader, which says where it is out of range).
NAME = re.compile(r"[A-Za-z0-9._-]+")
NUMBER = re.compile(r"[0-9]{1,10}")
LEADER = re.compile(r"[0-9]{1,10}|none|-1")
IDS = re.compile(r"(?:[0-9]{1,10}(?:,[0-9]{1,10})*)?")
ELR = re.compile(rf"{IDS.pattern}|N/A")


# A line's fields after its partition, read: leader, replicas, ISR, ELR, last known ELR.
Tail = tuple[int, Members, Members, Members | None, Members | None]


class Unread(Exception):
    """A value the fast readers leave to the general reader (out of range, another form)."""


class _Converted(dict[str, V]):
    """Text -> value, each distinct text converted once: a lookup of a known text stays in C
    (``map(d.__getitem__, texts)``), ``convert`` runs on a miss."""

    def __init__(self, convert: Callable[[str], V], known: dict[str, V] | None = None) -> None:
        super().__init__(known or {})
        self.convert = convert

    def __missing__(self, text: str) -> V:
        value = self[text] = self.convert(text)
        return value


def _value(text: str, key: str, form: re.Pattern[str]) -> str:
    """The value of field ``text`` (``Key: value``, the space optional), if it has ``form``."""
    if not text.startswith(key):
        raise Unread(text)
    value = text[len(key) :]
    value = value[1:] if value.startswith(" ") else value
    if not form.fullmatch(value):
        raise Unread(text)
    return value


def _field(key: str, form: re.Pattern[str], then: Callable[[str], V]) -> Callable[[str], V]:
    return _Converted(lambda text: then(_value(text, key, form))).__getitem__


def _number(text: str) -> int:
    value = int(text)
    if value > INT32_MAX:
        raise Unread(text)
    return value


def _leader(text: str) -> int:
    return NO_LEADER if text in ("none", "-1") else _number(text)


class RowReader:
    """Fills ``PartitionRows``: a line at a time (``fast``, ``general``) or a run of lines in
    the tool's own form (``run``); each distinct field text is checked and converted once."""

    def __init__(self) -> None:
        self.rows = PartitionRows()
        self.intern = Interner()
        self.names: dict[str, str] = {}
        lists = _Converted[Members](self._members, {"": ()})
        self.ids_of = lists.__getitem__
        self.elr_of = _Converted[Members | None](lists.__getitem__, {"N/A": None}).__getitem__
        self.leader_of = _Converted(_leader).__getitem__
        # one reader per field of the tool's form, keyed by the whole field (``Leader: 3``)
        self.topic_field = _field("Topic:", NAME, lambda name: self.names.setdefault(name, name))
        self.partition_field = _field("Partition:", NUMBER, _number)
        self.leader_field = _field("Leader:", LEADER, self.leader_of)
        self.replicas_field = _field("Replicas:", IDS, self.ids_of)
        self.isr_field = _field("Isr:", IDS, self.ids_of)
        self.elr_field = _field("Elr:", ELR, self.elr_of)
        self.last_known_elr_field = _field("LastKnownElr:", ELR, self.elr_of)
        # a line's fields after its partition (``Leader: 1\tReplicas: 1,2\tIsr: 1``, with or
        # without the ELR pair), by the line's number of TABs: one per distinct text
        self.tail_of = {
            5: _Converted(self._tail).__getitem__,
            7: _Converted(self._tail_with_elr).__getitem__,
        }

    def _tail(self, text: str) -> Tail:
        fields = text.split("\t")
        if len(fields) != 3:
            raise Unread(text)
        leader, replicas, isr = fields
        members = self.replicas_field(replicas), self.isr_field(isr)
        return self.leader_field(leader), *members, None, None

    def _tail_with_elr(self, text: str) -> Tail:
        fields = text.split("\t")
        if len(fields) != 5:
            raise Unread(text)
        leader, replicas, isr, elr, last_known = fields
        members = self.replicas_field(replicas), self.isr_field(isr)
        eligible = self.elr_field(elr), self.last_known_elr_field(last_known)
        return self.leader_field(leader), *members, *eligible

    def _members(self, text: str) -> Members:
        values = tuple(map(int, text.split(",")))
        if max(values) > INT32_MAX:
            raise Unread(text)
        return self.intern(values)

    def fast(self, number: int, m: re.Match[str]) -> bool:
        """Read a line ``topics._FAST`` matched; False (nothing read) when a number is out of
        range."""
        topic, partition, leader, replicas, isr, has_elr, elr, last_known = m.groups()
        try:
            index = _number(partition)
            led = self.leader_of(leader)
            members = self.ids_of(replicas or ""), self.ids_of(isr or "")
            eligible = (
                (None, None)
                if has_elr is None
                else (self.elr_of(elr or ""), self.elr_of(last_known or ""))
            )
        except Unread:
            return False
        rows = self.rows
        rows.line.append(number)
        rows.topic.append(self.names.setdefault(topic, topic))
        rows.number.append(index)
        rows.leader.append(led)
        rows.replicas.append(members[0])
        rows.isr.append(members[1])
        rows.adding.append(())
        rows.removing.append(())
        rows.elr.append(eligible[0])
        rows.last_known_elr.append(eligible[1])
        return True

    def run(self, parts: list[list[str]], first: str, numbers: Sequence[int], start: int) -> bool:
        """Read the lines ``parts`` (each led by a TAB, split at its first three TABs; ``first``:
        the first line; ``start``: its index in ``numbers``) when all are in the tool's own form
        with the same fields (with or without the ELR pair); False (nothing read) otherwise."""
        # Read column by column: a Python statement per line would cost more than the whole
        # C-level pass (~1 us a line on a 200k-line describe). The rest of a line after its
        # partition (leader, replicas, ISR, ELR) is one of a few distinct texts, each split and
        # read once; it must hold the fields of the first line's number of TABs.
        tail_of = self.tail_of.get(first.count("\t"))
        if tail_of is None or set(map(len, parts)) != {4}:
            return False  # each line's fields must fall in their own columns
        lead, topics, partitions, rests = zip(*parts, strict=True)
        if set(lead) != {""}:
            return False
        try:
            names = list(map(self.topic_field, topics))
            index = naturals(map(self.partition_field, partitions))
            tails = list(map(tail_of, rests))
        except Unread:
            return False
        led, replicas, isr, elr, last_known = zip(*tails, strict=True)
        n = len(parts)
        rows = self.rows
        rows.line.extend(numbers[start : start + n])
        rows.topic += names
        rows.number += index
        rows.leader += array("q", led)
        rows.replicas += replicas
        rows.isr += isr
        rows.adding += [()] * n
        rows.removing += [()] * n
        rows.elr += elr
        rows.last_known_elr += last_known
        return True

    def general(self, p: PartitionLine) -> None:
        self.rows.append(p, self.intern, self.names.setdefault(p.topic, p.topic))
