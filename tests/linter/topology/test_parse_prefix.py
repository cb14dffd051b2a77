"""A describe() text pasted with a prefix on every line, and what lies around a description.

The prefixed variants in ``fixtures/topology/variants/`` describe the graph of ``canonical.txt``;
the error fixtures for the cases that cannot be read are in ``test_parse_errors.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from linter.topology.model import Description
from linter.topology.parse import TopologyParseError, parse, parse_file

VARIANTS = Path(__file__).resolve().parents[3] / "fixtures" / "topology" / "variants"
PREFIXED = (
    "kubectl-timestamps.txt",
    "compose-prefix.txt",
    "javadoc-comment.txt",
    "line-comment.txt",
    "hash-comment.txt",
)
CANONICAL = (VARIANTS / "canonical.txt").read_text(encoding="utf-8")
KEYWORD = {"source": "Source: ", "processor": "Processor: ", "sink": "Sink: "}


def node_count(description: Description) -> int:
    return sum(len(sub.nodes) for t in description.topologies for sub in t.subtopologies)


@pytest.mark.parametrize("name", PREFIXED)
def test_prefixed_text_reads_as_the_canonical_graph(name: str) -> None:
    model = parse_file(VARIANTS / name)
    assert model == parse(CANONICAL)
    assert node_count(model) == 10


@pytest.mark.parametrize("name", PREFIXED)
def test_positions_point_into_the_original_lines(name: str) -> None:
    lines = (VARIANTS / name).read_text(encoding="utf-8").split("\n")
    model = parse_file(VARIANTS / name)
    for topology in model.topologies:
        for sub in topology.subtopologies:
            at = sub.position
            assert lines[at.line - 1][at.column - 1 :].startswith(f"Sub-topology: {sub.id}")
            for node in sub.nodes:
                at = node.position
                text = lines[at.line - 1][at.column - 1 :]
                assert text.startswith(KEYWORD[node.kind] + node.name), (name, node.name)


def test_the_column_is_offset_by_the_prefix() -> None:
    plain = parse(CANONICAL)
    text = "".join(f"orders-app-1  | {line}\n" for line in CANONICAL.split("\n"))
    prefixed = parse(text)
    width = len("orders-app-1  | ")
    shifted = {node.name: node.position for _, node in prefixed.topologies[0].nodes()}
    for _, node in plain.topologies[0].nodes():
        assert shifted[node.name].line == node.position.line
        assert shifted[node.name].column == node.position.column + width


@pytest.mark.parametrize(
    "prefix",
    ["// ", "    // ", "# ", " * ", "\t* ", "orders-app-1  | ", "app | 10:15:00.123 | "],
)
def test_each_prefix_form(prefix: str) -> None:
    text = "".join(f"{prefix}{line}".rstrip() + "\n" for line in CANONICAL.split("\n"))
    assert parse(text) == parse(CANONICAL)


def test_kubectl_stamps_differ_per_line() -> None:
    stamps = ("2026-11-23T10:15:00.123456789Z", "2026-11-23T10:15:00.1Z", "2026-11-23T10:15:01Z")
    text = "".join(
        f"{stamps[i % 3]} {line}\n" for i, line in enumerate(CANONICAL.split("\n"))
    )
    assert parse(text) == parse(CANONICAL)


@pytest.mark.parametrize(
    ("first", "every"),
    [
        ("2026-11-23T10:15:00.1Z 2026-11-23 10:15:00,123 INFO  [main] App - ", "{stamp} "),
        ("orders-app-1  | 10:15:00.123 INFO App - ", "orders-app-1  | "),
    ],
)
def test_a_logger_prefix_on_the_first_line_in_front_of_the_prefix_of_every_line(
    first: str, every: str
) -> None:
    lines = CANONICAL.split("\n")
    text = first + lines[0] + "\n" + "".join(
        every.format(stamp=f"2026-11-23T10:15:0{i % 10}.{i}Z") + line + "\n"
        for i, line in enumerate(lines[1:], 1)
    )
    assert parse(text) == parse(CANONICAL)


def test_a_log_prefix_on_the_header_line_alone_is_still_a_log_prefix() -> None:
    text = "2026-11-23 10:15:00,123 INFO  [main] App - " + CANONICAL
    assert parse(text) == parse(CANONICAL)


def test_headless_text_behind_a_prefix_on_its_first_line_only() -> None:
    headless = (VARIANTS / "headless.txt").read_text(encoding="utf-8")
    model = parse("DEBUG [main] App -" + headless)
    assert model == parse(headless)


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        # another replica's lines between the description's: not one app's topology
        ("a-1 | Topologies:\na-1 |    Sub-topology: 0\na-2 |     Source: x (topics: [t])\n"
         "a-1 |       --> none\n", 3, 11),
        # a prefixed description after a column-1 log line
        ("Topologies:\nINFO starting\n// Sub-topology: 0\n//  Source: x (topics: [t])\n", 3, 4),
        # a node before the first header
        ("    Source: x (topics: [t])\n      --> none\nTopologies:\n", 1, 5),
    ],
)
def test_a_description_line_outside_the_description_is_located(
    text: str, line: int, column: int
) -> None:
    with pytest.raises(TopologyParseError) as caught:
        parse(text, "t.txt")
    assert (caught.value.line, caught.value.column) == (line, column)
    assert caught.value.expected.startswith("no describe() line ")


def test_log_lines_around_a_prefixed_description_are_not_description_lines() -> None:
    text = (
        "app-1  | INFO processing record --> ignored\n"  # an arrow inside prose, not a line
        + "".join(f"app-1  | {line}\n" for line in CANONICAL.split("\n"))
        + "app-1  | INFO State transition from REBALANCING to RUNNING\n"
        + "db-1   | LOG:  checkpoint complete\n"
    )
    assert parse(text) == parse(CANONICAL)


@pytest.mark.parametrize("indent", ["", "    ", "\t"])
def test_a_stack_trace_after_the_description_ends_it(indent: str) -> None:
    """`describe()` printed, then an exception: its `\\tat ...` frames follow the blank line that
    ends a description, indented like the description itself may be."""
    lines = [indent + line if line else line for line in CANONICAL.rstrip("\n").split("\n")]
    trace = "\tat org.apache.kafka.streams.KafkaStreams.start(KafkaStreams.java:1234)\n"
    text = "\n".join(lines) + "\n\n" + trace + trace
    assert parse(text) == parse(CANONICAL)


def test_an_unknown_indented_line_inside_the_description_is_still_located() -> None:
    """Only behind the blank line that ends a description may an indented line be foreign."""
    lines = CANONICAL.rstrip("\n").split("\n")
    text = "\n".join([*lines[:3], "    at-some-line we cannot read", *lines[3:]]) + "\n"
    with pytest.raises(TopologyParseError) as caught:
        parse(text, "t.txt")
    assert (caught.value.line, caught.value.column) == (4, 5)
    assert "an unknown line 'at-some-line" in str(caught.value)


def test_subtopology_ids_are_java_ints() -> None:
    top = "Topologies:\n   Sub-topology: {}\n    Source: x (topics: [t])\n      --> none\n"
    assert parse(top.format(2**31 - 1)).topologies[0].subtopologies[0].id == 2**31 - 1
    assert parse(top.format("007")).topologies[0].subtopologies[0].id == 7
    for bad in (str(2**31), "9" * 5000):
        with pytest.raises(TopologyParseError) as caught:
            parse(top.format(bad), "t.txt")
        assert (caught.value.line, caught.value.column) == (2, 4)
        assert caught.value.expected == "a sub-topology id from 0 to 2147483647"
        assert len(str(caught.value)) < 200


HUGE = "n" * 10_000_000


@pytest.mark.parametrize(
    "text",
    [
        f"Topologies:\n   Sub-topology: 0\n    Source: {HUGE} (topics: [t])\n",
        f"Topologies:\n   Sub-topology: 0\n    Source: {HUGE} (topics: [t])\n      --> none\n"
        f"    Source: {HUGE} (topics: [u])\n      --> none\n",
        f"Topologies:\n   Sub-topology: 0\n    Source: x (topics: [t])\n      --> {HUGE}\n",
        f"Topologies:\n   Sub-topology: 0\n    Source: x (topics: {HUGE}\n      --> none\n",
        f"Topologies:\n   {HUGE}\n",
        f"Topologies:\nINFO x\n    Source: {HUGE} (topics: [t])\n",
    ],
    ids=["no-arrow", "duplicate", "dangling", "unclosed", "unknown-line", "stray"],
)
def test_a_huge_name_gives_a_short_message(text: str) -> None:
    with pytest.raises(TopologyParseError) as caught:
        parse(text, "t.txt")
    message = str(caught.value)
    assert re.fullmatch(r"t\.txt:\d+:\d+: expected .+ but found .+", message)
    assert len(message) < 400, message[:500]
