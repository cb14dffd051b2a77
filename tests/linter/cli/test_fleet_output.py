"""What ``ksafe fleet scan`` prints carries no control or bidi character out of an app id or a
file name (no Spark: the warning comes before it starts, the summary is rendered alone)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from linter.cli import ksafe
from linter.cli.fleet import _text
from tests.conftest import FIXTURES

HOSTILE = {
    "osc52": "x\x1b]52;c;ZXZpbA==\x07y",
    "csi": "x\x1b[2Jy",
    "c1": "x\x9b31my",
    "bidi": "x\u202eyz",
    "zero-width": "x\u200by",
}


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_not_read_warning_shows_file_names_escaped(tmp_path: Path, name: str) -> None:
    (tmp_path / "fleet" / "app").mkdir(parents=True)
    (tmp_path / "fleet" / "app" / "v1.txt").write_text(
        (FIXTURES / "examples" / "orders-v1.txt").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "fleet" / f"{name}.txt").write_text("stray", encoding="utf-8")
    # an invalid config stops the command after the warning, before Spark starts
    config = tmp_path / "bad.toml"
    config.write_text('fail-on = "bogus"\n', encoding="utf-8")
    result = CliRunner().invoke(ksafe, [
        "fleet", "scan", str(tmp_path / "fleet"), "--out", str(tmp_path / "out"),
        "--config", str(config),
    ])  # fmt: skip
    assert result.exit_code == 2
    assert "not read" in result.stderr
    assert name not in result.stderr
    assert name.encode("unicode_escape").decode() in result.stderr


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_text_summary_shows_app_ids_escaped(name: str) -> None:
    summary: dict[str, object] = {
        "rows_in": 1, "apps_in": 1, "apps_scanned": 1, "apps_quarantined": 0,
        "findings": {"error": 1, "warning": 0, "info": 0},
        "lineage": {"edges": 0, "topics": 0, "risky_edges": 0},
        "worst_apps": [{"app_id": name, "status": "scanned", "errors": 1, "warnings": 0}],
    }  # fmt: skip
    text = _text(summary)
    assert name not in text
    assert f"  {name.encode('unicode_escape').decode()}: scanned, 1 errors" in text


def test_summary_is_printed_through_the_sanitiser(capsys: pytest.CaptureFixture[str]) -> None:
    from linter.cli.fleet import _say

    _say("app " + HOSTILE["osc52"] + "\nnext " + HOSTILE["bidi"])
    out = capsys.readouterr().out
    assert out == "app x\\x1b]52;c;ZXZpbA==\\x07y\nnext x\\u202eyz\n"
