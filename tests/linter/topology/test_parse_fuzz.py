"""Whatever the text, ``parse`` returns a model or raises TopologyParseError: never another
exception, never a partial model."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linter.topology.model import Description
from linter.topology.parse import TopologyParseError, decode, parse
from linter.topology.render import render

VARIANTS = Path(__file__).resolve().parents[3] / "fixtures" / "topology" / "variants"
SEEDS = [
    (VARIANTS / name).read_text(encoding="utf-8")
    for name in ("canonical.txt", "papi-names.txt", "legacy-1.0.txt", "tutorial-inline.txt")
]
PIECES = [
    "Topologies:\n ",
    "Topology: x:\n",
    "Sub-topologies:\n",
    "Global Stores:\n  none\n",
    "   Sub-topology: 0\n",
    "  Sub-topology: 1 for global store (will not generate tasks)\n",
    "    Source: s (topics: [t])\n",
    "    Processor: p (stores: [])\n",
    "    Sink: k (topic: t)\n",
    "      --> p\n",
    "      <-- s\n",
    "      --> none\n",
    "\n",
    "\t",
    "(",
    ")",
    ", ",
    "\r\n",
    "INFO log line\n",
]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


MESSAGE = re.compile(r"fuzz\.txt:\d+:\d+: expected .+ but found .+", re.DOTALL)


def parses_or_fails_cleanly(text: str) -> None:
    message = ""
    try:
        model = parse(text, "fuzz.txt")
    except TopologyParseError as error:
        message = str(error)
    if message:
        assert MESSAGE.fullmatch(message), message
        return
    assert isinstance(model, Description)
    assert parse(render(model)) == model


@SETTINGS
@given(st.lists(st.sampled_from(PIECES), max_size=25))
def test_pieces_of_the_format(pieces: list[str]) -> None:
    parses_or_fails_cleanly("".join(pieces))


@SETTINGS
@given(st.sampled_from(SEEDS), st.integers(min_value=0), st.text(max_size=8), st.integers(0, 5))
def test_edited_real_texts(seed: str, at: int, insert: str, delete: int) -> None:
    at %= len(seed) + 1
    parses_or_fails_cleanly(seed[:at] + insert + seed[at + delete :])


@SETTINGS
@given(st.text(max_size=200))
def test_any_text(text: str) -> None:
    parses_or_fails_cleanly(text)


@SETTINGS
@given(st.binary(max_size=64))
def test_any_bytes(data: bytes) -> None:
    try:
        text = decode(data, "fuzz.txt")
    except TopologyParseError:
        return
    parses_or_fails_cleanly(text)
