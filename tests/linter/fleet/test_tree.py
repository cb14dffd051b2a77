"""The local directory reader: nothing in an app directory is passed over, blocks or is
silently changed (no Spark needed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from linter.fleet import tree
from linter.fleet.scan import Version
from linter.fleet.tree import app_dirs, read_app
from tests.conftest import FIXTURES

TEXT = (FIXTURES / "fleet" / "small" / "billing" / "v1.txt").read_text(encoding="utf-8")


def _read(root: Path) -> dict[str, list[Version]]:
    return dict(read_app(item) for item in app_dirs(str(root)))


def _problem(versions: list[Version]) -> str:
    assert versions[0].problem is not None
    return versions[0].problem


def test_a_good_app_is_read_as_before(tmp_path: Path) -> None:
    (tmp_path / "billing").mkdir()
    (tmp_path / "billing" / "v1.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "team" / "orders").mkdir(parents=True)
    (tmp_path / "team" / "orders" / "v2.txt").write_text(TEXT, encoding="utf-8")
    apps = _read(tmp_path)
    assert sorted(apps) == ["billing", "orders"]
    assert [(v.version, v.problem) for v in apps["billing"]] == [("v1", None)]
    assert apps["orders"][0].description == TEXT


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ((), "empty/: no <version>.txt or <version>.properties (found: nothing)"),
        ((".DS_Store", "_SUCCESS"), "empty/: only hidden files, which are not read: "
                                    ".DS_Store, _SUCCESS"),
    ],
    ids=["empty", "only-hidden"],
)
def test_an_app_directory_without_a_visible_file_is_an_app_with_a_problem(
    tmp_path: Path, files: tuple[str, ...], expected: str
) -> None:
    (tmp_path / "empty").mkdir()
    for name in files:
        (tmp_path / "empty" / name).write_text("x", encoding="utf-8")
    assert expected in _problem(_read(tmp_path)["empty"])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_is_refused_not_read(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "v1.txt").write_text(TEXT, encoding="utf-8")
    os.mkfifo(tmp_path / "app" / "v2.txt")
    problem = _problem(_read(tmp_path)["app"])
    assert f"{tmp_path}/app/v2.txt: not read: a FIFO, not a regular file" in problem


def test_invalid_utf8_is_located_as_lint_does(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "v1.txt").write_bytes(b"Topologies:\n  bad \xff here\n")
    problem = _problem(_read(tmp_path)["app"])
    assert problem.startswith(f"{tmp_path}/app/v1.txt:2:7: expected UTF-8 or UTF-16 text")
    assert "byte 0xff" in problem
    assert "\ufffd" not in problem


def test_a_file_over_the_limit_is_named_with_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tree, "MAX_FILE_BYTES", 100)
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "v1.txt").write_text(TEXT, encoding="utf-8")
    problem = _problem(_read(tmp_path)["app"])
    assert f"{len(TEXT.encode())} bytes, over the limit of 100 bytes" in problem
