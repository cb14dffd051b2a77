"""Every captured partition line merged into one row per partition, kept as columns.

A describe can be 200k lines long: rows stay in ``PartitionRows`` columns (interned broker
lists), and the first ``kafka-topics`` output is adopted as it is when it lists each partition
once. A partition described twice must be described the same (an ``Elr`` of ``N/A`` is unknown,
not empty, and yields to a known one); otherwise the error names both places.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator
from copy import copy
from itertools import compress, pairwise
from operator import ne
from typing import Any

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest.facts import show
from cluster_engine.ingest.topic_rows import PartitionRows
from cluster_engine.partitions import NO_LEADER, Members, Partitions, counting, in_range

PARTITION_FIELDS = (
    "Replicas",
    "Leader",
    "Isr",
    "Adding Replicas",
    "Removing Replicas",
    "MarkedForDeletion",
    "Elr",
    "LastKnownElr",
)
_UNKNOWN_WHEN_NONE = frozenset({"Elr", "LastKnownElr"})


def _values(rows: PartitionRows, i: int) -> tuple[Any, ...]:
    leader = rows.leader[i]
    return (
        rows.replicas[i],
        None if leader == NO_LEADER else leader,
        rows.isr[i],
        rows.adding[i],
        rows.removing[i],
        i in rows.deleting,
        rows.elr[i],
        rows.last_known_elr[i],
    )


class PartitionStore:
    def __init__(self) -> None:
        self.rows = PartitionRows()
        self.owned = True  # False while ``rows`` is a reader's own, adopted as it was
        self.paths: list[str] = []
        self.path_of = array("q")  # row -> index in ``paths``
        # topic -> partition -> row, for the topics not in ``runs``
        self.where: dict[str, dict[int, int]] = {}
        # topic -> (a, b): rows a..b-1 are its partitions 0, 1, ... in order (how a describe
        # lists a topic), kept without a dict of 200k rows
        self.runs: dict[str, tuple[int, int]] = {}
        self._distinct_lists: dict[str, list[Members | None]] = {}  # column -> (until add)
        self._leader_set: set[int] | None = None  # (until add)

    def add(self, path: str, rows: PartitionRows, moving: Callable[[int], None]) -> None:
        """Merge one output's rows; ``moving(j)`` runs after row ``j`` is merged when it has
        replicas being added or removed."""
        self._distinct_lists.clear()
        self._leader_set = None
        self.paths.append(path)
        if not len(self.rows) and self._adopt(rows):
            changing: set[int] = set()
            for column in (rows.adding, rows.removing):
                # most describes move nothing: a pass of truth tests, not of 200k row numbers
                if any(column):
                    changing.update(compress(range(len(rows)), column))
            for j in sorted(changing):
                moving(j)
            return
        if not self.owned:
            self.rows = _copied(self.rows)
            self.owned = True
        for j in range(len(rows)):
            self._merge(path, rows, j)
            if rows.adding[j] or rows.removing[j]:
                moving(j)

    def _adopt(self, rows: PartitionRows) -> bool:
        """Take ``rows`` as they are when no partition is listed twice."""
        where: dict[str, dict[int, int]] = {}
        runs: dict[str, tuple[int, int]] = {}
        # a describe lists each topic's partitions together, numbered 0, 1, ... (compared as
        # bytes); any other run of a topic gets a dict
        topic, number = rows.topic, rows.number
        previous: list[str | None] = [None, *topic[:-1]]
        starts = compress(range(len(topic)), map(ne, topic, previous))
        for a, b in pairwise([*starts, len(topic)]):
            name = topic[a]
            if name not in runs and name not in where and number[a:b] == counting(b - a):
                runs[name] = (a, b)
                continue
            run = dict(zip(number[a:b], range(a, b), strict=True))
            if len(run) != b - a:
                return False
            seen = _seen(where, runs, rows, name)
            if seen.keys() & run.keys():
                return False
            seen.update(run)
        self.rows, self.owned, self.where, self.runs = rows, False, where, runs
        self.path_of = array("q", [len(self.paths) - 1]) * len(rows)
        return True

    def _merge(self, path: str, rows: PartitionRows, j: int) -> None:
        topic, number = rows.topic[j], rows.number[j]
        seen = _seen(self.where, self.runs, self.rows, topic)
        i = seen.get(number)
        if i is None:
            seen[number] = len(self.rows)
            self.path_of.append(len(self.paths) - 1)
            _append(self.rows, rows, j)
            return
        old, new = _values(self.rows, i), _values(rows, j)
        if old == new:
            return
        for k, (was, now) in enumerate(zip(old, new, strict=True)):
            if was == now:
                continue
            if PARTITION_FIELDS[k] in _UNKNOWN_WHEN_NONE and None in (was, now):
                continue  # N/A: unknown, not empty; merged below
            raise ClusterInputError(
                path,
                rows.line[j],
                f"{topic}-{number} {PARTITION_FIELDS[k]} is {show(now)} here, but "
                f"{self.paths[self.path_of[i]]}:{self.rows.line[i]} says {show(was)}",
            )
        if self.rows.elr[i] is None:
            self.rows.elr[i] = rows.elr[j]
        if self.rows.last_known_elr[i] is None:
            self.rows.last_known_elr[i] = rows.last_known_elr[j]

    def names(self) -> set[str]:
        """The topics with a partition line."""
        return self.where.keys() | self.runs.keys()

    def counts(self) -> dict[str, int]:
        counts = {topic: b - a for topic, (a, b) in self.runs.items()}
        counts.update((topic, len(seen)) for topic, seen in self.where.items())
        return counts

    def topic(self, name: str) -> Partitions:
        """The partitions of topic ``name``, by number."""
        r = self.rows
        run = self.runs.get(name)
        if run is None:
            seen = self.where.get(name, {})
            order = list(map(seen.__getitem__, sorted(seen)))
            if order and order == list(range(order[0], order[0] + len(order))):
                run = (order[0], order[0] + len(order))
        if run is not None:
            part = slice(*run)
            return Partitions(
                name,
                r.number[part],
                r.leader[part],
                r.replicas[part],
                r.isr[part],
                r.elr[part],
                r.last_known_elr[part],
                r.adding[part],
                r.removing[part],
            )
        return Partitions(
            name,
            array("q", [r.number[i] for i in order]),
            array("q", [r.leader[i] for i in order]),
            [r.replicas[i] for i in order],
            [r.isr[i] for i in order],
            [r.elr[i] for i in order],
            [r.last_known_elr[i] for i in order],
            [r.adding[i] for i in order],
            [r.removing[i] for i in order],
        )

    def brokers(self) -> Iterator[int]:
        """Every broker id a partition line names."""
        for column in ("replicas", "isr", "elr", "last_known_elr"):
            for members in self._distinct(column):
                yield from members or ()
        yield from self._leaders() - {NO_LEADER}

    def in_range(self) -> bool:
        """Whether every number read fits its Kafka type."""
        r = self.rows
        lists = [self._distinct(c) for c in ("replicas", "isr", "adding", "removing", "elr")]
        return in_range(r.number, self._leaders(), [*lists, self._distinct("last_known_elr")])

    def _leaders(self) -> set[int]:
        """The distinct values of the leader column, found once for both queries above."""
        if self._leader_set is None:
            self._leader_set = set(self.rows.leader)
        return self._leader_set

    def _distinct(self, column: str) -> list[Members | None]:
        """The distinct member lists of a column of ``rows``, found once for both queries above
        (a set of 200k tuples hashes each one)."""
        found = self._distinct_lists.get(column)
        if found is None:
            values: list[Members | None] = getattr(self.rows, column)
            # A column of one list (adding and removing replicas, often both ELRs: all empty,
            # or all None) is told by compares that stop at identity (its lists are interned)
            # rather than by hashing each; tried only when its first and last lists are one.
            if values and values[0] is values[-1] and values.count(values[0]) == len(values):
                found = [values[0]]
            else:
                found = list(set(values))
            self._distinct_lists[column] = found
        return found


def _seen(
    where: dict[str, dict[int, int]],
    runs: dict[str, tuple[int, int]],
    rows: PartitionRows,
    topic: str,
) -> dict[int, int]:
    """Topic ``topic``'s dict in ``where`` (made from its run in ``runs``, which it leaves,
    if it has one)."""
    seen = where.get(topic)
    if seen is None:
        run = runs.pop(topic, None)
        seen = where[topic] = {} if run is None else _rows_of(rows, run)
    return seen


def _rows_of(rows: PartitionRows, run: tuple[int, int]) -> dict[int, int]:
    a, b = run
    return dict(zip(rows.number[a:b], range(a, b), strict=True))


def _copied(rows: PartitionRows) -> PartitionRows:
    out = copy(rows)
    for name in PartitionRows.__slots__:
        setattr(out, name, copy(getattr(rows, name)))
    return out


def _append(into: PartitionRows, rows: PartitionRows, j: int) -> None:
    if j in rows.deleting:
        into.deleting.add(len(into))
    into.line.append(rows.line[j])
    into.topic.append(rows.topic[j])
    into.number.append(rows.number[j])
    into.leader.append(rows.leader[j])
    into.replicas.append(rows.replicas[j])
    into.isr.append(rows.isr[j])
    into.adding.append(rows.adding[j])
    into.removing.append(rows.removing[j])
    into.elr.append(rows.elr[j])
    into.last_known_elr.append(rows.last_known_elr[j])
