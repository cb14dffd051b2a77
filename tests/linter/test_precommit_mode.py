"""``ksafe diff --pre-commit`` and ``check-plans`` as the hooks run them, without pre-commit:
which two ends are compared in each mode, deleted files found through git, snapshots skipped.
(tests/linter/test_precommit.py runs the same through the real pre-commit.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.api import check_pre_commit
from linter.config import Config
from tests.conftest import FIXTURES
from tests.linter.gitrepo import Repo

EXAMPLES = FIXTURES / "examples"
V1 = (EXAMPLES / "word-count-v1.txt").read_text()
V2 = (EXAMPLES / "word-count-v2.txt").read_text()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Repo:
    repo = Repo(tmp_path / "app")
    monkeypatch.chdir(repo.root)
    return repo


def rules(report: object) -> set[str]:
    return {f.rule for f in report.findings}  # type: ignore[attr-defined]


def test_refs_from_pre_commit_compare_the_two_commits_not_the_working_tree(repo: Repo) -> None:
    repo.write("topology/wc.txt", V1)
    first = repo.commit()
    repo.write("topology/wc.txt", V2)
    repo.commit()
    repo.write("topology/wc.txt", V1)  # the working tree is not what is checked
    env = {"PRE_COMMIT_FROM_REF": first, "PRE_COMMIT_TO_REF": "HEAD"}
    report = check_pre_commit(["topology/wc.txt"], Config(), env).report
    assert "KS201" in rules(report)
    # without the refs, the working tree (V1) against HEAD (V2): another change
    assert "KS201" in rules(check_pre_commit(["topology/wc.txt"], Config(), {}).report)


def test_a_commit_compares_the_index_with_head_and_unchanged_files_are_linted(
    repo: Repo,
) -> None:
    repo.write("topology/wc.txt", V2)
    repo.commit()
    report = check_pre_commit(["topology/wc.txt"], Config(), {}).report
    assert "KS101" in rules(report)
    assert "KS201" not in rules(report)


def test_unchanged_files_diff_from_the_configured_git_base(repo: Repo) -> None:
    repo.write("topology/wc.txt", V1)
    repo.commit()
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("topology/wc.txt", V2)
    repo.commit()
    report = check_pre_commit(["topology/wc.txt"], Config(git_base="main"), {}).report
    assert "KS201" in rules(report)


def test_deleted_describe_files_are_found_but_other_deleted_files_are_not(repo: Repo) -> None:
    repo.write("topology/wc.txt", V1)
    repo.write("topology/notes.txt", "not a describe() text\n")
    first = repo.commit()
    repo.git("rm", "-q", "topology/wc.txt", "topology/notes.txt")
    # staged, not committed: a commit's view
    report = check_pre_commit([], Config(), {}).report
    assert rules(report) == {"KS903"}
    assert all("notes" not in str(f.locations) for f in report.findings)
    repo.commit()
    env = {"PRE_COMMIT_FROM_REF": first, "PRE_COMMIT_TO_REF": "HEAD"}
    assert rules(check_pre_commit([], Config(), env).report) == {"KS903"}


def test_nothing_to_check_is_safe(repo: Repo) -> None:
    repo.write("README.md", "x\n")
    repo.commit()
    report = check_pre_commit([], Config(), {}).report
    assert report.findings == ()


def test_check_plans_skips_a_snapshot_by_content(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    from linter.cli import main

    snapshot = (FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml").read_text()
    repo.write("plans/prod.yaml", snapshot)
    repo.write("plans/restart.yaml", "- restart: {nodes: [1, 2]}\n")
    code = main(["cluster", "check-plans", "--snapshot", "plans/prod.yaml",
                 "plans/prod.yaml", "plans/restart.yaml"])
    captured = capsys.readouterr()
    assert code == 1
    assert "plans/prod.yaml: a cluster snapshot, not a change plan: skipped" in captured.err
    assert "restart-breaks-min-isr" in captured.out
    assert "unknown key" not in captured.out + captured.err
