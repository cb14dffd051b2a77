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


def test_run_step_invokes_ksafe_three_ways(checkout: tuple[Repo, str], tmp_path: Path) -> None:
    work, _ = checkout
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls"
    stub = bin_dir / "ksafe"
    stub.write_text(f'#!/bin/sh\necho "$*" >> {log}\n')
    stub.chmod(stub.stat().st_mode | stat.S_IEXEC)
    summary = tmp_path / "summary.md"
    done = run_step(
        steps()["Run ksafe"],
        work.root,
        {
            "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "BASE": "abc123",
            "PATHS": "topology apps/x.txt",
            "FAIL_ON": "warning",
            "CONFIG": "",
            "SARIF_FILE": "out.sarif",
            "SUMMARY": "true",
            "GITHUB_STEP_SUMMARY": str(summary),
        },
    )
    assert done.returncode == 0, done.stderr
    assert log.read_text().splitlines() == [
        "diff --git-base abc123 --format markdown --fail-on never topology apps/x.txt",
        "diff --git-base abc123 --format sarif --output out.sarif --fail-on never "
        "topology apps/x.txt",
        "diff --git-base abc123 --format github --fail-on warning topology apps/x.txt",
    ]
