"""The diff's short cuts against the full work: a topology against itself (``_unchanged``, built
on ``match_identical``) must be exactly what the full matching makes of two printings of it, and
the key-change walks are skipped (``_same_walks``) only where they could find nothing."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linter.topology.diff import (
    _assemble,
    _joined,
    _regular,
    _same_walks,
    diff,
)
from linter.topology.diff_keys import key_changes
from linter.topology.diff_match import (
    match_identical,
    match_nodes,
)
from linter.topology.diff_side import Side, groups, index
from linter.topology.errors import TopologyParseError
from linter.topology.model import (
    Description,
    Processor,
    Sink,
    Source,
    Subtopology,
    Topology,
)
from linter.topology.parse import parse
from tests.conftest import corpus_files, corpus_id, corpus_text
from tests.hardening.strategies import describe_text, descriptions, shuffled_by, versions


def sides(model: Description, *, sequence: bool = True) -> list[Side]:
    """The sides of ``model``'s topologies, in name order (as ``diff`` makes them)."""
    return [index(ts, t, sequence=sequence) for t, ts in sorted(groups(model).items())]


def regular(model: Description) -> bool:
    return all(_regular(side) for side in sides(model))


def assert_regular_alike(model: Description) -> None:
    """``_regular`` of the lean sides (no generated nodes' sequences) says what it says of the
    full ones."""
    assert [_regular(s) for s in sides(model, sequence=False)] == [
        _regular(s) for s in sides(model)
    ]


def assert_short_cut_is_the_full_matching(before: Description, after: Description) -> None:
    assert before == after
    assert_regular_alike(before)
    for other in (after, replace(before, path="again.txt")):  # another text, the same text
        parts = []
        for b, a in zip(sides(before), sides(other), strict=True):
            fwd, how = match_nodes(b, a)
            assert (fwd, how) == match_identical(b)
            assert key_changes(b, a, fwd) == ([], [])
            parts.append(_assemble(b, a, fwd, how))
        full = _joined(before, other, parts, walks=True)
        assert repr(diff(before, other)) == repr(full)  # repr: sets in the same order too


@settings(max_examples=60, deadline=None)
@given(descriptions(), st.integers(min_value=0, max_value=2**32 - 1))
def test_generated_topology_against_its_reprint(model: Description, seed: int) -> None:
    text = describe_text(model, shuffled_by(random.Random(seed)))
    assert regular(model)
    assert_short_cut_is_the_full_matching(model, parse(text, "reprinted.txt"))


@pytest.mark.parametrize("path", corpus_files("topologies"), ids=corpus_id)
def test_corpus_text_against_its_reprint(path: Path) -> None:
    try:
        model = parse(corpus_text(path), str(path))
    except TopologyParseError as error:
        pytest.skip(f"not a text the diff sees: {error}")
    text = describe_text(model, shuffled_by(random.Random(7)))
    assert_short_cut_is_the_full_matching(model, parse(text, "reprinted.txt"))


def test_reprint_keeps_its_own_lines() -> None:
    text = (
        "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [in])\n      --> p\n"
        "    Processor: p (stores: [st])\n      --> none\n      <-- s\n\n"
    )
    before = parse(text, "before.txt")
    after = parse("\n\n" + text, "after.txt")
    result = diff(before, after)
    [pair] = [p for p in result.nodes.pairs if p.before.name == "p"]
    assert (pair.before.line, pair.after.line) == (5, 7)
    assert result.stores.pairs[0].after.line == 7


def test_arrows_to_undeclared_nodes_still_show_as_changes() -> None:
    # not a text describe() prints, but a model one can build: matching leaves such a neighbour
    # unmatched on both sides, so even a topology against itself reports the arrows as changed
    model = Description((Topology((Subtopology(0, frozenset({
        Source("src", frozenset({"in"}), successors=frozenset({"p", "ghost"})),
        Processor("p", successors=frozenset({"out"}), predecessors=frozenset({"src"})),
        Sink("out", "o", predecessors=frozenset({"p"})),
    })),)),))
    assert not regular(model)
    assert_regular_alike(model)
    result = diff(model, replace(model, path="again.txt"))
    assert {p.before.name: p.changes for p in result.nodes.pairs if p.changes} == {
        "src": frozenset({"successors"})
    }


def test_a_subtopology_without_nodes_is_not_paired() -> None:
    model = Description((Topology((
        Subtopology(0, frozenset({Source("src", frozenset({"in"}))})),
        Subtopology(1, frozenset()),
    )),))
    assert not regular(model)
    assert_regular_alike(model)
    result = diff(model, replace(model, path="again.txt"))
    assert [s.id for s in result.subtopologies.added] == [1]
    assert [s.id for s in result.subtopologies.removed] == [1]


@settings(max_examples=100, deadline=None)
@given(versions())
def test_key_walks_are_skipped_only_when_no_key_can_change(
    pair: tuple[Description, Description],
) -> None:
    before, after = pair
    if _same_walks(diff(before, after).nodes):
        groups_b, groups_a = groups(before), groups(after)
        for t in groups_b.keys() | groups_a.keys():
            b, a = index(groups_b.get(t, []), t), index(groups_a.get(t, []), t)
            fwd, _ = match_nodes(b, a)
            assert key_changes(b, a, fwd) == ([], [])


def test_output_topic_or_store_renamed_needs_no_key_walk() -> None:
    before = parse(
        "Topologies:\n   Sub-topology: 0\n    Source: in (topics: [orders])\n      --> count\n"
        "    Processor: count (stores: [counts])\n      --> out\n      <-- in\n"
        "    Sink: out (topic: totals)\n      <-- count\n\n",
        "before.txt",
    )
    text = describe_text(before).replace("totals", "totals-v2").replace("counts", "counts-v2")
    result = diff(before, parse(text, "after.txt"))
    # the store is matched by its owner, so the node's stores are the same store
    assert [p.changes for p in result.stores.pairs] == [frozenset({"renamed"})]
    assert {p.before.name: p.changes for p in result.nodes.pairs if p.changes} == {
        "out": frozenset({"topic"})
    }
    assert _same_walks(result.nodes)
    assert result.key_changes == ()


def test_a_repartition_topic_renamed_is_walked() -> None:
    def text(topic: str) -> str:
        return (
            "Topologies:\n   Sub-topology: 0\n    Source: in (topics: [orders])\n"
            "      --> by-user\n    Processor: by-user (stores: [])\n      --> sink\n"
            f"      <-- in\n    Sink: sink (topic: {topic})\n      <-- by-user\n\n"
            f"  Sub-topology: 1\n    Source: source (topics: [{topic}])\n      --> count\n"
            "    Processor: count (stores: [counts])\n      --> none\n      <-- source\n\n"
        )

    result = diff(parse(text("a-repartition"), "b.txt"), parse(text("b-repartition"), "a.txt"))
    assert not _same_walks(result.nodes)
