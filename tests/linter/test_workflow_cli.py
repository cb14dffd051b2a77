"""``ksafe baseline`` and ``ksafe cluster check-plans`` through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linter.cli import main
from tests.conftest import FIXTURES
from tests.linter.gitrepo import Repo

EXAMPLES = FIXTURES / "examples"
SNAPSHOT = FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml"


@pytest.fixture(autouse=True)
def _no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


def test_baseline_then_lint_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "topology").mkdir()
    (tmp_path / "topology/wc.txt").write_text((EXAMPLES / "word-count-v1.txt").read_text())
    assert main(["lint", "--fail-on", "info", "topology/wc.txt"]) == 1
    capsys.readouterr()
    assert main(["baseline", "topology", "--reason", "adopted", "--expires", "2099-01-01"]) == 0
    printed = capsys.readouterr().out
    assert "[[acknowledgements]]" in printed
    assert 'reason = "adopted"' in printed
    assert not (tmp_path / "ksafe.toml").exists()
    assert main(["baseline", "topology", "--write"]) == 0
    assert "appended to" in capsys.readouterr().err
    assert main(["lint", "--fail-on", "info", "--format", "json", "topology/wc.txt"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["findings"]
    assert all(f["acknowledged"] for f in report["findings"])


def test_baseline_of_a_git_change_into_pyproject(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("pyproject.toml", '[project]\nname = "app"\n\n[tool.ksafe]\nfail-on = "error"\n')
    repo.write("topology/wc.txt", (EXAMPLES / "word-count-v1.txt").read_text())
    repo.commit()
    repo.write("topology/wc.txt", (EXAMPLES / "word-count-v2.txt").read_text())
    monkeypatch.chdir(repo.root)
    assert main(["diff", "--git-base", "HEAD", "topology"]) == 1
    assert main(["baseline", "--git-base", "HEAD", "topology", "--write"]) == 0
    assert "[[tool.ksafe.acknowledgements]]" in (repo.root / "pyproject.toml").read_text()
    capsys.readouterr()
    assert main(["diff", "--git-base", "HEAD", "topology"]) == 0


def test_check_plans_uses_the_configured_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plans").mkdir()
    (tmp_path / "plans/roll.yaml").write_text("- restart: {nodes: [1, 2]}\n")
    (tmp_path / "plans/safe.yaml").write_text("- rolling-restart: {}\n")
    assert main(["cluster", "check-plans", "plans/roll.yaml"]) == 2
    assert "no snapshot for plans/roll.yaml" in capsys.readouterr().err
    # configured paths resolve inside the directory holding the configuration
    (tmp_path / "cluster.yaml").write_bytes(SNAPSHOT.read_bytes())
    (tmp_path / "ksafe.toml").write_text(
        '[[paths]]\npath = "plans/*.yaml"\nsnapshot = "cluster.yaml"\n'
    )
    assert main(["cluster", "check-plans", "plans/safe.yaml"]) == 0
    capsys.readouterr()
    code = main(
        ["cluster", "check-plans", "--format", "json", "plans/roll.yaml", "plans/safe.yaml"]
    )
    assert code == 1
    report = json.loads(capsys.readouterr().out)
    assert report["kind"] == "cluster"
    assert report["inputs"]["plan"] == "plans/roll.yaml"
    assert report["inputs"]["plan-2"] == "plans/safe.yaml"
    names = {f["name"] for f in report["findings"]}
    assert "restart-breaks-min-isr" in names
    located = next(f for f in report["findings"] if f["name"] == "restart-breaks-min-isr")
    assert located["locations"][0]["path"] == "plans/roll.yaml"


def test_config_errors_exit_2_with_their_location(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "wc.txt").write_text((EXAMPLES / "word-count-v1.txt").read_text())
    (tmp_path / "ksafe.toml").write_text('fail-on = "error"\n\n[severity]\nstore-renamd = "info"\n')
    assert main(["lint", "wc.txt"]) == 2
    err = capsys.readouterr().err
    assert "ksafe: ksafe.toml:4: unknown rule 'store-renamd' in [severity]" in err
    assert "Traceback" not in err
    other = tmp_path / "other.toml"
    other.write_text('fail-on = "never"\n')
    assert main(["lint", "--config", str(other), "wc.txt"]) == 0
