"""Partitions no plan can keep available through a restart of one of their brokers.

Kafka's acks=all threshold is ``min(min.insync.replicas, RF)``. When ``min.insync.replicas`` is
not below the RF (RF 1 included) the threshold is the whole replica set, so stopping any one of
its brokers takes the partition under it (and offline at RF 1), however carefully the roll is
paced. Restart rules judge the plan on the other partitions; these are reported once, by
KC104 restart-unavoidable-outage (RF 1) and KC027 min-isr-not-below-rf (the others).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cluster_engine.state import ClusterState


@dataclass(frozen=True, slots=True)
class Inherent:
    """What the inherently fragile partitions add to one outage's health."""

    under_min_isr: int
    offline: int
    topics: frozenset[str]
    avoidable_topics: frozenset[str] = frozenset()  # fragile, but all replicas down at once


@dataclass(frozen=True, slots=True)
class Fragile:
    """In-sync partitions whose effective min ISR is their whole replica set, by ISR broker."""

    pids: tuple[int, ...]
    on: dict[int, tuple[int, ...]]

    def __bool__(self) -> bool:
        return bool(self.pids)


def fragile_pids(state: ClusterState) -> Fragile:
    """The state's fragile partitions (none in most clusters: one pass over the table)."""
    table = state.table
    rf, isr_len = table.rf, table.isr_len
    # min.insync.replicas >= RF exactly where the effective min ISR is the RF: the health's
    # pids (found once per table and configs), then the rest on them
    pids = tuple(p for p in state.partition_health.at_rf if rf[p] >= 1 and isr_len[p] == rf[p])
    on: dict[int, list[int]] = {}
    for p in pids:
        for b in table.isr[p]:
            on.setdefault(b, []).append(p)
    return Fragile(pids, {b: tuple(ps) for b, ps in on.items()})


def inherent(state: ClusterState, out: Iterable[int], fragile: Fragile) -> Inherent:
    """The part of an outage with ``out`` brokers down that no pacing avoids.

    A fragile partition with RF >= 2 whose every replica is down at once is not counted: one
    broker at a time would have kept it online, so that part is the plan's doing.
    """
    down = frozenset(out)
    under = offline = 0
    topics: set[str] = set()
    avoidable: set[str] = set()
    table = state.table
    touched = {p for b in down for p in fragile.on.get(b, ())}
    for p in touched:
        hit = sum(1 for b in table.isr[p] if b in down)
        rf = table.rf[p]
        if rf >= 2 and hit == rf:
            avoidable.add(table.topic[p])
            continue
        under += 1
        offline += rf == 1
        topics.add(table.topic[p])
    return Inherent(under, offline, frozenset(topics), frozenset(avoidable))
