"""``ksafe parse`` and ``ksafe schema topology`` end to end: formats, exit codes, one-line
located errors without a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from linter.cli import ksafe
from linter.topology.parse import parse_file
from linter.topology.render import render, to_jsonable
from tests.conftest import FIXTURES

VARIANTS = FIXTURES / "topology" / "variants"
ERRORS = FIXTURES / "topology" / "errors"
CANONICAL = str(VARIANTS / "canonical.txt")


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(ksafe, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_text_output_is_the_canonical_text() -> None:
    code, out, err = invoke("parse", str(VARIANTS / "tabs-ragged.txt"))
    assert (code, err) == (0, "")
    assert out == Path(CANONICAL).read_text(encoding="utf-8")


def test_json_output_is_the_model() -> None:
    code, out, _ = invoke("parse", "--format", "json", CANONICAL)
    assert code == 0
    assert json.loads(out) == to_jsonable(parse_file(CANONICAL))


def test_several_files_in_json_are_a_list() -> None:
    named = str(VARIANTS / "named.txt")
    code, out, _ = invoke("parse", "--format", "json", CANONICAL, named)
    assert code == 0
    assert [item["path"] for item in json.loads(out)] == [CANONICAL, named]


def test_output_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    code, out, _ = invoke("parse", CANONICAL, "--output", str(target))
    assert (code, out) == (0, "")
    assert target.read_text(encoding="utf-8") == render(parse_file(CANONICAL))


def test_json_matches_the_published_schema() -> None:
    code, schema_text, _ = invoke("schema", "topology")
    assert code == 0
    schema = json.loads(schema_text)
    _, out, _ = invoke("parse", "--format", "json", str(VARIANTS / "legacy-1.0.txt"))
    jsonschema.validate(json.loads(out), schema)


@pytest.mark.parametrize("path", sorted(ERRORS.glob("*.txt")), ids=lambda p: p.stem)
def test_bad_input_exits_2_with_one_located_line(path: Path) -> None:
    code, out, err = invoke("parse", str(path))
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    (line,) = err.splitlines()
    assert re.fullmatch(rf"ksafe: {re.escape(str(path))}:\d+:\d+: expected .+ but found .+", line)


def test_missing_file_exits_2() -> None:
    code, _, err = invoke("parse", str(VARIANTS / "no-such-file.txt"))
    assert code == 2
    assert "Traceback" not in err
