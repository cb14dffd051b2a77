"""The one JSON loader: no key given twice in one object (naming both lines), no number too long
to be a value of any Kafka field, every failure a located :class:`MalformedInput`; and the
position of a value in a JSON text, which JSON readers do not keep."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from linter.inputs.checks import (
    check_nesting,
    has_digit_run,
    line_col,
    long_number,
    out_of_range,
)
from linter.inputs.errors import MAX_DIGITS, MalformedInput, quote


class _DuplicateKey(Exception):
    def __init__(self, key: str):
        self.key = key


class _LongNumber(Exception):
    def __init__(self, token: str):
        self.token = token


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise _LongNumber(text)
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS * 4:
        raise _LongNumber(text)
    return float(text)


# A JSON text's strings and numbers in order: a number token found outside every string
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?')
# A string token that may decode to a long number (long_number): more than MAX_DIGITS characters
# each a digit, sign, dot, underscore or space, as it is or escaped. Without one, no string of the
# text needs the walk of _check_strings.
_MAYBE_LONG_STRING = re.compile(
    rf'"(?:[0-9_.+\-\s]|\\u[0-9a-fA-F]{{4}}|\\[^u]){{{MAX_DIGITS + 1},}}"'
)


def load_json(text: str, path: str) -> Any:
    """The value of a JSON text, or a located :class:`MalformedInput`: a key twice in one
    object names both lines."""
    check_nesting(text, path)
    try:
        # Without a run of MAX_DIGITS digits no number of the text is long enough for _int or
        # _float to refuse (an int needs the run; a float, four times the length, has one)
        if not has_digit_run(text, MAX_DIGITS):
            value = json.loads(text, object_pairs_hook=_pairs)
        else:
            value = json.loads(
                text, object_pairs_hook=_pairs, parse_int=_int, parse_float=_float
            )
    except json.JSONDecodeError as error:
        raise MalformedInput(
            path, error.lineno, f"not valid JSON: {error.msg}", error.colno
        ) from None
    except _DuplicateKey as error:
        lines = _key_lines(text, error.key)
        at = lines[1] if len(lines) > 1 else None
        both = f" (lines {lines[0]} and {lines[1]})" if len(lines) > 1 else ""
        raise MalformedInput(
            path,
            at,
            f"key {quote(error.key)} given twice{both}; the second would replace the first",
        ) from None
    except _LongNumber as error:
        # the reader reads in order and stops at the first long number: the first such token
        at = next((m.start() for m in _TOKEN.finditer(text) if m.group() == error.token), None)
        line, col = line_col(text, at) if at is not None else (None, None)
        raise MalformedInput(path, line, out_of_range(error.token), col) from None
    except RecursionError:
        raise MalformedInput(path, None, "nested too deeply to read") from None
    if _MAYBE_LONG_STRING.search(text) is not None:
        _check_strings(value, text, path)
    return value


def _check_strings(value: Any, text: str, path: str) -> None:
    """A string holding a number too long for any Kafka value is refused as a number is."""
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, str) and long_number(current):
            line, col = _string_position(text, current)
            raise MalformedInput(path, line, out_of_range(current), col)
        if isinstance(current, dict):
            stack.extend(current.values())
            stack.extend(current.keys())
        elif isinstance(current, list):
            stack.extend(current)


def _string_position(text: str, value: str) -> tuple[int | None, int | None]:
    """Where a string token decoding to ``value`` is: as json writes it, else written with
    escapes (JSON keeps no positions)."""
    at = text.find(json.dumps(value))
    if at < 0:
        at = next(
            (
                m.start()
                for m in _TOKEN.finditer(text)
                if m.group().startswith('"') and _decoded(m.group()[1:-1]) == value
            ),
            -1,
        )
    return line_col(text, at) if at >= 0 else (None, None)


def _key_lines(text: str, key: str) -> list[int]:
    """Lines where ``"key":`` occurs (the duplicate is among them; JSON keeps no positions)."""
    pattern = re.compile(re.escape(json.dumps(key)) + r"\s*:")
    found = [line_col(text, m.start())[0] for m in pattern.finditer(text)]
    if len(found) < 2:  # the key was written with escapes: search its decoded form too
        found = [
            line_col(text, m.start())[0]
            for m in re.finditer(r'"((?:[^"\\]|\\.)*)"\s*:', text)
            if _decoded(m.group(1)) == key
        ]
    return found


def _decoded(raw: str) -> str | None:
    try:
        value = json.loads(f'"{raw}"')
    except ValueError:
        return None
    return value if isinstance(value, str) else None


_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def json_position(text: str, path: Sequence[str | int]) -> tuple[int, int] | None:
    """``(line, column)`` of the value at ``path`` (object keys and list indices) in a JSON text
    :func:`load_json` accepted, or of the deepest part of ``path`` that exists; ``None`` when not
    even the first part does. JSON readers keep no positions, so a value that loads but is wrong
    (a broker id beyond int32) is found again in the text to point at it."""
    decoder = json.JSONDecoder()

    def space(pos: int) -> int:
        match = _JSON_SPACE.match(text, pos)
        return match.end() if match else pos

    def child(pos: int, part: str | int) -> int | None:
        opening = text[pos : pos + 1]
        if opening not in ("{", "[") or isinstance(part, str) != (opening == "{"):
            return None
        pos, index = space(pos + 1), 0
        while text[pos : pos + 1] not in ("}", "]", ""):
            if opening == "{":
                key, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
                pos = space(space(pos) + 1)  # past the colon
                if key == part:
                    return pos
            elif index == part:
                return pos
            pos = space(decoder.raw_decode(text, pos)[1])
            pos, index = space(pos + 1) if text[pos : pos + 1] == "," else pos, index + 1
        return None

    found: int | None = None
    try:
        pos: int | None = space(0)
        for part in path:
            assert pos is not None
            pos = child(pos, part)
            if pos is None:
                break
            found = pos
    except (ValueError, IndexError, RecursionError):
        pass
    return line_col(text, found) if found is not None else None
