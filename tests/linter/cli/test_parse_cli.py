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


def test_regression_parse_text_on_a_terminal_printed_escape_sequences(tmp_path: Path) -> None:
    """``ksafe parse`` prints names verbatim into files (the text must parse again) but escaped
    on a terminal, where an ESC sequence in a Processor-API name would repaint the screen."""
    import os
    import pty
    import subprocess
    import sys

    from tests.hardening.test_hostile_text import HOSTILE_TOPOLOGY

    path = tmp_path / "t.txt"
    path.write_text(HOSTILE_TOPOLOGY, encoding="utf-8")
    program = "import sys; from linter.cli import main; sys.exit(main(['parse', sys.argv[1]]))"
    master, slave = pty.openpty()
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", program, str(path)], stdout=slave, cwd=root, check=False
    )
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    assert done.returncode == 0
    assert b"\x1b" not in shown
    assert b"\\x1b[2J" in shown
    piped = subprocess.run(
        [sys.executable, "-c", program, str(path)], capture_output=True, cwd=root, check=True
    )
    assert b"\x1b[2J" in piped.stdout  # a file keeps the name as it is


def test_regression_error_message_carried_escape_sequences_to_stderr(tmp_path: Path) -> None:
    """Messages quote the input (a file name, a conflicting value read from a capture)."""
    from click.testing import CliRunner

    from linter.cli import ksafe

    missing = str(tmp_path / "missing\x1b[2J\x1b]8;;https://e.example\x1b\\.txt")
    result = CliRunner().invoke(ksafe, ["lint", missing])
    assert result.exit_code == 2
    assert "\x1b" not in result.stderr
    assert "missing\\x1b[2J" in result.stderr
