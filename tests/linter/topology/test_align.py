"""The alignment of generated-name sequences: always a common subsequence, exact (difflib's) on
small inputs, and cut at unique anchors on large ones."""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Sequence
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


def test_regression_diff_alignment_of_scattered_changes_was_cubic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``_align`` ran ``difflib.SequenceMatcher(autojunk=False)`` over the whole middle of the
    generated-name sequences: roles repeat, so it was cubic in the worst case (3,125 nodes with an
    operator removed in every 7th sub-topology: 4 s; 12,500: 4 min). It now cuts at anchors
    and only gives difflib small gaps. Held three ways: no large difflib call, a time limit far
    above the expected second, and the alignment's work (the summed sizes of the stretches it
    examines, deterministic) growing linearly when the input doubles."""
    import difflib

    from linter import api
    from linter.topology.parse import parse
    from tests.hardening.fuzzing import time_limit
    from tests.hardening.generators import topology_text
    from tests.linter.topology.align_work import count_stretch_work

    set_seqs = difflib.SequenceMatcher.set_seqs

    def bounded(self: difflib.SequenceMatcher[Any], a: Sequence[Any], b: Sequence[Any]) -> None:
        if len(a) * len(b) > 1_000_000:  # fail at once instead of running for seconds
            raise AssertionError(f"aligns {len(a)} x {len(b)} repeated roles at once")
        set_seqs(self, a, b)

    monkeypatch.setattr(difflib.SequenceMatcher, "set_seqs", bounded)
    work = count_stretch_work(monkeypatch)
    spent: list[int] = []
    for nodes in (3_125, 6_250):
        before = parse(topology_text(nodes), "before.txt")
        after = parse(topology_text(nodes, thin=7), "after.txt")
        work[0] = 0
        with time_limit(30):
            report = api.diff(before, after)
        assert report.findings
        spent.append(work[0])
    assert spent[0] > 0
    assert spent[1] <= 2.5 * spent[0], f"alignment work {spent} grows faster than the input"
