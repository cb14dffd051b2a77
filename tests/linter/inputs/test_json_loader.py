"""The JSON loader's C-level short cuts (bracket depth, digit runs, strings that may hold a long
number) decide exactly as the walks they spare: the same values, the same refusals."""

from __future__ import annotations

import json
import random
import re

import pytest

from linter.inputs.checks import _shallow, check_nesting
from linter.inputs.errors import MAX_DEPTH, MAX_DIGITS, MalformedInput
from linter.inputs.json_loader import load_json


def _deepest(text: str) -> int:
    """The depth check_nesting's walk reaches (a stray closing bracket counts as none)."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(depth - 1, 0)
    return deepest


@pytest.mark.parametrize("seed", range(300))
def test_the_bracket_passes_say_shallow_only_when_the_walk_stays_within_the_limit(
    seed: int,
) -> None:
    rnd = random.Random(seed)
    limit = rnd.choice([1, 2, 3, 5, 8])
    if seed % 2:  # balanced, of a random depth around the limit
        text = ""
        for _ in range(rnd.randint(1, 6)):
            depth = rnd.randint(1, limit + 2)
            text += "".join(rnd.choice("[{") for _ in range(depth)) + "x"
            text += "".join(rnd.choice("]}") for _ in range(depth)) + ",\n"
        assert _shallow(text, limit) == (_deepest(text) <= limit)
    else:  # anything, stray and unclosed brackets included
        text = "".join(rnd.choice("[]{}x\n") for _ in range(rnd.randint(0, 40)))
        if _shallow(text, limit):
            assert _deepest(text) <= limit


def test_a_deep_text_is_still_refused_at_its_line() -> None:
    text = "[\n" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(MalformedInput, match=f"nested more than {MAX_DEPTH} levels deep") as error:
        check_nesting(text, "deep.json")
    assert str(error.value).startswith(f"deep.json:{MAX_DEPTH + 1}:")
    check_nesting("[" * MAX_DEPTH + "]" * MAX_DEPTH + "[]" * 100, "ok.json")


def _refusal(text: str) -> str:
    with pytest.raises(MalformedInput) as error:
        load_json(text, "in.json")
    return str(error.value)


LONG = "1" * (MAX_DIGITS + 1)


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (f"-{'1' * MAX_DIGITS}", "an int of MAX_DIGITS digits with its sign"),
        (LONG, "an int"),
        (f"1.{'0' * 4 * MAX_DIGITS}", "a float"),
        (f'"{LONG}"', "a string"),
        ('"' + "\\u0031" * (MAX_DIGITS + 1) + '"', "a string of escaped digits"),
        ('"' + " " * MAX_DIGITS + '1"', "a number padded with spaces"),
        ('"' + "\\u00a0" * MAX_DIGITS + '1"', "a number padded with escaped no-break spaces"),
        ('"\\t' + "1_000." * 6 + '"', "digits, underscores, dots and an escaped tab"),
    ],
)
def test_a_long_number_is_refused_where_it_is_with_or_without_other_digit_runs(
    value: str, why: str
) -> None:
    alone = _refusal('{\n  "a": ' + value + "\n}")
    shape = r"in\.json:2:8: a number (of \d+ digits|written in \d+ characters) is out of range"
    assert re.fullmatch(shape + r"( \(at most 30\))?", alone), (why, alone)
    # a digit run elsewhere (in a name) takes the other road through the loader: same refusal
    assert _refusal('{\n  "a": ' + value + ',\n  "b": "' + "9" * MAX_DIGITS + 'x"\n}') == alone
    # a longer run in a string before it is not taken for the number: the value is pointed at
    before = _refusal('{\n  "b": "' + "9" * (MAX_DIGITS + 9) + 'x", "a": ' + value + "\n}")
    assert before == alone.replace(":2:8:", f":2:{8 + MAX_DIGITS + 9 + 10}:"), (why, before)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (f"-{'1' * MAX_DIGITS}", "a number written in 31 characters is out of range (at most 30)"),
        (f"1.{'0' * 4 * MAX_DIGITS}", "a number of 121 digits is out of range"),
        ('"' + "\\u0031" * (MAX_DIGITS + 1) + '"', "a number of 31 digits is out of range"),
        (
            '"' + " " * MAX_DIGITS + '1"',
            "a number written in 31 characters is out of range (at most 30)",
        ),
    ],
)
def test_the_refusal_counts_what_is_too_long(value: str, message: str) -> None:
    assert _refusal('{"a": ' + value + "}") == f"in.json:1:7: {message}"


@pytest.mark.parametrize("seed", range(50))
def test_texts_without_long_numbers_load_to_what_json_reads(seed: int) -> None:
    rnd = random.Random(seed)

    def value(depth: int) -> object:
        kind = rnd.randrange(6 if depth < 4 else 3)
        if kind == 0:
            return rnd.choice([rnd.randint(-(10**28), 10**28), rnd.random() * 1e10, None, True])
        if kind == 1:
            # ends in x: no string reads as a number, however long
            chars = (rnd.choice('09 _.+-ab\t\u00a0"\\') for _ in range(rnd.randint(0, 40)))
            return "".join(chars) + "x"
        if kind == 2:
            return rnd.randint(0, 10**9)
        if kind == 3:
            return [value(depth + 1) for _ in range(rnd.randint(0, 4))]
        return {f"k{i}": value(depth + 1) for i in range(rnd.randint(0, 4))}

    data = {"root": [value(0) for _ in range(20)]}
    shown = (json.dumps(data), json.dumps(data, indent=2), json.dumps(data, ensure_ascii=False))
    for text in shown:
        assert load_json(text, "in.json") == data
