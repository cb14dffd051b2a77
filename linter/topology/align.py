"""Aligning two sequences of operator roles: which item of ``before`` is which of ``after``.

Generated names carry an index that shifts when an operator is inserted or removed earlier, so
the diff compares the sequences of roles in index order instead of the names. Roles repeat
(a big application has hundreds of ``KSTREAM-MAPVALUES-``), which makes a plain longest-common-
subsequence search quadratic or worse. Patience diff's idea keeps it near-linear:

1. equal heads and tails are matched as they are (the usual case: a few operators inserted);
2. a stretch small enough is aligned exactly (``difflib``), as it always was;
3. a larger stretch is cut at anchors: items whose key occurs once on each side (a source or
   sink of a user topic usually does), taken as the longest run in the same order on both sides
   (longest increasing subsequence, ``n log n``); the gaps between anchors are aligned the same
   way, each on its own;
4. a large stretch without such anchors (or too deep a cut) falls back to pairing the k-th
   occurrence of each key on both sides, again keeping the longest run in order; what is left
   between those pairs is aligned only where it is small. Nodes left unaligned are still matched
   by the graph's structure afterwards.

Every stretch is looked at a bounded number of times, so the whole is ``O(n log n)``.
"""

from __future__ import annotations

import difflib
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

EXACT_LIMIT = 10_000  # len(before) * len(after) of a stretch that difflib aligns at once
MAX_DEPTH = 32  # cuts at unique anchors before the k-th-occurrence fallback takes over


@dataclass(frozen=True, slots=True)
class Stretch:
    """``before[b_lo:b_hi]`` against ``after[a_lo:a_hi]``; ``depth`` counts the cuts above it,
    ``None`` once the k-th-occurrence fallback made it (then it is only aligned if small)."""

    b_lo: int
    b_hi: int
    a_lo: int
    a_hi: int
    depth: int | None = 0

    @property
    def size(self) -> int:
        return (self.b_hi - self.b_lo) + (self.a_hi - self.a_lo)


def align(before: Sequence[K], after: Sequence[K]) -> list[tuple[int, int]]:
    """Pairs of positions ``(i, j)`` with ``before[i] == after[j]``, increasing on both sides,
    sorted. Deterministic: the same sequences always give the same pairs."""
    if before == after:  # the usual upgrade: what the equal head below would pair, compared in C
        return [(i, i) for i in range(len(before))]
    pairs: list[tuple[int, int]] = []
    todo = [Stretch(0, len(before), 0, len(after))]
    while todo:
        todo.extend(_stretch(before, after, todo.pop(), pairs))
    pairs.sort()
    return pairs


def _stretch(
    before: Sequence[K], after: Sequence[K], s: Stretch, pairs: list[tuple[int, int]]
) -> list[Stretch]:
    """Align one stretch: append what is settled to ``pairs``, return the stretches left."""
    b_lo, b_hi, a_lo, a_hi = s.b_lo, s.b_hi, s.a_lo, s.a_hi
    while b_lo < b_hi and a_lo < a_hi and before[b_lo] == after[a_lo]:
        pairs.append((b_lo, a_lo))
        b_lo, a_lo = b_lo + 1, a_lo + 1
    while b_hi > b_lo and a_hi > a_lo and before[b_hi - 1] == after[a_hi - 1]:
        b_hi, a_hi = b_hi - 1, a_hi - 1
        pairs.append((b_hi, a_hi))
    if b_lo == b_hi or a_lo == a_hi:
        return []
    if (b_hi - b_lo) * (a_hi - a_lo) <= EXACT_LIMIT:
        pairs.extend(_exact(before[b_lo:b_hi], after[a_lo:a_hi], b_lo, a_lo))
        return []
    if s.depth is None:
        return []
    left = Stretch(b_lo, b_hi, a_lo, a_hi)
    if s.depth < MAX_DEPTH:
        anchors = _unique_anchors(before, after, left)
        if anchors:
            return _cut(left, anchors, pairs, s.depth + 1)
    return _cut(left, _occurrence_anchors(before, after, left), pairs, None)


def _exact(
    before: Sequence[K], after: Sequence[K], b_off: int, a_off: int
) -> list[tuple[int, int]]:
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [
        (b_off + block.a + i, a_off + block.b + i)
        for block in matcher.get_matching_blocks()
        for i in range(block.size)
    ]


def _cut(
    s: Stretch, anchors: list[tuple[int, int]], pairs: list[tuple[int, int]], depth: int | None
) -> list[Stretch]:
    """Settle the anchors and return the gaps between them."""
    gaps: list[Stretch] = []
    b_prev, a_prev = s.b_lo, s.a_lo
    for i, j in anchors:
        pairs.append((i, j))
        gaps.append(Stretch(b_prev, i, a_prev, j, depth))
        b_prev, a_prev = i + 1, j + 1
    gaps.append(Stretch(b_prev, s.b_hi, a_prev, s.a_hi, depth))
    return [g for g in gaps if g.b_lo < g.b_hi and g.a_lo < g.a_hi]


def _unique_anchors(before: Sequence[K], after: Sequence[K], s: Stretch) -> list[tuple[int, int]]:
    """Items whose key occurs exactly once in the stretch on each side, longest run in order."""
    count_b: dict[K, int] = defaultdict(int)
    for i in range(s.b_lo, s.b_hi):
        count_b[before[i]] += 1
    where_a: dict[K, int] = {}
    count_a: dict[K, int] = defaultdict(int)
    for j in range(s.a_lo, s.a_hi):
        count_a[after[j]] += 1
        where_a[after[j]] = j
    candidates = [
        (i, where_a[before[i]])
        for i in range(s.b_lo, s.b_hi)
        if count_b[before[i]] == 1 and count_a.get(before[i]) == 1
    ]
    return _longest_increasing(candidates)


def _occurrence_anchors(
    before: Sequence[K], after: Sequence[K], s: Stretch
) -> list[tuple[int, int]]:
    """The k-th occurrence of a key on one side against the k-th on the other, counted from the
    start and from the end; the longer run in order of the two."""
    at_b: dict[K, list[int]] = defaultdict(list)
    at_a: dict[K, list[int]] = defaultdict(list)
    for i in range(s.b_lo, s.b_hi):
        at_b[before[i]].append(i)
    for j in range(s.a_lo, s.a_hi):
        at_a[after[j]].append(j)
    from_start: list[tuple[int, int]] = []
    from_end: list[tuple[int, int]] = []
    for key, bs in at_b.items():
        as_ = at_a.get(key, [])
        n = min(len(bs), len(as_))
        from_start.extend(zip(bs[:n], as_[:n], strict=True))
        from_end.extend(zip(bs[len(bs) - n :], as_[len(as_) - n :], strict=True))
    runs = [_longest_increasing(sorted(from_start)), _longest_increasing(sorted(from_end))]
    return max(runs, key=len)  # the first on a tie: stable


def _longest_increasing(candidates: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``candidates`` (sorted by their first item, which is unique)
    whose second items increase too: patience sorting, ``n log n``."""
    tails: list[int] = []  # second item ending the best run of each length
    ends: list[int] = []  # index in candidates of that item
    back: list[int] = []  # index of the previous item in the run, -1 at the start
    for n, (_, j) in enumerate(candidates):
        k = bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            ends.append(n)
        else:
            tails[k] = j
            ends[k] = n
        back.append(ends[k - 1] if k else -1)
    run: list[tuple[int, int]] = []
    n = ends[-1] if ends else -1
    while n >= 0:
        run.append(candidates[n])
        n = back[n]
    run.reverse()
    return run
