"""Every way a describe() text can be wrong ends in one located TopologyParseError.

Each file in ``fixtures/topology/errors/`` has its expected message in a ``.error`` golden next
to it (``pytest --update-goldens`` rewrites them); the message is always
``path:line:col: expected ... but found ...``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from linter.topology.parse import TopologyParseError, decode, parse, parse_file

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
