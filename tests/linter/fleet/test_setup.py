"""Without pyspark or Java the fleet package still imports, and the command says what is missing
(exit 2, one line, no traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

SCAN = """
from click.testing import CliRunner
import linter.fleet.environment, linter.fleet.job, linter.fleet.lineage, linter.cli
r = CliRunner().invoke(linter.cli.ksafe, ["fleet", "scan", "fixtures/fleet/small", "--out", "x"])
print(r.exit_code)
print(r.output)
"""


def _run(prelude: str, env: dict[str, str] | None = None) -> list[str]:
    code = textwrap.dedent(prelude) + SCAN
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_without_pyspark() -> None:
    code, message, *_ = _run("import sys\nsys.modules['pyspark'] = None\n")
    assert code == "2"
    assert message == "ksafe: the fleet scan needs pyspark: pip install 'ksafe[spark]' " \
        "(or bash scripts/setup.sh)"  # fmt: skip


def test_without_java(tmp_path: Path) -> None:
    # without pyspark the command names that first (test_without_pyspark)
    pytest.importorskip("pyspark", reason="pyspark is not installed: its message comes first")
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    env["PATH"] = str(bin_dir)
    env["HOME"] = str(tmp_path)
    code, message, *_ = _run("", env)
    assert code == "2"
    assert message.startswith("ksafe: the fleet scan needs Java 17+")


def test_the_master_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--master`` as given; without it, local unless spark-submit chose one."""
    from linter.fleet.environment import master_to_set

    monkeypatch.delenv("PYSPARK_GATEWAY_PORT", raising=False)
    assert master_to_set(None) == "local[*]"
    assert master_to_set("spark://m:7077") == "spark://m:7077"
    monkeypatch.setenv("PYSPARK_GATEWAY_PORT", "4040")  # under spark-submit
    assert master_to_set(None) is None
    assert master_to_set("local[2]") == "local[2]"
