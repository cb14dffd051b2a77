"""The configuration as ruff and pre-commit users expect it: ``[[paths]]`` globs with gitignore
semantics, and a broken pyproject.toml found by the upward search reported, not skipped."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from linter.cli import ksafe
from linter.config import ConfigError, find_config, load_config, parse_config
from tests.conftest import FIXTURES

V1 = FIXTURES / "examples" / "word-count-v1.txt"


def _config(folder: Path, *globs: str) -> Path:
    text = "".join(f'[[paths]]\npath = "{g}"\napplication-id = "app{i}"\n\n'
                   for i, g in enumerate(globs))
    path = folder / "ksafe.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("glob", "matched", "unmatched"),
    [
        ("topology/*.txt", ["topology/a.txt"], ["topology/old/a.txt", "x/topology/a.txt"]),
        ("topology/**/*.txt", ["topology/a.txt", "topology/old/a.txt"], ["other/a.txt"]),
        ("*.txt", ["a.txt", "deep/down/a.txt"], ["a.txt.bak"]),
        ("./a.txt", ["a.txt"], ["sub/a.txt"]),
        ("**/orders-*.txt", ["orders-1.txt", "x/y/orders-2.txt"], ["x/payments.txt"]),
        ("topology/", ["topology/a.txt", "topology/x/b.txt"], ["a.txt"]),
    ],
)
def test_paths_globs_have_gitignore_semantics(
    glob: str, matched: list[str], unmatched: list[str], tmp_path: Path
) -> None:
    config = load_config(_config(tmp_path, glob))
    for name in matched:
        assert config.for_path(tmp_path / name).application_id == "app0", name
    for name in unmatched:
        assert config.for_path(tmp_path / name).application_id is None, name


def test_paths_globs_are_relative_to_the_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "topology").mkdir()
    config = load_config(_config(tmp_path, "topology/*.txt"))
    monkeypatch.chdir(tmp_path / "topology")
    assert config.for_path("a.txt").application_id == "app0"
    assert config.for_path(tmp_path.parent / "topology" / "a.txt").application_id is None


def test_an_absolute_glob_still_matches(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    folder = tmp_path / "config"
    folder.mkdir()
    config = load_config(_config(folder, f"{elsewhere}/*.txt", "../elsewhere/b-*.txt"))
    assert config.for_path(elsewhere / "a.txt").application_id == "app0"
    assert config.for_path(elsewhere / "b-1.txt").application_id == "app1"
    assert config.for_path(folder / "a.txt").application_id is None


@pytest.mark.parametrize("glob", ["!topology/*.txt", "#comment"])
def test_a_glob_that_matches_nothing_is_refused_with_its_line(glob: str, tmp_path: Path) -> None:
    path = tmp_path / "ksafe.toml"
    text = f'fail-on = "error"\n\n[[paths]]\npath = "{glob}"\n'
    with pytest.raises(ConfigError, match=r"ksafe\.toml:4: path = "):
        parse_config(text, path)


def test_a_broken_pyproject_found_upwards_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.ksafe]\nfail-on = "warning\n')
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert find_config() == tmp_path / "pyproject.toml"
    result = CliRunner().invoke(ksafe, ["lint", str(V1)])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert line.startswith(f"ksafe: {tmp_path / 'pyproject.toml'}:2: invalid TOML"), line


def test_a_broken_pyproject_that_never_mentions_ksafe_is_not_its_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other\n')
    monkeypatch.chdir(tmp_path)
    assert find_config() is None
    assert CliRunner().invoke(ksafe, ["lint", str(V1)]).exit_code == 0
