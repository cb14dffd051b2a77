"""The key walks ``diff_reach.walked`` leaves out find nothing: the diff with them is the diff
with every matched stateful node and sink walked. Over the corpus texts, each with an operator
inserted below its first source (one that sets the key, one whose name says nothing), both ways:
key changes are found there, and the ones left out must not matter. The same over generated
versions, whose edits include a key setter put below a node."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from unittest import mock

from hypothesis import given, settings

from linter.topology.diff import TopologyDiff, diff
from linter.topology.errors import TopologyParseError
from linter.topology.model import Description, Node, Processor, Sink, Source
from linter.topology.parse import parse
from tests.conftest import corpus_text
from tests.hardening.strategies import versions


def _inserted(desc: Description, new: str) -> Description | None:
    """``new`` between the first source (by name) that has successors and those successors."""
    top = desc.topologies[0]
    for i, sub in enumerate(top.subtopologies):
        sources = sorted(
            (n for n in sub.nodes if isinstance(n, Source) and n.successors), key=lambda n: n.name
        )
        if not sources or sub.is_global:
            continue
        src = sources[0]
        nodes = {_rewired(n, src, new) for n in sub.nodes}
        nodes.add(Processor(new, successors=src.successors, predecessors=frozenset({src.name})))
        subs = list(top.subtopologies)
        subs[i] = replace(sub, nodes=frozenset(nodes))
        topology = replace(top, subtopologies=tuple(subs))
        return replace(desc, topologies=(topology, *desc.topologies[1:]))
    return None


def _rewired(node: Node, src: Source, new: str) -> Node:
    if node is src:
        return replace(src, successors=frozenset({new}))
    if isinstance(node, Processor | Sink) and node.name in src.successors:
        return replace(node, predecessors=(node.predecessors - {src.name}) | {new})
    return node


def _both(before: Description, after: Description) -> tuple[TopologyDiff, TopologyDiff]:
    found = diff(before, after)
    with mock.patch("linter.topology.diff.walked", return_value=None):  # walk every start
        every = diff(before, after)
    return found, every


def test_the_walks_left_out_change_nothing(topology_corpus: Path) -> None:
    changes = 0
    for path in sorted(topology_corpus.rglob("*.txt")):
        try:
            model = parse(corpus_text(path), str(path))
        except TopologyParseError:
            continue
        for new in ("KSTREAM-KEY-SELECT-0000000999", "audit-peek"):
            other = _inserted(model, new)
            if other is None:
                continue
            for before, after in ((model, other), (other, model)):
                found, every = _both(before, after)
                assert found == every, path
                changes += len(every.key_changes)
    assert changes > 0  # the walks left out could have found some


@settings(max_examples=300, deadline=None)
@given(versions())
def test_the_walks_left_out_change_nothing_in_generated_versions(
    pair: tuple[Description, Description],
) -> None:
    for before, after in (pair, pair[::-1]):
        found, every = _both(before, after)
        assert found == every
