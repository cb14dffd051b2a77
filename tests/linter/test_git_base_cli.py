"""``ksafe diff --git-base`` end to end in a temporary repository (real git, real rules)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linter.cli import main
from tests.conftest import FIXTURES
from tests.linter.gitrepo import Repo

EXAMPLES = FIXTURES / "examples"


def example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.write("topology/word-count.txt", example("word-count-v1.txt"))
    repo.write("topology/orders.txt", example("orders-v1.txt"))
    repo.commit("base")
    monkeypatch.chdir(repo.root)
    monkeypatch.setenv("NO_COLOR", "1")
    return repo


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["diff", "--format", "json", *argv])
    return code, json.loads(capsys.readouterr().out)


def names(report: dict) -> list[str]:  # type: ignore[type-arg]
    return sorted(f["name"] for f in report["findings"] if f.get("acknowledged") is None)


def test_unchanged_files_pass(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, "--git-base", "HEAD", "topology")
    assert code == 0
    assert report["findings"] == []


def test_modified_file_is_diffed(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    repo.write("topology/word-count.txt", example("word-count-v2.txt"))
    code, report = run_json(capsys, "--git-base", "HEAD", "topology/word-count.txt")
    assert code == 1
    assert "store-renamed" in names(report)
    renamed = next(f for f in report["findings"] if f["name"] == "store-renamed")
    paths = {(loc["path"], loc["side"]) for loc in renamed["locations"]}
    assert ("topology/word-count.txt@HEAD", "before") in paths
    assert ("topology/word-count.txt", "after") in paths


def test_new_file_is_linted_and_deleted_file_reported(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("topology/extra.txt", example("word-count-v1.txt"))
    (repo.root / "topology/orders.txt").unlink()
    code, report = run_json(capsys, "--git-base", "HEAD", "topology")
    assert code == 1
    found = names(report)
    assert "topology-file-deleted" in found
    assert "generated-store-name" in found  # the new file, linted
    deleted = next(f for f in report["findings"] if f["name"] == "topology-file-deleted")
    assert deleted["rule"] == "KS903"
    assert {"kind": "store", "name": "orders"} in deleted["resources"]


def test_renamed_file_is_followed(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    repo.git("mv", "topology/word-count.txt", "topology/wc.txt")
    assert main(["diff", "--git-base", "HEAD", "topology/wc.txt"]) == 0
    err = capsys.readouterr().err
    assert "followed the rename of topology/word-count.txt to topology/wc.txt (since HEAD)" in err
    assert main(["diff", "-q", "--git-base", "HEAD", "topology/wc.txt"]) == 0
    assert capsys.readouterr().err == ""
    code, report = run_json(capsys, "--git-base", "HEAD", "topology/wc.txt")
    assert (code, report["findings"]) == (0, [])
    repo.write("topology/wc.txt", example("word-count-v2.txt"))
    code, report = run_json(capsys, "--git-base", "HEAD", "topology/wc.txt")
    assert code == 1
    assert "store-renamed" in names(report)


def test_from_a_subdirectory_with_a_config_acknowledgement(
    repo: Repo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("topology/word-count.txt", example("word-count-v2.txt"))
    repo.write(
        "ksafe.toml",
        '[[acknowledgements]]\nrule = "store-renamed"\npath = "topology/word-count.txt"\n'
        'reason = "word-count is reset on deploy"\n',
    )
    monkeypatch.chdir(repo.root / "topology")
    code, report = run_json(capsys, "--git-base", "HEAD", "word-count.txt")
    assert code == 0
    acked = [f for f in report["findings"] if f.get("acknowledged")]
    assert [f["name"] for f in acked] == ["store-renamed"]
    assert acked[0]["acknowledged"] == "word-count is reset on deploy"


def test_errors_exit_2(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "--git-base", "no-such-ref", "topology"]) == 2
    assert "unknown git revision 'no-such-ref'" in capsys.readouterr().err
    assert main(["diff", "--git-base", "HEAD"]) == 2
    assert main(["diff", "a.txt"]) == 2


def test_github_format_annotates_the_current_file(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("topology/word-count.txt", example("word-count-v2.txt"))
    assert main(["diff", "--git-base", "HEAD", "--format", "github", "topology"]) == 1
    lines = capsys.readouterr().out.splitlines()
    error = next(line for line in lines if line.startswith("::error "))
    assert error.startswith("::error file=topology/word-count.txt,line=")


def test_streams_properties_are_compared_across_the_revision_too(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(
        "ksafe.toml",
        '[[paths]]\npath = "topology/word-count.txt"\nproperties = "config/wc.properties"\n',
    )
    repo.write("config/wc.properties", "application.id=word-count\n")
    repo.commit("config")
    repo.write("config/wc.properties", "application.id=word-count-v2\n")
    code, report = run_json(capsys, "--git-base", "HEAD", "topology/word-count.txt")
    assert code == 1
    changed = next(f for f in report["findings"] if f["name"] == "application-id-changed")
    assert "word-count-v2" in changed["message"]
    sides = {(loc["path"], loc["side"]) for loc in changed["locations"]}
    assert ("config/wc.properties@HEAD", "before") in sides
    assert ("config/wc.properties", "after") in sides


def test_two_apps_get_one_verdict_and_plan_each(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two applications changed in one run are deployed separately: each gets its own named
    verdict and plan (a reset for one, blue-green for the other), never one merged list."""
    repo.write("topology/word-count.txt", example("word-count-v2.txt"))
    repo.write("topology/orders.txt", example("orders-v2.txt"))
    code, report = run_json(capsys, "--git-base", "HEAD", "topology")
    assert code == 1
    assert report["plan"] is None
    assert report["verdict"] == "unsafe"
    by_name = {a["application"]: a for a in report["apps"]}
    assert set(by_name) == {"word-count", "orders"}
    assert by_name["word-count"]["path"] == "topology/word-count.txt"
    assert by_name["word-count"]["plan"]["strategy"] == "application-reset"
    assert by_name["orders"]["plan"]["strategy"] == "blue-green"
    reset = "\n".join(by_name["word-count"]["plan"]["steps"])
    assert "--input-topics words " in reset
    assert "orders-by-customer" not in reset  # the other app's input stays out of this plan
    assert "words" not in "\n".join(by_name["orders"]["plan"]["steps"])
    for fmt, heading in (
        ("text", "Application word-count (topology/word-count.txt): unsafe"),
        (
            "markdown",
            "#### word-count (`topology/word-count.txt`): unsafe, deployment plan: "
            "application-reset",
        ),
    ):
        main(["diff", "--format", fmt, "--git-base", "HEAD", "topology"])
        out = capsys.readouterr().out
        assert heading in out, fmt
        assert out.count("Deployment plan: application-reset") == 1 or fmt == "markdown"


def test_one_app_keeps_the_single_plan(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    repo.write("topology/word-count.txt", example("word-count-v2.txt"))
    _, report = run_json(capsys, "--git-base", "HEAD", "topology")
    assert report["apps"] == []
    assert report["plan"]["strategy"] == "application-reset"
    assert report["plan"]["complete"] is True
