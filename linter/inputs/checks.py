"""Checks on raw text before a YAML or JSON reader sees it: digit runs longer than any Kafka
number, nesting deeper than any real input; and the line and column of an offset."""

from __future__ import annotations

import re

from linter.inputs.errors import MAX_DEPTH, MAX_DIGITS, MalformedInput

_NUMERIC = re.compile(r"[+-]?[0-9_]*[0-9][0-9_.]*")


def long_number(value: str) -> bool:
    """A number (or a string holding one: a config value, an entity) too long to be any
    Kafka value; the readers and rules that convert it would hit Python's conversion limit."""
    return len(value) > MAX_DIGITS and _NUMERIC.fullmatch(value.strip()) is not None


def line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def check_digits(text: str, path: str) -> None:
    """Refuse a run of digits longer than any Kafka number before a reader converts it."""
    match = _DIGITS.search(text)
    if match is not None:
        line, col = line_col(text, match.start())
        raise MalformedInput(
            path, line, f"a number of {len(match.group())} digits is out of range", col
        )


_BRACKETS = re.compile(r"[\[\]{}\n]")


def check_nesting(text: str, path: str, limit: int = MAX_DEPTH) -> None:
    """Reject ``[``/``{`` nesting deeper than any real input before a YAML or JSON reader sees
    it: those readers recurse (RecursionError) and PyYAML slows down quadratically with depth."""
    if text.count("[") + text.count("{") <= limit:
        return
    depth, line = 0, 1
    for match in _BRACKETS.finditer(text):
        char = match.group()
        if char == "\n":
            line += 1
        elif char in "[{":
            depth += 1
            if depth > limit:
                raise MalformedInput(
                    path, line, f"nested more than {limit} levels deep; no real input is"
                )
        else:
            depth = max(depth - 1, 0)
