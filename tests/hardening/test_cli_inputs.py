"""The CLI's file arguments and what they lead to: one line ``ksafe: path: what is wrong`` and
exit 2 for a path that cannot be read, "nothing checked" rather than "safe" for a folder with
nothing in it, and no file outside the repository read on a committed link's or a
configuration's say-so."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from linter.cli import ksafe
from tests.hardening.fuzzing import ROOT
from tests.linter.gitrepo import Repo

EXAMPLES = ROOT / "fixtures" / "examples"
SNAPSHOT = ROOT / "fixtures" / "cluster" / "snapshots" / "three-brokers.yaml"
FLEET = ROOT / "fixtures" / "fleet" / "small"
SECRET = "SECRET-LINE-OUTSIDE-THE-REPOSITORY"


def _run(args: list[str]) -> Result:
    return CliRunner().invoke(ksafe, args)


def _one_line(result: Result, *words: str) -> str:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("ksafe: "), lines[0]
    assert "Usage:" not in result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "orders-v1.txt", tmp_path / "before.txt")
    shutil.copy(EXAMPLES / "orders-v2.txt", tmp_path / "after.txt")
    shutil.copy(SNAPSHOT, tmp_path / "snap.yaml")
    (tmp_path / "plan.yaml").write_text("- add-broker: {id: 4}\n")
    (tmp_path / "app.properties").write_text("application.id=orders\n")
    return tmp_path


# Every file argument of every command; BAD stands for the path under test.
COMMANDS = [
    ["parse", "BAD"],
    ["diff", "BAD", "after.txt"],
    ["diff", "before.txt", "BAD"],
    ["diff", "--config-before", "app.properties", "--config-after", "BAD"],
    ["lint", "--config", "BAD", "after.txt"],
    ["cluster", "check", "--snapshot", "snap.yaml", "--plan", "BAD"],
    ["cluster", "check-plans", "--snapshot", "snap.yaml", "BAD"],
    ["report", "--topology-before", "BAD", "--topology-after", "after.txt"],
    ["report", "--snapshot", "snap.yaml", "--plan", "BAD"],
    # read before any Spark session starts
    ["fleet", "scan", str(FLEET), "--out", "out", "--plan", "BAD"],
    ["fleet", "scan", str(FLEET), "--out", "out", "--plan", "plan.yaml", "--snapshot", "BAD"],
]
# a folder is valid here (of captures, of describe() texts), so only missing and FIFO apply
FOLDER_OK_COMMANDS = [
    ["cluster", "snapshot", "BAD"],
    ["cluster", "check", "--snapshot", "BAD", "--plan", "plan.yaml"],
    ["baseline", "BAD"],
    ["lint", "BAD"],
]
KINDS = {
    "missing": "no such file or directory",
    "directory": "is a directory, not a file",
    "fifo": "is a named pipe (FIFO), not a regular file",
}


def _bad(kind: str, path: Path) -> None:
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_file_argument_that_cannot_be_read_is_one_line_and_exit_2(
    args: list[str], kind: str, workdir: Path
) -> None:
    name = next(a for a in args if a.startswith("BAD"))
    _bad(kind, workdir / name)
    _one_line(_run(args), f"{name}: {KINDS[kind]}")


@pytest.mark.parametrize("kind", ["missing", "fifo"])
@pytest.mark.parametrize("args", FOLDER_OK_COMMANDS, ids=" ".join)
def test_a_file_or_folder_argument_that_cannot_be_read_is_one_line_and_exit_2(
    args: list[str], kind: str, workdir: Path
) -> None:
    _bad(kind, workdir / "BAD")
    _one_line(_run(args), f"BAD: {KINDS[kind]}")


def test_an_error_quoting_a_huge_name_is_cut(workdir: Path) -> None:
    name = "n" * 2_000_000
    (workdir / "huge.yaml").write_text(f"- action: {name}\n")
    line = _one_line(_run(["cluster", "check", "--snapshot", "snap.yaml", "--plan", "huge.yaml"]))
    assert len(line) < 1_200
    assert line.endswith("characters, cut)")


# --- nothing checked ------------------------------------------------------------------------


def test_baseline_or_lint_of_a_folder_without_describe_texts_says_nothing_was_checked(
    workdir: Path,
) -> None:
    (workdir / "empty").mkdir()
    (workdir / "notes").mkdir()
    (workdir / "notes" / "README.md").write_text("not a topology\n")
    for folder in ("empty", "notes"):
        for command in ("baseline", "lint"):
            _one_line(_run([command, folder]), f"{folder}: no *.txt describe() file inside")


@pytest.mark.parametrize(
    "command", [["diff", "--git-base", "HEAD"], ["baseline", "--git-base", "HEAD"]]
)
def test_git_base_of_a_folder_without_describe_texts_says_nothing_was_checked(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("topology/README.md", "describe() texts go here\n")
    repo.commit()
    monkeypatch.chdir(repo.root)
    _one_line(_run([*command, "topology"]), "nothing checked")


# --- nothing followed outside ---------------------------------------------------------------


@pytest.mark.parametrize("link", ["topology/orders.txt", "topology/outside/orders.txt"])
def test_git_base_never_follows_a_committed_symlink_out_of_the_repository(
    link: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "orders.txt").write_text(f"{SECRET}\n")
    repo = Repo(tmp_path / "repo")
    repo.write("topology/word-count.txt", (EXAMPLES / "word-count-v1.txt").read_text())
    repo.commit()
    target = repo.root / link
    if link.endswith("outside/orders.txt"):  # a linked directory on the way
        (repo.root / "topology" / "outside").symlink_to(outside)
    else:
        target.symlink_to(outside / "orders.txt")
    repo.commit("link")
    monkeypatch.chdir(repo.root)
    # the folder: a linked file is refused; a linked directory is one entry git does not enter
    result = _run(["diff", "--git-base", "HEAD~1", "topology"])
    assert SECRET not in result.output
    if link == "topology/orders.txt":
        _one_line(result, "topology/orders.txt: a symbolic link out of the repository")
    else:
        assert result.exit_code in (0, 1), result.output
    # the path itself, named on the command line
    result = _run(["diff", "--git-base", "HEAD~1", link])
    assert SECRET not in result.output
    _one_line(result, "outside the git repository")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("properties-after", "../outside.properties"),
        ("properties", "../outside.properties"),
        ("snapshot", "../outside.yaml"),
        ("properties-after", "/etc/os-release"),
        ("topologies", "../*.txt"),
    ],
)
def test_configured_paths_stay_inside_the_configurations_directory(
    key: str, value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "outside.properties").write_text(f"application.id={SECRET}\n")
    shutil.copy(SNAPSHOT, tmp_path / "outside.yaml")
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(EXAMPLES / "orders-v1.txt", repo / "orders.txt")
    table = f'[[paths]]\npath = "*.txt"\n{key} = "{value}"\n'
    top = {"snapshot": f'{key} = "{value}"\n', "topologies": f'{key} = ["{value}"]\n'}
    (repo / "ksafe.toml").write_text(top.get(key, table))
    monkeypatch.chdir(repo)
    line = 1 if key in top else 3
    result = _run(["lint", "orders.txt"])
    _one_line(
        result,
        f"ksafe.toml:{line}: {key} = {value!r} leads outside",
        "--allow-outside-config-paths",
    )
    assert SECRET not in result.output
    allowed = _run(["--allow-outside-config-paths", "lint", "orders.txt"])
    assert allowed.exit_code in (0, 1), allowed.output


def test_a_configured_path_inside_the_directory_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "app.properties").write_text("application.id=orders\n")
    shutil.copy(EXAMPLES / "orders-v1.txt", tmp_path / "orders.txt")
    (tmp_path / "ksafe.toml").write_text(
        '[[paths]]\npath = "*.txt"\nproperties = "config/../config/app.properties"\n'
    )
    monkeypatch.chdir(tmp_path)
    assert _run(["lint", "orders.txt"]).exit_code in (0, 1)
