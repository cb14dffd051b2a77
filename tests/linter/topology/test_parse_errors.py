"""Every way a describe() text can be wrong ends in one located TopologyParseError.

Each file in ``fixtures/topology/errors/`` has its expected message in a ``.error`` golden next
to it (``pytest --update-goldens`` rewrites them); the message is always
``path:line:col: expected ... but found ...``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from linter.topology.parse import TopologyParseError, decode, parse, parse_file, parse_plain

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "topology"
ERRORS = FIXTURES / "errors"
MESSAGE = re.compile(r"[^:]+:\d+:\d+: expected .+ but found .+")


@pytest.mark.parametrize("path", sorted(ERRORS.glob("*.txt")), ids=lambda p: p.stem)
def test_error_matches_its_golden(path: Path, update_goldens: bool) -> None:
    relative = path.relative_to(FIXTURES)
    with pytest.raises(TopologyParseError) as caught:
        parse_file(path)
    message = str(caught.value).replace(str(path), str(relative))
    assert MESSAGE.fullmatch(message), message
    assert "\n" not in message
    golden = path.with_suffix(".error")
    if update_goldens or not golden.exists():
        golden.write_text(message + "\n", encoding="utf-8")
    assert message + "\n" == golden.read_text(encoding="utf-8")


def located(text: str) -> tuple[int, int, str, str]:
    with pytest.raises(TopologyParseError) as caught:
        parse(text, "t.txt")
    error = caught.value
    assert str(error).startswith(f"t.txt:{error.line}:{error.column}: expected ")
    return error.line, error.column, error.expected, error.found


NODE = "Topologies:\n   Sub-topology: 0\n    Source: in (topics: [in])\n      --> {}\n\n"


def test_dangling_arrow_points_at_the_name() -> None:
    line, column, expected, found = located(NODE.format("a, b"))
    assert (line, column) == (4, 11)
    assert expected == "the name of a node of this sub-topology"
    assert found == "'a'"


def test_dangling_predecessor() -> None:
    text = (
        "Topologies:\n   Sub-topology: 0\n    Source: in (topics: [in])\n      --> out\n"
        "    Sink: out (topic: t)\n      <-- in, ghost\n\n"
    )
    assert located(text)[:2] == (6, 15)


def test_lenient_mode_still_rejects_structure_errors() -> None:
    with pytest.raises(TopologyParseError):
        parse("Topologies:\n    Source: in (topics: [in])\n      --> none\n", strict=False)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("", (1, 1)),
        ("   \n\n", (3, 1)),
        ("Topologies:\n   Sub-topology: x\n", (2, 4)),
        ("Topologies:\n   Sub-topology: 0\n    Sink: s (topic: t)\n      --> x\n", (4, 7)),
        ("Topologies:\n   Sub-topology: 0\n    Source: (topics: [a])\n      --> none\n", (3, 5)),
        ("Topologies:\n   Sub-topology: 0\n    Processor: p (stores: x)\n", (3, 5)),
    ],
    ids=["empty", "blank", "bad-id", "sink-with-successors", "no-name", "stores-not-a-list"],
)
def test_small_errors_are_located(text: str, where: tuple[int, int]) -> None:
    assert located(text)[:2] == where


def test_no_partial_model_for_a_bad_second_topology() -> None:
    good = "Topology: a:\n   Sub-topology: 0\n    Source: in (topics: [in])\n      --> none\n\n"
    bad = "Topology: b:\n   Sub-topology: 0\n    Source: x (topics: [in])\n      --> y\n"
    with pytest.raises(TopologyParseError) as caught:
        parse(good + bad)
    assert caught.value.line == 9


def test_decode_rejects_bytes_that_are_not_text() -> None:
    with pytest.raises(TopologyParseError) as caught:
        decode(b"Topologies:\n  \xff\xfe", "f.txt")
    assert (caught.value.line, caught.value.column) == (2, 3)
    assert "0xff" in caught.value.found


def test_missing_file_is_an_os_error() -> None:
    with pytest.raises(OSError):  # noqa: PT011 - the CLI reports any OSError the same way
        parse_file(FIXTURES / "no-such-file.txt")


def test_regression_topology_utf16_without_bom_reported_a_nul_character(tmp_path: Path) -> None:
    from linter.topology.errors import TopologyParseError
    from linter.topology.parse import parse_file

    path = tmp_path / "t.txt"
    path.write_bytes("Topologies:\n   Sub-topology: 0\n".encode("utf-16-le"))
    with pytest.raises(TopologyParseError, match=r"t\.txt:1:1: .*UTF-16 without a byte-order mark"):
        parse_file(path)


def test_regression_topology_long_line_of_repeated_nodes_was_quadratic() -> None:
    # a regex retried at every `Source:` of one long line is quadratic in its length. The limit
    # is a hang guard far above the real cost (milliseconds), not a timing assertion.
    from linter.topology.errors import TopologyParseError
    from linter.topology.parse import parse
    from tests.hardening.fuzzing import time_limit

    unit = "    Source: KSTREAM-SOURCE-0000000000 (topics: [one"
    text = "Topologies:\n   Sub-topology: 0\n" + unit * 20_000
    with time_limit(30), pytest.raises(TopologyParseError, match=r"x\.txt:3:"):
        parse(text, "x.txt")


@pytest.mark.parametrize(
    "node",
    [
        "Processor: p (stores: [, ])\n      --> none\n      <-- s",
        "Processor: p (stores: [a, , b])\n      --> none\n      <-- s",
        "Processor: p (stores: [a, ])\n      --> none\n      <-- s",
    ],
)
def test_regression_empty_store_name_broke_the_round_trip(node: str) -> None:
    # `[, ]` read as a store named "" (found by the fuzz campaign's round-trip check): no Java
    # Set prints an empty item, and "" renders as `[]`, which reads back as no store at all
    from linter.topology.errors import TopologyParseError
    from linter.topology.parse import parse

    text = (
        "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [t])\n      --> p\n"
        f"    {node}\n\n"
    )
    with pytest.raises(TopologyParseError, match=r"x\.txt:5:5: "):
        parse(text, "x.txt")
    with pytest.raises(TopologyParseError, match=r"x\.txt:5:5: "):  # the careful path too
        parse(text.replace("Source: s", "Source:\ts"), "x.txt")


def test_regression_empty_topic_name_broke_the_round_trip() -> None:
    from linter.topology.errors import TopologyParseError
    from linter.topology.parse import parse

    text = "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [a, ])\n      --> none\n\n"
    with pytest.raises(TopologyParseError, match=r"x\.txt:3:5: "):
        parse(text, "x.txt")


def test_regression_long_neighbour_list_with_a_comma_name_raised_recursion_error() -> None:
    # resolving `--> p0, ..., p2999, x, y` against the declared names recursed once per item
    from linter.topology.parse import parse
    from linter.topology.render import render

    procs = [f"p{i}" for i in range(3_000)]
    lines = [
        "Topologies:",
        "   Sub-topology: 0",
        "    Source: s (topics: [t])",
        "      --> " + ", ".join([*procs, "x, y"]),
    ]
    for p in [*procs, "x, y"]:
        lines += [f"    Processor: {p} (stores: [])", "      --> none", "      <-- s"]
    model = parse("\n".join(lines) + "\n\n", "x.txt")
    source = next(n for _, _, n in model.nodes() if n.name == "s")
    assert source.successors == frozenset([*procs, "x, y"])
    assert parse(render(model), "again.txt") == model


def test_regression_topology_long_line_of_headers_was_quadratic() -> None:
    # a long line of `Topology: topology-1:` headers is refused in linear time
    import time

    from linter.topology.parse import TopologyParseError, parse

    text = "Topology: topology-1:" * 12_000 + " and more\n"  # not a header: no `:` at its end
    started = time.process_time()
    with pytest.raises(TopologyParseError, match=r"<text>:1:1: expected a describe\(\) text"):
        parse(text)
    assert time.process_time() - started < 2


@pytest.mark.parametrize("prefix", ["", "orders-app-1  | "], ids=["plain", "prefixed"])
def test_a_spliced_paste_whose_arrows_disagree_is_refused(prefix: str) -> None:
    """Two pastes joined mid-node read as a graph nobody built: a `-->` line names a node whose
    `<--` line does not name it back. Both readers refuse it, at the first node that says so."""
    text = (FIXTURES / "errors" / "arrows-disagree.txt").read_text(encoding="utf-8")
    text = "".join(prefix + line for line in text.splitlines(keepends=True))
    expected = (len(prefix) + 5, "`-->` and `<--` lines that agree")
    for read in (parse, parse_plain):
        with pytest.raises(TopologyParseError) as caught:
            read(text, "t.txt")
        assert (caught.value.line, caught.value.column) == (5, expected[0])
        assert expected[1] in caught.value.expected
        assert caught.value.found == (
            "'OrdersToStream' under `-->` of 'AggregateDailyOrders', which is not under `<--` "
            "of 'OrdersToStream'"
        )


def test_a_back_arrow_without_its_forward_one_is_refused() -> None:
    """Every `-->` has its `<--`, but one `<--` names a node that does not list it under `-->`."""
    text = (FIXTURES / "errors" / "arrows-disagree.txt").read_text(encoding="utf-8")
    text = text.replace(
        "      <-- DailyOrders\n    Sink", "      <-- AggregateDailyOrders, DailyOrders\n    Sink"
    )
    for read in (parse, parse_plain):
        with pytest.raises(TopologyParseError) as caught:
            read(text, "t.txt")
        assert (caught.value.line, caught.value.column) == (8, 5)
        assert caught.value.found.startswith("'DailyOrders' under `<--` of 'OrdersToStream'")
