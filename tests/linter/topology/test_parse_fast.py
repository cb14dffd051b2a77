"""The fast path (``parse_fast``) and the plain reader (the grammar and the careful node reader,
``parse_plain``) give the same model for every text, positions included; where the plain reader
rejects a text, ``parse`` rejects it with the same message."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linter.topology import fast_model, parse_fast
from linter.topology.model import Description, Node, Processor, Sink, Source, Subtopology, Topology
from linter.topology.parse import TopologyParseError, decode, parse, parse_plain
from linter.topology.render import render, to_jsonable
from tests.conftest import FIXTURES, ROOT, TOPOLOGY_CORPUS, corpus_files, corpus_text

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def outcome(read: object, text: str) -> tuple[str, object]:
    """What a reader makes of ``text``: its model as JSON data (positions included) with the
    model itself, or its error message."""
    try:
        model = read(text, "t.txt")  # type: ignore[operator]
    except TopologyParseError as error:
        return "error", str(error)
    assert isinstance(model, Description)
    return "model", (to_jsonable(model), model, hash(model), repr(model))


def assert_same_reading(text: str) -> None:
    assert outcome(parse, text) == outcome(parse_plain, text)
    if any(c in text for c in "\x00\r\ufeff"):
        return  # parse() replaces or rejects these before either reader sees the text
    fast = parse_fast.read(text, "t.txt")
    if fast is not None:  # what the fast path reads, the plain reader reads the same way
        assert outcome(lambda *_: fast, text) == outcome(parse_plain, text)


# --- generated describe() texts ------------------------------------------------------------------

GENERATED = [f"KSTREAM-{op}-{i:010d}" for i, op in enumerate(("SOURCE", "MAP", "SINK", "FILTER"))]
# Names Kafka allows (any string): separators and brackets of the format among them.
NAMES = st.one_of(
    st.sampled_from([*GENERATED, "orders", "audit-peek", "a", "b"]),
    st.lists(
        st.sampled_from([*"abAB09-_.", " ", ", ", "(", ")", "[", "]", ":", "-->", "\t"]),
        min_size=1,
        max_size=8,
    ).map("".join),
)
TOPICS = st.frozensets(st.one_of(st.sampled_from(["t", "in", "out-x", "null"]), NAMES), max_size=3)


@st.composite
def subtopology(draw: st.DrawFn, sub_id: int, is_global: bool) -> Subtopology:
    any_kinds = st.lists(st.sampled_from(["source", "processor", "sink"]), min_size=1, max_size=6)
    kinds = ["source", "processor"] if is_global else draw(any_kinds)
    names = draw(st.lists(NAMES, min_size=len(kinds), max_size=len(kinds), unique=True))
    neighbours = st.frozensets(st.sampled_from([*names, "elsewhere"]), max_size=3)
    nodes: list[Node] = []
    for kind, name in zip(kinds, names, strict=True):
        if kind == "source":
            pattern = draw(st.one_of(st.none(), st.sampled_from(["topic-.*", "a|b", "x"])))
            topics = frozenset() if pattern is not None else draw(TOPICS)
            nodes.append(Source(name, topics, pattern, draw(neighbours)))
        elif kind == "processor":
            stores = draw(st.frozensets(NAMES, max_size=2))
            nodes.append(Processor(name, stores, draw(neighbours), draw(neighbours)))
        else:
            extractor = draw(st.one_of(st.none(), st.just("com.example.Extractor")))
            topic = None if extractor else draw(st.one_of(st.none(), NAMES))
            nodes.append(Sink(name, topic, extractor, draw(neighbours)))
    return Subtopology(sub_id, frozenset(nodes), is_global)


@st.composite
def description(draw: st.DrawFn) -> Description:
    topologies = []
    count = draw(st.integers(1, 2))
    for index in range(count):
        flags = draw(st.lists(st.booleans(), min_size=0, max_size=4))
        ids = draw(st.lists(st.integers(0, 12), min_size=len(flags), max_size=len(flags)))
        subs = tuple(draw(subtopology(i, g)) for i, g in zip(ids, flags, strict=True))
        name = draw(NAMES) if count > 1 or draw(st.booleans()) else None
        topologies.append(Topology(subs, name if count == 1 else f"{name}{index}"))
    return Description(tuple(topologies))


def edited(text: str, edit: str, at: int) -> str:
    """``text`` with one of the edits a person (or a log) makes to a pasted description."""
    lines = text.split("\n")
    at %= len(lines)
    if edit == "no final newline":
        return text.rstrip("\n")
    if edit == "leading newlines":
        return "\n\n" + text
    if edit == "tab indent":
        lines[at] = "\t" + lines[at].lstrip(" ")
    elif edit == "trailing space":
        lines[at] += " "
    elif edit == "blank line":
        lines.insert(at, "")
    elif edit == "spaced blank line":
        lines.insert(at, "  ")
    elif edit == "deeper indent":
        lines[at] = "  " + lines[at]
    elif edit == "log line":
        lines.insert(at, "INFO something happened")
    return "\n".join(lines)


EDITS = st.sampled_from(
    ["none", "no final newline", "leading newlines", "tab indent", "trailing space",
     "blank line", "spaced blank line", "deeper indent", "log line"]
)  # fmt: skip


@SETTINGS
@given(description(), EDITS, st.integers(0, 200))
def test_generated_texts_read_the_same(model: Description, edit: str, at: int) -> None:
    assert_same_reading(edited(render(model), edit, at))


@SETTINGS
@given(description())
def test_real_output_takes_the_fast_path(model: Description) -> None:
    """Plain names (no separator or bracket of the format in them) and every neighbour declared:
    the fast path reads the rendered text itself, and reads it as the plain reader does."""
    text = render(model)
    plain = "".join(node.name for _, _, node in model.nodes())
    try:
        expected = parse_plain(text)
    except TopologyParseError:
        return
    if any(c in plain for c in "(),[]:\t ") or any(
        item != item.strip() or "(" in item or ", " in item or not item
        for _, _, node in model.nodes()
        for item in (*node.stores, *getattr(node, "topics", ()))
    ):
        return
    fast = parse_fast.read(text, "<text>")
    declared_everywhere = all(
        (node.successors | node.predecessors) <= {n.name for n in sub.nodes}
        for topology in model.topologies
        for sub in topology.subtopologies
        for node in sub.nodes
    )
    ids_unique = all(  # and no empty topology (describe() prints its header with a space)
        0 < len({s.id for s in t.subtopologies}) == len(t.subtopologies) for t in model.topologies
    )
    # a global store's source printed without brackets may be a bare topic list (older formats):
    # the fast path leaves that to the careful reader
    bare_in_global = any(
        isinstance(node, Source) and node.pattern is not None
        for topology in model.topologies
        for sub in topology.subtopologies
        if sub.is_global
        for node in sub.nodes
    )
    if (
        declared_everywhere and ids_unique and not bare_in_global
        and model.topologies[0].name != "Topologies"
    ):
        assert fast is not None
    if fast is not None:
        assert to_jsonable(fast) == to_jsonable(expected)


# --- real texts ----------------------------------------------------------------------------------

def _decoded(path: Path) -> str | None:
    try:
        return decode(path.read_bytes(), str(path))
    except TopologyParseError:  # the fixtures of decoding errors: no text to read
        return None


FIXTURE_TEXTS = {
    str(path.relative_to(FIXTURES)): text
    for path in sorted(FIXTURES.rglob("*.txt"))
    if "cluster" not in path.parts and (text := _decoded(path)) is not None
}


@pytest.mark.parametrize("name", sorted(FIXTURE_TEXTS))
def test_fixtures_read_the_same(name: str) -> None:
    assert_same_reading(FIXTURE_TEXTS[name])


@pytest.mark.parametrize(
    "path", corpus_files("topologies"), ids=lambda p: str(p.relative_to(TOPOLOGY_CORPUS))
)
def test_corpus_reads_the_same(path: Path) -> None:
    assert_same_reading(corpus_text(path))


def test_corpus_is_there(topology_corpus: Path) -> None:
    """Without the corpus the parametrised test above has no cases; say so with a skip."""
    assert corpus_files("topologies")


def test_fast_path_reads_real_output() -> None:
    """The fast path is taken on Kafka's own output (the test above would pass if it never
    were)."""
    for name in ("topology/variants/canonical.txt", "examples/orders-v1.txt"):
        text = (FIXTURES / name).read_text(encoding="utf-8")
        assert parse_fast.read(text, name) is not None, name


_BLOCK = (
    "   Sub-topology: {id}\n"
    "    Source: {a} (topics: [t{id}])\n      --> {b}\n"
    "    Processor: {b} (stores: [])\n      --> none\n      <-- {a}\n"
)
_TWICE = "    Processor: {b} (stores: [])\n      --> none\n      <-- {a}\n"


@pytest.mark.parametrize(
    "text",
    [
        "Topologies:\n" + _BLOCK.format(id=0, a="a", b="b") + _TWICE.format(a="a", b="b"),
        "Topologies:\n"
        + _BLOCK.format(id=0, a="x", b="y")
        + "\n"
        + _BLOCK.format(id=1, a="a", b="b")
        + _TWICE.format(a="a", b="b"),
        "Topologies:\n"
        + _BLOCK.format(id=0, a="a", b="b")
        + "\n"
        + _BLOCK.format(id=1, a="c", b="b"),
    ],
    ids=["twice in the only block", "twice in one of two blocks", "in two blocks"],
)
def test_a_node_printed_twice_is_refused(text: str) -> None:
    """A node pasted twice, identical both times (its arrows agree), in one sub-topology or in
    two: the fast path leaves it to the plain reader, which refuses it and says where."""
    assert parse_fast.read(text, "t.txt") is None
    assert outcome(parse, text)[0] == "error"
    assert_same_reading(text)


@pytest.mark.parametrize(
    "arrow",
    ["      --> b, b\n", "      --> b, b, c\n", "      --> b, \n", "      --> b, , c\n"],
    ids=["a name twice", "a name twice of three", "an empty last name", "an empty name"],
)
def test_a_list_with_a_repeated_or_empty_name_is_left_to_the_plain_reader(arrow: str) -> None:
    """`--> b, b` is the set {b} (a Sink named `b, b` listing `a` back does not make it one
    edge to that Sink): the fast path, which checks a one-name line by that name, leaves such a
    list to the plain reader rather than read it another way."""
    text = (
        "Topologies:\n   Sub-topology: 0\n    Source: a (topics: [t])\n"
        + arrow
        + "    Sink: b, b (topic: out)\n      <-- a\n"
    )
    assert parse_fast.read(text, "t.txt") is None
    assert_same_reading(text)


_SOURCE = "Topologies:\n   Sub-topology: 0\n    Source: {} (topics: [t])\n      --> {}\n"
_PROCESSOR = "    Processor: {} (stores: [])\n      --> {}\n      <-- {}\n"


@pytest.mark.parametrize(
    "text",
    [_SOURCE.format("a", "none") + "    Sink: none (topic: out)\n      <-- a\n",
     _SOURCE.format("a", "none") + _PROCESSOR.format("none", "none", "a"),
     _SOURCE.format("none", "p") + _PROCESSOR.format("p", "none", "none"),
     _SOURCE.format("none", "k") + "    Sink: k (topic: out)\n      <-- none\n"],
    ids=["--> none, a Sink named none", "--> none, a Processor named none",
         "<-- none, a Processor after one named none", "<-- none, a Sink after one named none"],
)  # fmt: skip
def test_none_is_no_name_of_the_node_before_or_after(text: str) -> None:
    """`--> none` and `<-- none` are empty lists even next to a node named `none`: the other end
    of the edge has no match, so the text is refused (the fast path takes a list naming the node
    printed just before or after alone as that node's name, and such an edge as checked at both
    ends)."""
    assert parse_fast.read(text, "t.txt") is None
    assert outcome(parse, text)[0] == "error"
    assert_same_reading(text)


@pytest.mark.parametrize(
    "after",
    ["    Source: s (topics: [u])\n      --> none\n",
     "    Processor: p (stores: [])\n      --> s\n      <-- a\n"
     "    Source: s (topics: [u])\n      --> none\n"],
    ids=["from a Source", "from a Processor"],
)  # fmt: skip
def test_an_arrow_to_the_source_printed_next_is_refused(after: str) -> None:
    """A `-->` naming the Source printed just after: a Source has no `<--` line to list it
    back, so the text is refused."""
    text = _SOURCE.format("a", "s" if after.startswith("    Source") else "p") + after
    assert parse_fast.read(text, "t.txt") is None
    assert outcome(parse, text)[0] == "error"
    assert_same_reading(text)


_A_TO_X = "Topologies:\n   Sub-topology: 0\n    Source: a (topics: [t])\n      --> x\n"
_S_FROM_A = ["    Sink: s (topic: out)\n      <-- a\n", _PROCESSOR.format("s", "none", "a")]
_B_TO_Y = "    Source: b (topics: [u])\n      --> y\n"
_X_Y = "    Sink: y (topic: out)\n      <-- b\n    Sink: x (topic: out)\n      <-- none\n"


@pytest.mark.parametrize(
    "text",
    [_A_TO_X + _S_FROM_A[0] + "    Sink: x (topic: out)\n      <-- none\n",
     _A_TO_X + _S_FROM_A[1] + "    Sink: x (topic: out)\n      <-- none\n",
     _A_TO_X + _B_TO_Y + _S_FROM_A[0] + _X_Y,
     _A_TO_X + _B_TO_Y + _S_FROM_A[1] + _X_Y],
    ids=["a Sink just after", "a Processor just after", "a Sink further on",
         "a Processor further on"],
)  # fmt: skip
def test_arrows_that_disagree_in_equal_numbers_are_refused(text: str) -> None:
    """`a --> x` and `s <-- a`: as many `-->` edges as `<--` ones, but not the same edges; the
    text is refused whether `s` is printed just after `a` or further on."""
    assert parse_fast.read(text, "t.txt") is None
    assert outcome(parse, text)[0] == "error"
    assert_same_reading(text)


@pytest.mark.parametrize("indent", ["", "  ", "   ", "      "])
def test_a_node_indented_otherwise_is_left_to_the_plain_reader(indent: str) -> None:
    """describe() prints every node at column 5; the fast path reads no other indentation (it
    gives every node it reads that column), and the plain reader reads such a text."""
    text = (
        "Topologies:\n   Sub-topology: 0\n    Source: a (topics: [t])\n      --> b\n"
        f"{indent}Sink: b (topic: out)\n      <-- a\n"
    )
    assert parse_fast.read(text, "t.txt") is None
    assert_same_reading(text)
    assert parse_fast.read(text.replace(f"{indent}Sink", "    Sink"), "t.txt") is not None


# --- the benchmark's inputs ----------------------------------------------------------------------

def _benchmark_generate() -> Callable[[int, int], str]:
    """``generate`` of benchmarks/parse.py (not a package: loaded from its file)."""
    spec = importlib.util.spec_from_file_location("benchmark_parse", ROOT / "benchmarks/parse.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.generate  # type: ignore[no-any-return]


@pytest.mark.parametrize(("nodes", "seed"), [(40, 3), (5000, 5)])
def test_benchmark_inputs_take_the_fast_path(nodes: int, seed: int) -> None:
    """What benchmarks/parse.py times (and holds against the peer viewer) is the fast path
    building the whole model, the plain reader's to the last position; the large input runs
    past the lines whose positions the fast path keeps between texts (fast_model.KEPT_LINES),
    which no other text here does."""
    text = _benchmark_generate()(nodes, seed)
    if nodes > 100:
        assert text.count("\n") > fast_model.KEPT_LINES
    assert parse_fast.read(text, "t.txt") is not None
    assert_same_reading(text)
