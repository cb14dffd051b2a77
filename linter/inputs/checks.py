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


def out_of_range(value: str) -> str:
    """The refusal of a number, or a string holding one, that :func:`long_number` (or a reader's
    digit count) finds too long: its digits when they are too many, else its length (a sign or
    padding counts)."""
    digits = sum(c.isdigit() for c in value)
    if digits > MAX_DIGITS:
        return f"a number of {digits} digits is out of range"
    return f"a number written in {len(value)} characters is out of range (at most {MAX_DIGITS})"


def line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
# byte -> "0" for an ASCII digit, " " for anything else (a longer UTF-8 sequence is no digit)
_ASCII_DIGITS_AS_ZERO = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_SCAN_BLOCK = 1 << 20


def has_digit_run(text: str, length: int) -> bool:
    """Whether ``text`` has ``length`` ASCII digits in a row: byte-level work, far faster on a
    large text than a regex (which tries a match at every digit). A block of 1 MB at a time
    (a whole copy of a 20 MB text would be 20 MB more to map for a moment); blocks overlap by
    ``length - 1``, so a run across two blocks is whole in one of them."""
    run = b"0" * length
    step = _SCAN_BLOCK - length + 1
    return any(
        run in text[i : i + _SCAN_BLOCK].encode("utf-8", "surrogatepass").translate(
            _ASCII_DIGITS_AS_ZERO
        )
        for i in range(0, len(text), step)
    )


def check_digits(text: str, path: str) -> None:
    """Refuse a run of digits longer than any Kafka number before a reader converts it."""
    match = _DIGITS.search(text)
    if match is not None:
        line, col = line_col(text, match.start())
        raise MalformedInput(
            path, line, f"a number of {len(match.group())} digits is out of range", col
        )


_BRACKETS = re.compile(r"[\[\]{}\n]")


# byte tables: brackets are ASCII, never part of a longer UTF-8 sequence
_AS_PARENS = bytes.maketrans(b"[{]}", b"(())")
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")


def _shallow(text: str, limit: int) -> bool:
    """Whether every ``[``/``{`` of ``text`` is closed and none is nested deeper than ``limit``,
    told by C-level string work: each pass takes out the innermost pairs, so ``limit`` passes
    leave no opening bracket exactly when no pair is deeper. (False also when a bracket stays
    open: then the walk below decides.)"""
    brackets = text.encode("utf-8", "surrogatepass").translate(_AS_PARENS, _NOT_BRACKET)
    for _ in range(limit):
        if b"(" not in brackets:
            return True
        brackets = brackets.replace(b"()", b"")
    return b"(" not in brackets


def check_nesting(text: str, path: str, limit: int = MAX_DEPTH) -> None:
    """Reject ``[``/``{`` nesting deeper than any real input before a YAML or JSON reader sees
    it: those readers recurse (RecursionError) and PyYAML slows down quadratically with depth."""
    if text.count("[") + text.count("{") <= limit or _shallow(text, limit):
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
