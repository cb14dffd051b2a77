"""Canonical text and JSON: deterministic, and they read back as the same model."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from pydantic import TypeAdapter

from linter.topology.model import Description, Processor, Sink, Source, Subtopology, Topology
from linter.topology.parse import parse, parse_file
from linter.topology.render import render, to_jsonable

VARIANTS = Path(__file__).resolve().parents[3] / "fixtures" / "topology" / "variants"
ALL = sorted(VARIANTS.glob("*.txt"))


def test_canonical_fixture_renders_byte_for_byte() -> None:
    text = (VARIANTS / "canonical.txt").read_text(encoding="utf-8")
    assert render(parse(text)) == text


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_round_trip(path: Path) -> None:
    model = parse_file(path)
    again = parse(render(model))
    assert again == model
    assert render(again) == render(model)


def test_render_sorts_sets() -> None:
    assert render(parse_file(VARIANTS / "fan-out.txt")) == render(
        parse_file(VARIANTS / "fan-out-reordered.txt")
    )


def test_render_uses_kafka_node_order() -> None:
    text = render(parse_file(VARIANTS / "fan-out.txt"))
    node_lines = [line for line in text.splitlines() if line.startswith(("    S", "    P"))]
    order = [line.split(": ", 1)[1].rsplit(" (", 1)[0] for line in node_lines]
    # larger downstream sub-graph first, then by name (TopologyDescription's NodeComparator)
    assert order[:2] == ["orders-source", "validate"]
    assert order[-2:] == ["merge", "out"]


def test_render_of_each_node_form() -> None:
    sub = Subtopology(
        3,
        frozenset(
            {
                Source("s", pattern="in-.*", successors=frozenset({"p"})),
                Processor(
                    "p",
                    stores=frozenset({"b", "a"}),
                    successors=frozenset({"x", "k"}),
                    predecessors=frozenset({"s"}),
                ),
                Sink("k", topic="out", predecessors=frozenset({"p"})),
                Sink("x", extractor="Ex", predecessors=frozenset({"p"})),
            }
        ),
    )
    text = render(Description((Topology((sub,), name="app"),)))
    assert text == (
        "Topology: app:\n"
        "   Sub-topology: 3\n"
        "    Source: s (topics: in-.*)\n      --> p\n"
        "    Processor: p (stores: [a, b])\n      --> k, x\n      <-- s\n"
        "    Sink: k (topic: out)\n      <-- p\n"
        "    Sink: x (extractor class: Ex)\n      <-- p\n"
        "\n"
    )


def test_render_survives_a_cycle_and_a_long_chain() -> None:
    names = [f"n{i:05d}" for i in range(3000)]
    nodes = {
        Processor(
            name,
            successors=frozenset({names[(i + 1) % len(names)]}),
            predecessors=frozenset({names[i - 1]}),
        )
        for i, name in enumerate(names)
    }
    text = render(Description((Topology((Subtopology(0, frozenset(nodes)),)),)))
    assert text.count("Processor: ") == 3000


def test_empty_and_legacy_render_in_the_current_layout() -> None:
    assert render(parse("Topologies:\n ")) == "Topologies:\n "
    legacy = parse_file(VARIANTS / "legacy-1.0.txt")
    text = render(legacy)
    assert text.startswith("Topologies:\n   Sub-topology: 0\n")
    assert "  Sub-topology: 2 for global store (will not generate tasks)\n" in text
    assert parse(text) == legacy


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_json_is_deterministic_and_matches_the_published_schema(path: Path) -> None:
    data = to_jsonable(parse_file(path))
    assert json.loads(json.dumps(data)) == data
    schema = TypeAdapter(Description).json_schema()
    jsonschema.validate(data, schema)
    for topology in data["topologies"]:
        for sub in topology["subtopologies"]:
            names = [node["name"] for node in sub["nodes"]]
            assert names == sorted(names)
            for node in sub["nodes"]:
                for key in ("topics", "stores", "successors", "predecessors"):
                    if key in node:
                        assert node[key] == sorted(node[key])
                assert set(node["position"]) == {"line", "column"}
