"""The alignment of generated-name sequences: always a common subsequence, exact (difflib's) on
small inputs, and cut at unique anchors on large ones."""

from __future__ import annotations

import difflib
import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linter.topology import align
from tests.linter.topology.align_work import count_stretch_work

roles = st.lists(st.sampled_from("ABCD"), max_size=60)


def _is_common_subsequence(b: list[Any], a: list[Any], pairs: list[tuple[int, int]]) -> bool:
    increasing = all(i1 < i2 and j1 < j2 for (i1, j1), (i2, j2) in itertools.pairwise(pairs))
    return increasing and all(b[i] == a[j] for i, j in pairs)


def _as_before(b: list[str], a: list[str]) -> list[tuple[int, int]]:
    """The diff's alignment before it was cut at anchors: equal heads and tails, then difflib."""
    lo = 0
    while lo < min(len(b), len(a)) and b[lo] == a[lo]:
        lo += 1
    hb, ha = len(b), len(a)
    while hb > lo and ha > lo and b[hb - 1] == a[ha - 1]:
        hb, ha = hb - 1, ha - 1
    matcher = difflib.SequenceMatcher(None, b[lo:hb], a[lo:ha], autojunk=False)
    middle = [
        (lo + m.a + i, lo + m.b + i) for m in matcher.get_matching_blocks() for i in range(m.size)
    ]
    tail = [(hb + i, ha + i) for i in range(len(b) - hb)]
    return [(i, i) for i in range(lo)] + middle + tail


@given(roles, roles)
@settings(max_examples=200, deadline=None)
def test_small_inputs_align_exactly_as_before(b: list[str], a: list[str]) -> None:
    pairs = align.align(b, a)
    assert _is_common_subsequence(b, a, pairs)
    assert pairs == _as_before(b, a)


@given(roles, roles, st.integers(min_value=1, max_value=5))
@settings(max_examples=100, deadline=None)
def test_large_inputs_give_a_common_subsequence(b: list[str], a: list[str], times: int) -> None:
    big_b, big_a = b * 40 * times, a * 40 * times
    assert _is_common_subsequence(big_b, big_a, align.align(big_b, big_a))


def _app(blocks: int, thin: int = 0) -> list[str]:
    """Pipelines of repeated roles between a unique source and sink, as in a DSL app."""
    out: list[str] = []
    for k in range(blocks):
        middle = ["map", "map", "filter", "map", "count", "map"]
        if thin and k % thin == 1:
            del middle[1]
        out += [f"source-{k}", *middle, f"sink-{k}"]
    return out


def test_scattered_removals_are_bridged_between_unique_anchors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    work = count_stretch_work(monkeypatch)
    spent = []
    for blocks in (500, 1_000):
        before, after = _app(blocks), _app(blocks, thin=3)
        work[0] = 0
        pairs = align.align(before, after)
        assert len(pairs) == len(after)  # only the removed operators are left over
        assert _is_common_subsequence(before, after, pairs)
        spent.append(work[0])
    assert spent[1] <= 2.5 * spent[0]


def test_no_unique_anchor_falls_back_to_kth_occurrences() -> None:
    before = ["a", "b"] * 200
    after = ["b", "a"] * 200
    pairs = align.align(before, after)
    assert _is_common_subsequence(before, after, pairs)
    assert len(pairs) >= 399 - 1  # one shift: all but the first and last line up
