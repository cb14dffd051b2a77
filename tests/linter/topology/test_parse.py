"""The describe() parser on small inline texts: every variant the format has, read the same."""

from __future__ import annotations

import pytest

from linter.topology.model import Processor, Sink, Source
from linter.topology.parse import parse

SIMPLE = (
    "Topologies:\n"
    "   Sub-topology: 0\n"
    "    Source: KSTREAM-SOURCE-0000000000 (topics: [in])\n"
    "      --> KSTREAM-MAPVALUES-0000000001\n"
    "    Processor: KSTREAM-MAPVALUES-0000000001 (stores: [])\n"
    "      --> KSTREAM-SINK-0000000002\n"
    "      <-- KSTREAM-SOURCE-0000000000\n"
    "    Sink: KSTREAM-SINK-0000000002 (topic: out)\n"
    "      <-- KSTREAM-MAPVALUES-0000000001\n"
    "\n"
)


def test_simple_topology() -> None:
    description = parse(SIMPLE, "simple.txt")
    assert description.path == "simple.txt"
    (topology,) = description.topologies
    assert topology.name is None
    (sub,) = topology.subtopologies
    assert sub.id == 0
    assert not sub.is_global
    assert sub.nodes == {
        Source(
            "KSTREAM-SOURCE-0000000000",
            topics=frozenset({"in"}),
            successors=frozenset({"KSTREAM-MAPVALUES-0000000001"}),
        ),
        Processor(
            "KSTREAM-MAPVALUES-0000000001",
            successors=frozenset({"KSTREAM-SINK-0000000002"}),
            predecessors=frozenset({"KSTREAM-SOURCE-0000000000"}),
        ),
        Sink(
            "KSTREAM-SINK-0000000002",
            topic="out",
            predecessors=frozenset({"KSTREAM-MAPVALUES-0000000001"}),
        ),
    }


def test_positions_point_at_keywords() -> None:
    (topology,) = parse(SIMPLE).topologies
    sub = topology.subtopologies[0]
    assert (topology.position.line, topology.position.column) == (1, 1)
    assert (sub.position.line, sub.position.column) == (2, 4)
    lines = {node.name: (node.position.line, node.position.column) for node in sub.nodes}
    assert lines == {
        "KSTREAM-SOURCE-0000000000": (3, 5),
        "KSTREAM-MAPVALUES-0000000001": (5, 5),
        "KSTREAM-SINK-0000000002": (8, 5),
    }


@pytest.mark.parametrize(
    "variant",
    [
        SIMPLE.replace("\n", "\r\n"),
        SIMPLE.rstrip("\n") + "\n",
        SIMPLE.replace("\n", "  \n"),
        SIMPLE.replace("    ", "\t"),
        "2024-05-01 12:00:00 INFO App - " + SIMPLE + "2024-05-01 12:00:01 INFO started\n",
        SIMPLE.split("\n", 1)[1],
    ],
    ids=["crlf", "no-blank-line", "trailing-spaces", "tabs", "log", "headless"],
)
def test_layout_variants_read_the_same(variant: str) -> None:
    assert parse(variant) == parse(SIMPLE)
