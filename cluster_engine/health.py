"""Partition health arithmetic: how many partitions are offline, under min ISR, under-replicated
or at min ISR when some brokers are out of every ISR.

Counts are derived from per-broker indexes over the table, built once and shared by every state
with the same table and configs, so judging a 100-broker rolling restart touches each ISR
membership once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import compress, repeat
from operator import eq, lt, not_, sub

from cluster_engine.table import PartitionTable, by_broker


@dataclass(frozen=True, slots=True)
class Health:
    offline: int
    under_min_isr: int
    under_replicated: int
    at_min_isr: int
    under_min_isr_topics: tuple[str, ...] = ()
    offline_topics: tuple[str, ...] = ()


class PartitionHealth:
    """The health of a table's partitions, given each topic's min.insync.replicas."""

    def __init__(self, table: PartitionTable, topic_min_isr: Mapping[str, int]) -> None:
        self.table, self.topic_min_isr = table, topic_min_isr

    @cached_property
    def eff_min(self) -> list[int]:
        mins = list(map(self.topic_min_isr.__getitem__, self.table.topic))
        # min() per pid parses its arguments each time: taken only when some RF caps a min ISR
        if any(map(lt, self.table.rf, mins)):
            return list(map(min, mins, self.table.rf))
        return mins

    @cached_property
    def at_rf(self) -> list[int]:
        """The pids whose effective min ISR is their RF (min.insync.replicas not below it; few):
        one C-level pass, shared by the queries about them."""
        return list(compress(range(len(self.table.rf)), map(eq, self.eff_min, self.table.rf)))

    @cached_property
    def slack(self) -> list[int]:
        """len(ISR) - effective min ISR, per pid (negative: under min ISR already)."""
        return list(map(sub, self.table.isr_len, self.eff_min))

    @cached_property
    def single_index(
        self,
    ) -> tuple[dict[int, list[int]], dict[int, list[int]], Counter[int], Counter[int]]:
        """broker -> pids at min ISR holding it; broker -> pids whose ISR is only it; per
        broker, how many fully replicated ISRs and ISRs one above min hold it."""
        table, slack = self.table, self.slack
        isr = table.isr
        # C-level passes over the pids (a Python statement each would cost more)
        pids = range(len(slack))
        at_min = list(compress(pids, map(not_, slack)))
        lone = list(compress(pids, map(eq, table.isr_len, repeat(1))))
        full = list(map(eq, table.isr_len, table.rf))
        above = list(map(eq, slack, repeat(1)))
        full_count, above_count = _per_broker_each(isr, (full, above))
        return (
            by_broker([isr[p] for p in at_min], at_min),
            by_broker([isr[p] for p in lone], lone),
            full_count,
            above_count,
        )

    @cached_property
    def isr_sets(self) -> dict[int, frozenset[int]]:
        return {b: frozenset(pids) for b, pids in self.table.isr_on.items()}

    def min_isr_at_rf(self) -> dict[str, tuple[int, int]]:
        """Topics with a partition whose min.insync.replicas is not below its RF (RF >= 2):
        topic -> (min.insync.replicas, smallest such RF)."""
        table, mins = self.table, self.topic_min_isr
        out: dict[str, tuple[int, int]] = {}
        for pid in [p for p in self.at_rf if table.rf[p] >= 2]:
            name = table.topic[pid]
            rf = min(table.rf[pid], out.get(name, (0, 1 << 30))[1])
            out[name] = (mins[name], rf)
        return out

    @cached_property
    def base(self) -> Health:
        """Health with every ISR as the table has it."""
        table, slack = self.table, self.slack
        isr_len = table.isr_len
        pids = range(len(slack))
        under_pids = list(compress(pids, map(lt, slack, repeat(0))))
        offline_pids = list(compress(pids, map(not_, isr_len)))
        return Health(
            len(offline_pids),
            len(under_pids),
            sum(map(lt, isr_len, table.rf)),
            slack.count(0),
            tuple(sorted({table.topic[p] for p in under_pids})),
            tuple(sorted({table.topic[p] for p in offline_pids})),
        )

    def health(self, out: frozenset[int]) -> Health:
        """Health with the brokers ``out`` out of every ISR."""
        if not out:
            return self.base
        if len(out) == 1:
            (only,) = out
            return self._single(only)
        if len(out) == 2:
            return self._pair(*sorted(out))
        return self._many(out)

    def _single(self, only: int) -> Health:
        # One broker out: only partitions at min ISR go under it, only single-member ISRs go
        # offline; both are few, and the counts come from per-broker counters.
        base, table = self.base, self.table
        at_min_on, lone_on, full_count, above_count = self.single_index
        under_pids = at_min_on.get(only, [])
        offline_pids = lone_on.get(only, [])
        under_topics = {table.topic[p] for p in under_pids}
        offline_topics = {table.topic[p] for p in offline_pids}
        return Health(
            base.offline + len(offline_pids),
            base.under_min_isr + len(under_pids),
            base.under_replicated + full_count[only],
            base.at_min_isr - len(under_pids) + above_count[only],
            tuple(sorted(under_topics | set(base.under_min_isr_topics))),
            tuple(sorted(offline_topics | set(base.offline_topics))),
        )

    def _pair(self, a: int, b: int) -> Health:
        """Two brokers out (a parallel restart, or a roll that does not wait): only partitions
        holding both differ from two one-broker outages, and set intersections find them."""
        base, table, slack = self.base, self.table, self.slack
        isr_len, rf = table.isr_len, table.rf
        at_min_on, lone_on, full_count, above_count = self.single_index
        sets = self.isr_sets
        both = sets.get(a, frozenset()) & sets.get(b, frozenset())
        under = set(at_min_on.get(a, ())) | set(at_min_on.get(b, ()))
        under.update(p for p in both if slack[p] == 1)
        offline = set(lone_on.get(a, ())) | set(lone_on.get(b, ()))
        offline.update(p for p in both if isr_len[p] == 2)
        both_full = sum(1 for p in both if isr_len[p] == rf[p])
        both_above = sum(1 for p in both if slack[p] == 1)
        both_two = sum(1 for p in both if slack[p] == 2)
        lost_min = len(at_min_on.get(a, ())) + len(at_min_on.get(b, ()))
        lost_min -= sum(1 for p in both if slack[p] == 0)
        return Health(
            base.offline + len(offline),
            base.under_min_isr + len(under),
            base.under_replicated + full_count[a] + full_count[b] - both_full,
            base.at_min_isr
            - lost_min
            + above_count[a]
            + above_count[b]
            - 2 * both_above
            + both_two,
            tuple(sorted({table.topic[p] for p in under} | set(base.under_min_isr_topics))),
            tuple(sorted({table.topic[p] for p in offline} | set(base.offline_topics))),
        )

    def _many(self, out: frozenset[int]) -> Health:
        base, table, slack, eff = self.base, self.table, self.slack, self.eff_min
        isr_on, isr_len, rf = table.isr_on, table.isr_len, table.rf
        hits: Counter[int] = Counter()
        for b in out:
            hits.update(isr_on.get(b, ()))
        under, offline = base.under_min_isr, base.offline
        urp, at_min = base.under_replicated, base.at_min_isr
        under_set: set[str] = set(base.under_min_isr_topics)
        offline_set: set[str] = set(base.offline_topics)
        for pid, n in hits.items():
            s = slack[pid]
            live = isr_len[pid] - n
            if isr_len[pid] == rf[pid]:
                urp += 1
            if s == 0:
                at_min -= 1
            if live == 0:
                offline += 1
                offline_set.add(table.topic[pid])
            if s >= 0 and live < eff[pid]:
                under += 1
                under_set.add(table.topic[pid])
            elif s - n == 0:
                at_min += 1
        return Health(
            offline, under, urp, at_min, tuple(sorted(under_set)), tuple(sorted(offline_set))
        )


def _per_broker_each(
    isrs: list[tuple[int, ...]], selections: Iterable[list[bool]]
) -> list[Counter[int]]:
    """``_per_broker`` of the ``isrs`` each selection picks. Hashing an ISR is what counting
    costs: a selection of most ISRs (all full, one above min ISR, in a healthy cluster) is
    counted as all ISRs, counted once, less the ISRs it leaves out."""
    every: Counter[tuple[int, ...]] | None = None
    out: list[Counter[int]] = []
    for chosen in selections:
        if 2 * chosen.count(True) <= len(chosen):
            out.append(_per_broker(Counter(compress(isrs, chosen))))
            continue
        if every is None:
            every = Counter(isrs)
        out.append(_per_broker(every - Counter(compress(isrs, map(not_, chosen)))))
    return out


def _per_broker(isrs: Counter[tuple[int, ...]]) -> Counter[int]:
    """How many of the counted ``isrs`` hold each broker, counted per distinct ISR (a cluster
    has few: each is hashed once rather than each of its members counted once per partition)."""
    out: Counter[int] = Counter()
    for members, n in isrs.items():
        for broker in members:
            out[broker] += n
    return out
