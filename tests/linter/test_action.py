"""The composite action's shell steps, run for real against a local "origin" with a stub ksafe."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT
from tests.linter.gitrepo import GIT_ENV, Repo


def steps() -> dict[str, dict[str, Any]]:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    return {s.get("name", s.get("uses", "")): s for s in action["runs"]["steps"]}


def run_step(
    step: dict[str, Any], cwd: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", step["run"]],
        cwd=cwd,
        env={**os.environ, **GIT_ENV, **env},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def checkout(tmp_path: Path) -> tuple[Repo, str]:
    """A clone on a feature branch, one commit ahead of origin/main."""
    origin = Repo(tmp_path / "origin")
    origin.write("topology/app.txt", "v1\n")
    base = origin.commit("base")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(origin.root), str(clone)], check=True)
    work = Repo(clone, init=False)
    work.git("checkout", "-q", "-b", "feature")
    work.write("topology/app.txt", "v2\n")
    work.commit("feature")
    origin.write("other.txt", "moved on\n")
    origin.commit("main moved on")
    return work, base


def test_base_is_the_merge_base_with_the_target_branch(
    checkout: tuple[Repo, str], tmp_path: Path
) -> None:
    work, base = checkout
    output = tmp_path / "github_output"
    done = run_step(
        steps()["Find the base revision"],
        work.root,
        {"BASE": "", "TARGET": "main", "GITHUB_OUTPUT": str(output)},
    )
    assert done.returncode == 0, done.stderr
    assert output.read_text() == f"base={base}\n"


def test_explicit_base_and_missing_target(checkout: tuple[Repo, str], tmp_path: Path) -> None:
    work, _ = checkout
    output = tmp_path / "out"
    step = steps()["Find the base revision"]
    done = run_step(step, work.root, {"BASE": "v0", "TARGET": "", "GITHUB_OUTPUT": str(output)})
    assert output.read_text() == "base=v0\n"
    done = run_step(step, work.root, {"BASE": "", "TARGET": "", "GITHUB_OUTPUT": str(output)})
    assert done.returncode == 2
    assert "::error title=ksafe::no base revision" in done.stdout


STUB = """#!/usr/bin/env python3
import sys
from pathlib import Path
with open(sys.argv[0] + ".log", "a") as log:
    log.write("\\n".join(sys.argv[1:]) + "\\n")
args = sys.argv[1:]
for i, arg in enumerate(args):
    if arg == "--also-write":
        fmt, _, file = args[i + 1].partition("=")
        Path(file).write_text('{"verdict": "unsafe"}' if fmt == "json" else fmt + " report")
sys.exit(1)
"""


def test_run_step_runs_ksafe_once_for_every_format(
    checkout: tuple[Repo, str], tmp_path: Path
) -> None:
    work, _ = checkout
    stub = tmp_path / "bin" / "ksafe"
    stub.parent.mkdir()
    stub.write_text(STUB)
    stub.chmod(stub.stat().st_mode | stat.S_IEXEC)
    summary, output = tmp_path / "summary.md", tmp_path / "output"
    summary.write_text("before\n")
    done = run_step(
        steps()["Run ksafe"],
        work.root,
        {
            "KSAFE": str(stub),
            "BASE": "abc123",
            "PATHS": "topology\napps/with space.txt\n",
            "FAIL_ON": "warning",
            "CONFIG": "",
            "SARIF_FILE": "out dir.sarif",
            "SUMMARY": "true",
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_OUTPUT": str(output),
            "WORK": str(tmp_path),
        },
    )
    assert done.returncode == 1, done.stderr  # ksafe's own exit code
    assert Path(f"{stub}.log").read_text().splitlines() == [
        "diff", "--git-base", "abc123", "--format", "github",
        "--also-write", f"json={tmp_path}/ksafe-report.json",
        "--fail-on", "warning",
        "--also-write", "sarif=out dir.sarif",
        "--also-write", f"markdown={tmp_path}/ksafe-summary.md",
        "--", "topology", "apps/with space.txt",
    ]
    assert summary.read_text() == "before\nmarkdown report"
    assert output.read_text().splitlines() == ["verdict=unsafe", "sarif-file=out dir.sarif"]
    assert (work.root / "out dir.sarif").read_text() == "sarif report"


def test_one_line_of_paths_is_split_at_spaces(checkout: tuple[Repo, str], tmp_path: Path) -> None:
    work, _ = checkout
    stub = tmp_path / "ksafe"
    stub.write_text(STUB.replace("sys.exit(1)", "sys.exit(0)"))
    stub.chmod(stub.stat().st_mode | stat.S_IEXEC)
    output = tmp_path / "output"
    env = {"KSAFE": str(stub), "BASE": "b", "PATHS": "a.txt b", "FAIL_ON": "", "CONFIG": "",
           "SARIF_FILE": "", "SUMMARY": "false", "GITHUB_OUTPUT": str(output),
           "WORK": str(tmp_path)}
    done = run_step(steps()["Run ksafe"], work.root, env)
    assert done.returncode == 0, done.stderr
    assert Path(f"{stub}.log").read_text().splitlines()[-3:] == ["--", "a.txt", "b"]
    assert output.read_text().splitlines() == ["verdict=unsafe", "sarif-file="]


def test_the_caller_s_python_is_left_alone_unless_asked() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    setup = [s for s in action["runs"]["steps"] if "setup-python" in s.get("uses", "")]
    assert [s["if"] for s in setup] == ["inputs.python-version != ''"]
    assert action["inputs"]["python-version"]["default"] == ""
    install = steps()["Install ksafe"]["run"]
    assert "-m venv" in install
    assert set(action["outputs"]) == {"base", "verdict", "sarif-file"}
