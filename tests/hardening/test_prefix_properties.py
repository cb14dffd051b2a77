"""Never a silent partial model: describe() texts pasted with a prefix on every line and log noise.

Generated valid models are printed, given a prefix on each line (the forms people paste:
``kubectl logs --timestamps``, ``docker compose logs``, comment markers, or random ones) and
log lines around them, then parsed. Where the text is a clean paste the model comes back exactly;
whatever is done to it (the prefix changes or stops half-way, log lines inside the description),
the parser either returns exactly the nodes the text shows or fails with a line and column in
the text: never fewer nodes with exit 0.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from linter.topology.model import Description
from linter.topology.parse import TopologyParseError, parse
from tests.hardening.strategies import describe_text, descriptions, shuffled_by

Prefixer = Callable[[int], str]

KNOWN = ("// ", "    // ", "# ", " * ", "\t* ", "orders-app-1  | ", "web_1 | ", "-- ", "> ")
# Random prefixes from characters that cannot spell a keyword of the format.
_PREFIX_CHARS = "0123456789-:.TZ|/#*[]<> \t"
# Log lines with no describe() line in them (an arrow between words is prose, not a line).
NOISE = (
    "INFO  [main] o.a.k.s.KafkaStreams - State transition from CREATED to REBALANCING",
    "WARN  [StreamThread-1] record --> skipped (deserialization)",
    "Exception in thread \"main\" java.lang.IllegalStateException: Source topic missing",
    "\tat org.apache.kafka.streams.KafkaStreams.start(KafkaStreams.java:1234)",
    "DEBUG Processor metrics registered; Sink count: 3",
    "----------------------------------------",
)


LOGGER = "2026-11-23 10:15:00,123 INFO  [main] com.example.App - "


def _stamp(rng: random.Random) -> Prefixer:
    def prefix(_: int) -> str:
        fraction = str(rng.randrange(10**9)).rjust(9, "0").rstrip("0")
        second = rng.randrange(60)
        return f"2026-11-23T10:15:{second:02d}" + (f".{fraction}" if fraction else "") + "Z "

    return prefix


@st.composite
def prefixers(draw: st.DrawFn) -> Prefixer:
    kind = draw(st.sampled_from(("known", "random", "stamp")))
    if kind == "stamp":
        return _stamp(draw(st.randoms(use_true_random=False)))
    if kind == "known":
        fixed = draw(st.sampled_from(KNOWN))
    else:
        fixed = draw(st.text(alphabet=_PREFIX_CHARS, min_size=1, max_size=16))
    return lambda _: fixed


def _prefixed(lines: list[str], prefix: Prefixer) -> list[str]:
    return [prefix(i) + line for i, line in enumerate(lines)]


def _node_lines(text: str) -> int:
    return sum(
        line.lstrip(" \t").startswith(("Source: ", "Processor: ", "Sink: "))
        for line in text.split("\n")
    )


def _count(model: Description) -> int:
    return sum(len(sub.nodes) for t in model.topologies for sub in t.subtopologies)


def _assert_positions_point_into(text: str, model: Description) -> None:
    lines = text.split("\n")
    keyword = {"source": "Source: ", "processor": "Processor: ", "sink": "Sink: "}
    for topology in model.topologies:
        for _, node in topology.nodes():
            at = node.position
            assert lines[at.line - 1][at.column - 1 :].startswith(keyword[node.kind] + node.name)


def _located_or_exact(text: str, model: Description) -> None:
    """The invariant: exactly the model, or an error that points into the text."""
    failed: TopologyParseError | None = None
    try:
        parsed = parse(text, "t.txt")
    except TopologyParseError as error:
        failed = error
    if failed is not None:
        lines = text.split("\n")
        assert 1 <= failed.line <= len(lines), str(failed)
        assert 1 <= failed.column <= len(lines[failed.line - 1]) + 1, str(failed)
        assert "\n" not in str(failed)
        return
    assert parsed.topologies == model.topologies
    _assert_positions_point_into(text, parsed)


@given(descriptions(), prefixers(), st.randoms(use_true_random=False))
def test_a_clean_prefixed_paste_reads_exactly(
    model: Description, prefix: Prefixer, rng: random.Random
) -> None:
    lines = describe_text(model, shuffled_by(rng)).split("\n")
    before = [prefix(-1) + rng.choice(NOISE) for _ in range(rng.randint(0, 3))]
    after = [rng.choice(NOISE) for _ in range(rng.randint(0, 3))]
    pasted = _prefixed(lines, prefix)
    if prefix(0)[-1:].isspace() and rng.random() < 0.5:
        # a logger's own prefix on the message's first line, behind the one on every line
        pasted[0] = prefix(0) + LOGGER + lines[0]
    text = "\n".join(before + pasted + after) + "\n"
    parsed = parse(text, "t.txt")
    assert parsed.topologies == model.topologies
    assert _count(parsed) == _node_lines("\n".join(lines))
    _assert_positions_point_into(text, parsed)


@given(descriptions(), prefixers(), prefixers(), st.randoms(use_true_random=False))
def test_a_damaged_paste_is_exact_or_located(
    model: Description, prefix: Prefixer, other: Prefixer, rng: random.Random
) -> None:
    lines = _prefixed(describe_text(model, shuffled_by(rng)).split("\n"), prefix)
    damage = rng.choice(("switch", "stop", "noise", "noise-prefixed", "interleave"))
    cut = rng.randrange(len(lines) + 1)
    if damage == "switch":  # the rest carries another prefix
        plain = describe_text(model, shuffled_by(rng)).split("\n")
        lines = lines[:cut] + _prefixed(plain, other)[cut:]
    elif damage == "stop":  # the rest carries none
        plain = describe_text(model, shuffled_by(rng)).split("\n")
        lines = lines[:cut] + plain[cut:]
    elif damage == "interleave":  # another replica's lines in between
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(lines) + 1)
            copied = rng.choice(lines)[len(prefix(0)) :] if lines else ""
            lines.insert(at, "orders-app-2  | " + copied)
    else:
        for _ in range(rng.randint(1, 3)):
            noise = rng.choice(NOISE)
            at = rng.randrange(len(lines) + 1)
            lines.insert(at, prefix(at) + noise if damage == "noise-prefixed" else noise)
    _located_or_exact("\n".join(lines) + "\n", model)
