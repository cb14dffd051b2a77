"""Files compared with their version at a git revision: added, modified, deleted, renamed."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.gitbase import FileChange, GitError, changes
from tests.linter.gitrepo import Repo

LONG = "".join(f"line {i} of a topology description\n" for i in range(40))


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.write("topology/orders.txt", "orders v1\n" + LONG)
    repo.write("topology/payments.txt", "payments v1\n" + LONG.upper())
    repo.write("topology/retired.txt", "retired\n")
    repo.write("README.md", "docs\n")
    repo.commit("base")
    return repo


def by_status(found: list[FileChange]) -> dict[str, list[tuple[str, str | None]]]:
    out: dict[str, list[tuple[str, str | None]]] = {}
    for change in found:
        out.setdefault(change.status, []).append((change.path, change.old_path))
    return out


def test_added_modified_deleted_renamed(repo: Repo) -> None:
    repo.write("topology/orders.txt", "orders v2\n" + LONG)
    (repo.root / "topology/retired.txt").unlink()
    (repo.root / "topology/payments.txt").rename(repo.root / "topology/billing.txt")
    repo.write("topology/new.txt", "brand new\n")
    repo.commit("after")
    found = changes("HEAD~1", ["topology"], cwd=repo.root)
    assert by_status(found) == {
        "added": [("topology/new.txt", None)],
        "renamed": [("topology/billing.txt", "topology/payments.txt")],
        "modified": [("topology/orders.txt", "topology/orders.txt")],
        "deleted": [("topology/retired.txt", "topology/retired.txt")],
    }
    texts = {c.status: c.old_text for c in found}
    assert texts["modified"] == "orders v1\n" + LONG
    assert texts["renamed"] == "payments v1\n" + LONG.upper()
    assert texts["deleted"] == "retired\n"
    assert texts["added"] is None
    renamed = next(c for c in found if c.status == "renamed")
    assert renamed.label_before == "topology/payments.txt@HEAD~1"


def test_working_tree_changes_count_without_committing(repo: Repo) -> None:
    repo.write("topology/orders.txt", "orders v3 uncommitted\n" + LONG)
    (found,) = changes("HEAD", ["topology/orders.txt"], cwd=repo.root)
    assert found.status == "modified"
    assert found.old_text is not None
    assert found.old_text.startswith("orders v1")


def test_staged_rename_is_followed_when_only_the_new_name_is_given(repo: Repo) -> None:
    repo.git("mv", "topology/payments.txt", "topology/billing.txt")
    (found,) = changes("HEAD", ["topology/billing.txt"], cwd=repo.root)
    assert (found.status, found.old_path) == ("renamed", "topology/payments.txt")
    assert found.label_before == "topology/payments.txt@HEAD"


def test_old_name_given_follows_to_the_new_one(repo: Repo) -> None:
    (repo.root / "moved").mkdir()
    repo.git("mv", "topology/payments.txt", "moved/billing.txt")
    (found,) = changes("HEAD", ["topology/payments.txt"], cwd=repo.root)
    assert (found.status, found.path) == ("renamed", "moved/billing.txt")


def test_deleted_single_file(repo: Repo) -> None:
    (repo.root / "topology/retired.txt").unlink()
    (found,) = changes("HEAD", ["topology/retired.txt"], cwd=repo.root)
    assert found.status == "deleted"


def test_untracked_new_file_is_added(repo: Repo) -> None:
    repo.write("topology/draft.txt", "draft\n")
    repo.write("topology/.gitkeep", "")
    statuses = {c.path: c.status for c in changes("HEAD", ["topology"], cwd=repo.root)}
    assert statuses["topology/draft.txt"] == "added"
    assert statuses["topology/orders.txt"] == "modified"
    assert "topology/.gitkeep" not in statuses


def test_a_directory_stands_for_its_txt_files(repo: Repo) -> None:
    repo.write("topology/README.md", "how to regenerate these files\n")
    repo.write("topology/orders.properties", "application.id=orders\n")
    repo.write("topology/.gitkeep", "")
    found = changes("HEAD", ["topology"], cwd=repo.root)
    assert {c.path for c in found} == {
        "topology/orders.txt", "topology/payments.txt", "topology/retired.txt"
    }
    # named one by one, any file is taken
    (readme,) = changes("HEAD", ["topology/README.md"], cwd=repo.root)
    assert readme.status == "added"


def test_works_from_a_subdirectory_with_relative_paths(repo: Repo) -> None:
    repo.write("topology/orders.txt", "orders v2\n" + LONG)
    sub = repo.root / "topology"
    (found,) = changes("HEAD", ["orders.txt"], cwd=sub)
    assert (found.path, found.old_path, found.status) == (
        "orders.txt",
        "topology/orders.txt",
        "modified",
    )
    (up,) = changes("HEAD", ["../README.md"], cwd=sub)
    assert (up.path, up.old_path) == ("../README.md", "README.md")


def test_errors(repo: Repo, tmp_path: Path) -> None:
    with pytest.raises(GitError, match="unknown git revision 'nope'"):
        changes("nope", ["topology"], cwd=repo.root)
    with pytest.raises(GitError, match="no such file now nor at HEAD"):
        changes("HEAD", ["topology/ghost.txt"], cwd=repo.root)
    with pytest.raises(GitError, match="outside the git repository"):
        changes("HEAD", [str(tmp_path)], cwd=repo.root)
    outside = tmp_path / "plain"
    outside.mkdir()
    with pytest.raises(GitError, match="not inside a git repository"):
        changes("HEAD", ["x"], cwd=outside)


def test_first_commit_compares_with_the_empty_tree(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "fresh")
    repo.write("topology/a.txt", "a\n")
    repo.git("add", "-A")
    (found,) = changes("HEAD", ["topology"], cwd=repo.root)
    assert (found.status, found.path) == ("added", "topology/a.txt")


ORDERS = (Path(__file__).parents[2] / "fixtures" / "examples" / "orders-v2.txt").read_text()
RENAMED_AND_EDITED = ORDERS.replace("stores: [orders]", "stores: [orders-store]")


def test_renamed_and_edited_between_two_commits_is_a_rename(repo: Repo) -> None:
    repo.write("topology/orders.txt", ORDERS)
    base = repo.commit("orders as a describe() text")
    (repo.root / "topology/orders.txt").unlink()
    repo.write("topology/orders-app.txt", RENAMED_AND_EDITED)  # no git mv
    repo.commit("orders renamed and its store renamed")
    repo.write("topology/orders-app.txt", "a later working-tree edit is not HEAD\n")
    found = changes(base, ["topology"], cwd=repo.root, head="HEAD")
    assert by_status(found)["renamed"] == [("topology/orders-app.txt", "topology/orders.txt")]
    renamed = next(c for c in found if c.status == "renamed")
    assert (renamed.old_text, renamed.new_text) == (ORDERS, RENAMED_AND_EDITED)
    assert "deleted" not in by_status(found)


def test_renamed_and_edited_in_the_working_tree_not_yet_added_is_a_rename(repo: Repo) -> None:
    repo.write("topology/orders.txt", ORDERS)
    repo.commit("orders as a describe() text")
    index_before = (repo.root / ".git" / "index").read_bytes()
    (repo.root / "topology/orders.txt").unlink()
    repo.write("topology/orders-app.txt", RENAMED_AND_EDITED)  # untracked
    found = changes("HEAD", ["topology"], cwd=repo.root)
    assert by_status(found)["renamed"] == [("topology/orders-app.txt", "topology/orders.txt")]
    # the user's index is not touched (git add -N went to a copy)
    assert (repo.root / ".git" / "index").read_bytes() == index_before
    assert "orders-app.txt" in repo.git("status", "--porcelain", "--untracked-files=all")
