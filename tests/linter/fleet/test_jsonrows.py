"""A JSON Lines fleet row, checked strictly: a typo or a wrong type is the row's named problem,
never a silently ignored key or a quietly converted value (no Spark needed)."""

from __future__ import annotations

import json

import pytest

from linter.fleet import jsonrows
from linter.fleet.jsonrows import JSON_ROW, json_row, utf8_problem


def _line(**values: object) -> str:
    return json.dumps({"app_id": "a", "version": "v1", "description": "x", **values})


def test_a_good_row_has_no_problem() -> None:
    assert json_row(_line(deployed=True, properties="p=1")) == (
        "a", "v1", "x", "p=1", True, None, ""
    )


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (_line(depolyed=True), 'unknown key "depolyed" (known: app_id, version, description, '
                               "properties, deployed, timestamp)"),
        (_line(version=3), 'version: 3 is not a string'),
        (_line(deployed="yes"), 'deployed: "yes" is not true or false'),
        (_line(timestamp=1700000000), "timestamp: 1700000000 is not a string"),
        (_line(description=["x"]), 'description: ["x"] is not a string'),
    ],
    ids=["typo", "int-version", "string-deployed", "int-timestamp", "list-description"],
)
def test_a_wrong_key_or_type_is_named(line: str, problem: str) -> None:
    row = json_row(line)
    assert row is not None
    assert row[0] == "a"  # still on its app, which it quarantines
    assert row[-1] == problem


@pytest.mark.parametrize("line", ['{"app_id": "a", "descr', "[1, 2]", "3", "[" * 100_000])
def test_what_is_not_a_json_object_is_not_a_row(line: str) -> None:
    row = json_row(line)
    assert row is not None
    assert row[-1].startswith(JSON_ROW)


def test_a_long_valid_line_is_refused_as_too_long(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonrows, "MAX_LINE_CHARS", 100)
    line = _line(description="x" * 200)
    row = json_row(line)
    assert row is not None
    assert row[-1].startswith(f"a line of {len(line)} characters, over the limit of 100: ")
    assert "not a fleet table row" not in row[-1]


def test_blank_lines_are_not_rows() -> None:
    assert json_row("   ") is None


def test_bytes_that_are_not_utf8_are_located() -> None:
    assert utf8_problem(b"ab\ncd\xffe", "column description") == (
        "column description: byte 0xff at byte offset 5 (line 2, column 3) is not UTF-8"
    )
    assert utf8_problem("é".encode(), "line") is None
    assert utf8_problem(None, "line") is None
