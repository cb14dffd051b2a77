"""The describe() parser on hand-written texts: every variant of the format, read the same way.

Each file in ``fixtures/topology/variants/`` also has a JSON golden (its model, positions
included) next to it; ``pytest --update-goldens`` rewrites them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linter.topology.model import Description, Processor, Sink, Source, Topology
from linter.topology.parse import decode, parse, parse_file, parse_plain
from linter.topology.render import to_jsonable

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "topology"
VARIANTS = FIXTURES / "variants"


def load(name: str, *, strict: bool = True) -> Description:
    if strict:
        return parse_file(VARIANTS / name)
    return parse((VARIANTS / name).read_text(encoding="utf-8"), name, strict=False)


def only(description: Description) -> Topology:
    (topology,) = description.topologies
    return topology


def nodes_by_name(topology: Topology) -> dict[str, Source | Processor | Sink]:
    return {node.name: node for _, node in topology.nodes()}


@pytest.mark.parametrize("path", sorted(VARIANTS.glob("*.txt")), ids=lambda p: p.stem)
def test_variant_matches_its_golden(path: Path, update_goldens: bool) -> None:
    model = parse_file(path)
    model = Description(model.topologies, path=str(path.relative_to(FIXTURES)))
    actual = json.dumps(to_jsonable(model), indent=2, sort_keys=True) + "\n"
    golden = path.with_suffix(".json")
    if update_goldens or not golden.exists():
        golden.write_text(actual, encoding="utf-8")
    assert actual == golden.read_text(encoding="utf-8")


def test_canonical_text() -> None:
    topology = only(load("canonical.txt"))
    assert topology.name is None
    assert topology.layout == "describe"
    assert [(s.id, s.is_global, len(s.nodes)) for s in topology.subtopologies] == [
        (0, False, 5),
        (1, True, 2),
        (2, False, 3),
    ]
    nodes = nodes_by_name(topology)
    assert nodes["KSTREAM-SOURCE-0000000009"] == Source(
        "KSTREAM-SOURCE-0000000009",
        topics=frozenset({"payments", "refunds"}),
        successors=frozenset({"KSTREAM-MAPVALUES-0000000010"}),
    )
    assert nodes["KSTREAM-AGGREGATE-0000000003"] == Processor(
        "KSTREAM-AGGREGATE-0000000003",
        stores=frozenset({"KSTREAM-AGGREGATE-STATE-STORE-0000000002"}),
        successors=frozenset({"KTABLE-TOSTREAM-0000000004"}),
        predecessors=frozenset({"KSTREAM-FILTER-0000000001"}),
    )
    assert nodes["KTABLE-SOURCE-0000000008"].successors == frozenset()
    assert topology.stores == {
        "KSTREAM-AGGREGATE-STATE-STORE-0000000002",
        "customers-STATE-STORE-0000000006",
    }


def test_positions_point_at_the_keywords() -> None:
    topology = only(load("canonical.txt"))
    assert (topology.position.line, topology.position.column) == (1, 1)
    subs = {sub.id: (sub.position.line, sub.position.column) for sub in topology.subtopologies}
    assert subs == {0: (2, 4), 1: (17, 3), 2: (23, 3)}
    nodes = nodes_by_name(topology)
    assert nodes["KSTREAM-SOURCE-0000000000"].position.line == 3
    assert nodes["KSTREAM-SINK-0000000011"].position.line == 29
    assert {node.position.column for node in nodes.values()} == {5}


@pytest.mark.parametrize(
    "name",
    [
        "crlf.txt",
        "trailing-spaces.txt",
        "no-blank-lines.txt",
        "two-space-indent.txt",
        "tabs-ragged.txt",
        "log-pasted.txt",
        "headless.txt",
    ],
)
def test_layout_variants_describe_the_same_graph(name: str) -> None:
    assert load(name) == load("canonical.txt")


def test_log_prefix_positions_point_into_the_original_text() -> None:
    topology = only(load("log-pasted.txt"))
    assert (topology.position.line, topology.position.column) == (2, 56)
    first = topology.subtopologies[0]
    assert first.position.line == 3


def test_lists_are_sets() -> None:
    assert load("fan-out.txt") == load("fan-out-reordered.txt")


def test_generated_names_with_eleven_or_more_digits() -> None:
    nodes = nodes_by_name(only(load("fan-out.txt")))
    assert nodes["KSTREAM-BRANCH-0000000003"].successors == {
        "KSTREAM-BRANCH-00000000030",
        "KSTREAM-BRANCH-00000000031",
        "KSTREAM-BRANCH-000000000310",
    }


def test_named_topology_headers() -> None:
    assert only(load("named.txt")).name == "orders-app"
    assert only(load("named-3.1.txt")).name == "orders-app"
    assert load("named-3.1.txt") == load("named.txt")
    assert only(load("named-with-colon.txt")).name == "team:orders:v2"


def test_concatenated_named_topologies() -> None:
    description = load("multiple-named.txt")
    assert [t.name for t in description.topologies] == ["topology-1", "topology-2"]
    assert [len(t.subtopologies) for t in description.topologies] == [2, 1]
    # the same generated name in two named topologies is fine
    second = nodes_by_name(description.topologies[1])
    assert second["KSTREAM-SOURCE-0000000000"].topics == {"input-2"}


def test_empty_topology() -> None:
    assert load("empty.txt") == Description((Topology(()),))


def test_pattern_sources_keep_the_raw_regex() -> None:
    nodes = nodes_by_name(only(load("pattern-source.txt")))
    by_region = nodes["by-region"]
    assert isinstance(by_region, Source)
    assert by_region.pattern == r"orders-(eu|us)\.[0-9]+, archive"
    assert by_region.topics == frozenset()
    brackets = nodes["brackets"]
    assert isinstance(brackets, Source)
    assert brackets.pattern == "[a-z]+-in"


def test_sinks_with_topic_or_extractor() -> None:
    nodes = nodes_by_name(only(load("extractor-sink.txt")))
    lambda_sink = nodes["KSTREAM-SINK-0000000001"]
    assert isinstance(lambda_sink, Sink)
    assert lambda_sink.topic is None
    assert lambda_sink.extractor == "com.example.Router$$Lambda/0x0000000800c143a0@70ed52de"
    nested = nodes["route (static)"]
    assert isinstance(nested, Sink)
    assert nested.extractor == "by key (topic: [key])"


def test_processor_api_names_with_spaces_parentheses_and_commas() -> None:
    nodes = nodes_by_name(only(load("papi-names.txt")))
    assert set(nodes) == {
        "read (orders)",
        "enrich, then route",
        "validate (strict)",
        "write (stores: [x])",
        "sink, final",
    }
    assert nodes["read (orders)"].successors == {"enrich, then route", "validate (strict)"}
    assert nodes["write (stores: [x])"].stores == {"audit log"}
    assert nodes["write (stores: [x])"].successors == {"sink, final"}
    assert nodes["enrich, then route"].stores == {"customer store"}


def test_none_arrows() -> None:
    nodes = nodes_by_name(only(load("none-arrows.txt")))
    assert nodes["lonely"].successors == frozenset()
    assert nodes["terminal"].successors == frozenset()
    assert nodes["terminal"].predecessors == {"in"}


def test_legacy_layout_is_read_and_marked() -> None:
    topology = only(load("legacy-1.0.txt"))
    assert topology.layout == "legacy-1.0"
    assert [(s.id, s.is_global, len(s.nodes)) for s in topology.subtopologies] == [
        (0, False, 2),
        (1, False, 1),
        (2, True, 2),
    ]
    nodes = nodes_by_name(topology)
    assert nodes["KSTREAM-SOURCE-0000000005"] == Source(
        "KSTREAM-SOURCE-0000000005",
        topics=frozenset({"customers"}),
        successors=frozenset({"KTABLE-SOURCE-0000000006"}),
    )
    assert nodes["KTABLE-SOURCE-0000000006"].stores == {"customers-store"}
    empty = only(load("legacy-1.0-empty.txt"))
    assert (empty.layout, empty.subtopologies) == ("legacy-1.0", ())


def test_condensed_tutorial_layout_with_inline_arrows() -> None:
    topology = only(load("tutorial-inline.txt"))
    nodes = nodes_by_name(topology)
    assert nodes["KSTREAM-SOURCE-0000000000"] == Source(
        "KSTREAM-SOURCE-0000000000",
        topics=frozenset({"streams-plaintext-input"}),
        successors=frozenset({"KSTREAM-FLATMAPVALUES-0000000001"}),
    )
    assert nodes["KSTREAM-FLATMAPVALUES-0000000001"].predecessors == {"KSTREAM-SOURCE-0000000000"}
    assert nodes["KSTREAM-SINK-0000000002"].predecessors == {"KSTREAM-FLATMAPVALUES-0000000001"}


def test_cli_formatter_variant() -> None:
    topology = only(load("cli-formatter.txt"))
    assert [(s.id, s.is_global) for s in topology.subtopologies] == [(0, True), (1, False)]
    sink = nodes_by_name(topology)["sink"]
    assert isinstance(sink, Sink)
    assert (sink.topic, sink.extractor) == (None, None)


def test_lenient_mode_keeps_undeclared_neighbours() -> None:
    text = (
        "Topologies:\n   Sub-topology: 0\n    Source: source (topics: [t1, t2])\n"
        "      --> p1, p2\n    Sink: sink (topic: null)\n      <-- source\n\n"
    )
    source = nodes_by_name(only(parse(text, strict=False)))["source"]
    assert source.successors == {"p1", "p2"}


@pytest.mark.parametrize("name", ["utf8-bom.txt", "utf16.txt"])
def test_byte_order_marks(name: str) -> None:
    assert load(name) == load("named.txt")


def test_parse_sets_the_path() -> None:
    assert parse("Topologies:\n ", "x.txt").path == "x.txt"
    assert parse("Topologies:\n ").path == "<text>"


def test_bom_in_a_str_is_ignored() -> None:
    text = (VARIANTS / "named.txt").read_text(encoding="utf-8")
    assert parse("\ufeff" + text) == parse(text)


def test_fast_and_careful_paths_read_the_same() -> None:
    """Real output is read by the fast path (one regex per block, objects built without
    ``__init__``); the grammar and the careful node reader read everything. Both must give the
    same models, positions included."""
    paths = sorted(VARIANTS.glob("*.txt"))
    fast_models = [parse_file(path) for path in paths]
    careful_models = [parse_plain(decode(path.read_bytes()), str(path)) for path in paths]
    assert [to_jsonable(model) for model in careful_models] == [
        to_jsonable(model) for model in fast_models
    ]
    assert careful_models == fast_models
    assert [hash(m) for m in careful_models] == [hash(m) for m in fast_models]
    assert [repr(m) for m in careful_models] == [repr(m) for m in fast_models]
