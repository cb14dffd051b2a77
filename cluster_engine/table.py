"""Every partition of a simulated cluster as parallel lists, indexed by a partition id (``pid``).

One table is shared by every state that does not change replica lists; a step that does makes
a new table sharing the unchanged columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any, cast

from cluster_engine.partitions import NO_LEADER
from cluster_engine.snapshot import Snapshot

TopicPartition = tuple[str, int]


class PartitionTable:
    """Every partition as parallel lists; never mutated after construction."""

    def __init__(
        self,
        topic: list[str],
        number: list[int],
        replicas: list[tuple[int, ...]],
        isr: list[tuple[int, ...]],
        elr: list[tuple[int, ...]],
        leader: list[int],
        size: list[int],
    ) -> None:
        self.topic, self.number, self.replicas, self.isr = topic, number, replicas, isr
        self.elr, self.leader, self.size = elr, leader, size

    @classmethod
    def of(cls, snapshot: Snapshot) -> PartitionTable:
        # Column by column from each topic's own columns: no per-partition object is built.
        topic: list[str] = []
        number: list[int] = []
        replicas: list[tuple[int, ...]] = []
        isr: list[tuple[int, ...]] = []
        elr: list[tuple[int, ...]] = []
        leader: list[int] = []
        for t in snapshot.topics:
            parts = t.partitions
            topic += [t.name] * len(parts)
            number += parts.number
            replicas += parts.replicas
            isr += parts.isr
            # as the columns are, when they hold no None / NO_LEADER (a C-level scan finds out)
            if None in parts.elr:
                elr += [e or () for e in parts.elr]
            else:
                elr += cast(list[tuple[int, ...]], parts.elr)
            if NO_LEADER in parts.leader:
                leader += [-1 if x == NO_LEADER else x for x in parts.leader]
            else:
                leader += parts.leader
        sizes: dict[tuple[str, int], int] = {}
        for d in snapshot.log_dirs:
            for r in d.replicas:
                key = (r.topic, r.partition)
                if not r.is_future and r.size > sizes.get(key, -1):
                    sizes[key] = r.size
        size = (
            [sizes.get(k, -1) for k in zip(topic, number, strict=True)]
            if sizes
            else [-1] * len(topic)
        )
        return cls(topic, number, replicas, isr, elr, leader, size)

    def __len__(self) -> int:
        return len(self.topic)

    @cached_property
    def pids_of_topic(self) -> Mapping[str, list[int]]:
        pids: dict[str, list[int]] = {}
        for pid, name in enumerate(self.topic):
            pids.setdefault(name, []).append(pid)
        return pids

    @cached_property
    def topic_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.topic))

    @cached_property
    def isr_len(self) -> list[int]:
        return list(map(len, self.isr))

    @cached_property
    def rf(self) -> list[int]:
        return list(map(len, self.replicas))

    @cached_property
    def topic_rf(self) -> Mapping[str, int]:
        """The smallest replica count of each topic's partitions."""
        out: dict[str, int] = {}
        for name, n in zip(self.topic, self.rf, strict=True):
            if n < out.get(name, 1 << 30):
                out[name] = n
        return out

    @cached_property
    def pid_of(self) -> Mapping[TopicPartition, int]:
        return {(t, n): pid for pid, (t, n) in enumerate(zip(self.topic, self.number, strict=True))}

    @cached_property
    def isr_on(self) -> Mapping[int, list[int]]:
        """broker -> pids whose ISR holds it."""
        return by_broker(self.isr)

    @cached_property
    def replicas_on(self) -> Mapping[int, list[int]]:
        """broker -> pids with a replica on it."""
        return by_broker(self.replicas)

    def name(self, pid: int) -> str:
        return f"{self.topic[pid]}-{self.number[pid]}"

    def changed(
        self,
        replicas: Mapping[int, tuple[int, ...]] | None = None,
        isr: Mapping[int, tuple[int, ...]] | None = None,
        leader: Mapping[int, int] | None = None,
        elr: Mapping[int, tuple[int, ...]] | None = None,
    ) -> PartitionTable:
        """A new table with some pids' lists replaced (others shared)."""

        def patch(
            column: list[tuple[int, ...]], new: Mapping[int, tuple[int, ...]] | None
        ) -> list[tuple[int, ...]]:
            if not new:
                return column
            out = list(column)
            for pid, value in new.items():
                out[pid] = value
            return out

        leaders = self.leader
        if leader:
            leaders = list(self.leader)
            for pid, value in leader.items():
                leaders[pid] = value
        return PartitionTable(
            self.topic,
            self.number,
            patch(self.replicas, replicas),
            patch(self.isr, isr),
            patch(self.elr, elr),
            leaders,
            self.size,
        )

    def extended(
        self,
        topic: str,
        numbers: Iterable[int],
        placements: Iterable[tuple[int, ...]],
        isrs: Iterable[tuple[int, ...]],
    ) -> PartitionTable:
        """A new table with partitions appended (new topics, added partitions)."""
        t, n, r, i = list(self.topic), list(self.number), list(self.replicas), list(self.isr)
        e, ld, s = list(self.elr), list(self.leader), list(self.size)
        for num, replicas, members in zip(numbers, placements, isrs, strict=True):
            t.append(topic)
            n.append(num)
            r.append(replicas)
            i.append(members)
            e.append(())
            ld.append(members[0] if members else -1)
            s.append(0)
        return PartitionTable(t, n, r, i, e, ld, s)


def by_broker(column: list[tuple[int, ...]], pids: list[int] | None = None) -> dict[int, list[int]]:
    """broker -> the pids (default: positions in ``column``) whose tuple holds it."""
    out: dict[int, list[int]] = {}
    appenders: dict[int, Any] = {}
    for pid, members in zip(pids, column, strict=True) if pids is not None else enumerate(column):
        for b in members:
            append = appenders.get(b)
            if append is None:
                out[b] = []
                append = appenders[b] = out[b].append
            append(pid)
    return out
