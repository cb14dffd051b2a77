"""One JSON Lines row of a fleet table, checked strictly (no Spark here).

Spark's JSON reader, given the table's schema, ignores a key it does not know (``depolyed``
for ``deployed``: the deployed marker silently lost), turns a number into a string where a
string is expected, and refuses a long line with the same words as a broken one. Each line is
parsed here instead: every key must be a column, every value of its column's type, and the
line within :data:`MAX_LINE_CHARS`; anything else is the row's problem, named, and the app is
quarantined with it.
"""

from __future__ import annotations

import json
from typing import Any

from linter.fleet.inputs import COLUMNS

MAX_LINE_CHARS = 64 * 1024 * 1024
"""The longest JSON line read (a describe() text is kilobytes; a line is held in memory)."""

JSON_ROW = (
    "not a fleet table row (a JSON object; app_id, version, description, properties and "
    "timestamp strings, deployed true or false): "
)
_EXCERPT = 160
_SHOWN = 80

Row = tuple[Any, ...]
"""The :data:`~linter.fleet.inputs.COLUMNS` values, then the problem (empty: none)."""


def json_row(line: str) -> Row | None:
    """The row a JSON line holds, with what is wrong with it; None for a blank line."""
    if not line.strip():
        return None
    if len(line) > MAX_LINE_CHARS:
        return _broken(
            f"a line of {len(line)} characters, over the limit of {MAX_LINE_CHARS}: "
            + line[:_EXCERPT]
        )
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return _broken(JSON_ROW + line[:_EXCERPT])
    if not isinstance(value, dict):
        return _broken(JSON_ROW + line[:_EXCERPT])
    problems = [f"unknown key {_quoted(k)} (known: {', '.join(COLUMNS)})"
                for k in value if k not in COLUMNS]  # fmt: skip
    row: list[Any] = []
    for column in COLUMNS:
        item = value.get(column)
        wanted = bool if column == "deployed" else str
        if item is None or isinstance(item, wanted):
            row.append(item)
            continue
        kind = "true or false" if wanted is bool else "a string"
        problems.append(f"{column}: {_quoted(item)} is not {kind}")
        # the app id and version stay shown as given, so the row lands on its app
        row.append(str(item) if column in ("app_id", "version") else None)
    return (*row, "; ".join(problems))


def _broken(problem: str) -> Row:
    return (*([None] * len(COLUMNS)), problem)


def _quoted(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def utf8_problem(data: bytes | bytearray | None, what: str) -> str | None:
    """What is wrong with text that Spark holds as bytes (a Parquet string, a line of a JSON
    file): None when it is UTF-8; else the first bad byte, its offset and its line and column,
    which is what ``ksafe lint`` reports, rather than a U+FFFD put in its place."""
    if data is None:
        return None
    raw = bytes(data)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        good = raw[: error.start].decode("utf-8")
        line = good.count("\n") + 1
        column = len(good) - (good.rfind("\n") + 1) + 1
        return (
            f"{what}: byte 0x{raw[error.start]:02x} at byte offset {error.start} "
            f"(line {line}, column {column}) is not UTF-8"
        )
    return None
