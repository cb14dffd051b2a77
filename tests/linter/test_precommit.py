"""The pre-commit hooks, run by the real ``pre-commit`` the ways teams run them.

A throwaway repository lists this project (at its committed ``HEAD``: uncommitted changes to
ksafe are not what the hook runs) in its ``.pre-commit-config.yaml``; ``pre-commit`` clones it
and installs it with its dependencies into a hook virtualenv of its own, from the package index,
exactly as on a user's machine or in CI. Nothing of the test's own interpreter leaks into that
virtualenv, so the tests behave the same from a virtualenv, the system interpreter or CI. The
hook environment is built once per test session; without a reachable index the tests skip.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.conftest import FIXTURES, ROOT
from tests.linter.gitrepo import GIT_ENV, Repo

EXAMPLES = FIXTURES / "examples"
SNAPSHOT = FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml"

pytestmark = pytest.mark.skipif(shutil.which("pre-commit") is None, reason="pre-commit missing")

# what a user's environment must not hand the hook's own virtualenv
_LEAKS = ("VIRTUALENV_SYSTEM_SITE_PACKAGES", "PIP_NO_INDEX", "PYTHONPATH", "VIRTUAL_ENV")


def pre_commit(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """pre-commit with its store in ``home`` (never the user's, nor a file in the project)."""
    env = {
        k: v for k, v in os.environ.items() if k not in _LEAKS and not k.startswith("PRE_COMMIT")
    }
    env.update(GIT_ENV)
    env.update({"NO_COLOR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    env["PRE_COMMIT_HOME"] = str(home)
    return subprocess.run(
        ["pre-commit", *args, "--color", "never"] if args[0] == "run" else ["pre-commit", *args],
        cwd=cwd, env=env, capture_output=True, text=True, check=False,
    )


def test_manifest_and_own_config_validate(tmp_path: Path) -> None:
    done = pre_commit("validate-manifest", ".pre-commit-hooks.yaml", cwd=ROOT, home=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    done = pre_commit("validate-config", ".pre-commit-config.yaml", cwd=ROOT, home=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def _index_reachable() -> bool:
    url = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple/")
    parts = urlsplit(url)
    if parts.scheme == "file":
        return True
    try:
        with socket.create_connection(
            (parts.hostname or "pypi.org", parts.port or (443 if parts.scheme == "https" else 80)),
            timeout=5,
        ):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def head() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        pytest.skip("the project is not a git checkout; pre-commit clones it at a commit")
    manifest = subprocess.run(
        ["git", "show", "HEAD:.pre-commit-hooks.yaml"], cwd=ROOT, capture_output=True, check=False
    )
    if manifest.returncode != 0:
        pytest.skip(".pre-commit-hooks.yaml is not committed yet")
    if not _index_reachable():
        pytest.skip("the package index is out of reach: the hook cannot install its dependencies")
    return done.stdout.strip()


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One pre-commit store for the module: ksafe's hook environment is installed once."""
    return tmp_path_factory.mktemp("pre-commit-home")


def user_repo(root: Path, head: str, *, hooks: str = "ksafe-topology") -> Repo:
    repo = Repo(root)
    ids = "".join(f"      - id: {h}\n" for h in hooks.split())
    repo.write(
        ".pre-commit-config.yaml",
        f"repos:\n  - repo: {ROOT}\n    rev: {head}\n    hooks:\n{ids}",
    )
    return repo


def run(repo: Repo, home: Path, *args: str) -> tuple[int, str]:
    done = pre_commit("run", *args, cwd=repo.root, home=home)
    return done.returncode, done.stdout + done.stderr


def unsafe_history(repo: Repo) -> str:
    """v1 committed, then v2 (a filter inserted before count(): the store's generated index
    shifts, KS201) as the last commit. Returns the first commit."""
    repo.write("topology/word-count.txt", (EXAMPLES / "word-count-v1.txt").read_text())
    first = repo.commit("word count, first version")
    repo.write("topology/word-count.txt", (EXAMPLES / "word-count-v2.txt").read_text())
    repo.commit("word count: a filter before count()")
    return first


@pytest.mark.slow
def test_from_ref_to_ref_fails_on_the_unsafe_last_commit(
    tmp_path: Path, head: str, home: Path
) -> None:
    repo = user_repo(tmp_path / "app", head)
    first = unsafe_history(repo)
    code, out = run(repo, home, "--from-ref", first, "--to-ref", "HEAD")
    assert code == 1, out
    assert "KS201 store-renamed" in out
    assert "topology/word-count.txt" in out


@pytest.mark.slow
def test_from_ref_to_ref_reports_a_deleted_topology_file(
    tmp_path: Path, head: str, home: Path
) -> None:
    repo = user_repo(tmp_path / "app", head)
    repo.write("topology/word-count.txt", (EXAMPLES / "word-count-v1.txt").read_text())
    first = repo.commit()
    repo.git("rm", "-q", "topology/word-count.txt")
    repo.commit("retire word count")
    code, out = run(repo, home, "--from-ref", first, "--to-ref", "HEAD")
    assert code == 1, out
    assert "KS903 topology-file-deleted" in out


@pytest.mark.slow
def test_all_files_lints_without_a_base_and_diffs_from_the_configured_one(
    tmp_path: Path, head: str, home: Path
) -> None:
    repo = user_repo(tmp_path / "app", head)
    repo.write("topology/word-count.txt", (EXAMPLES / "word-count-v1.txt").read_text())
    repo.commit()
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("topology/word-count.txt", (EXAMPLES / "word-count-v2.txt").read_text())
    repo.commit("word count: a filter before count()")

    # no git-base: every file is linted on its own (a generated store name is a warning, shown
    # by --verbose as a passing hook's output is)
    code, out = run(repo, home, "--all-files", "--verbose")
    assert code == 0, out
    assert "KS101 generated-store-name" in out
    assert "KS201" not in out

    repo.write("ksafe.toml", 'git-base = "main"\n')
    repo.commit("ksafe: pre-commit --all-files diffs from main")
    code, out = run(repo, home, "--all-files")
    assert code == 1, out
    assert "KS201 store-renamed" in out


@pytest.mark.slow
def test_commit_fails_on_an_unsafe_change_until_acknowledged(
    tmp_path: Path, head: str, home: Path
) -> None:
    repo = user_repo(tmp_path / "app", head)
    repo.write("topology/word-count.txt", (EXAMPLES / "word-count-v1.txt").read_text())
    repo.commit("word count, first version")
    repo.write("topology/word-count.txt", (EXAMPLES / "word-count-v2.txt").read_text())
    repo.git("add", "topology/word-count.txt")

    code, out = run(repo, home)
    assert code == 1, out
    assert "Failed" in out
    assert "KS201 store-renamed" in out

    repo.write(
        "ksafe.toml",
        '[[acknowledgements]]\nrule = "store-renamed"\npath = "topology/word-count.txt"\n'
        'reason = "word-count is reset on this deploy"\n',
    )
    repo.git("add", "ksafe.toml")
    code, out = run(repo, home)
    assert code == 0, out
    assert "Passed" in out

    # a staged deletion alone still runs the hook (no filename reaches it)
    repo.commit()
    repo.git("rm", "-q", "topology/word-count.txt")
    code, out = run(repo, home)
    assert code == 1, out
    assert "KS903 topology-file-deleted" in out


@pytest.mark.slow
def test_cluster_plan_hook_skips_a_snapshot_kept_beside_the_plans(
    tmp_path: Path, head: str, home: Path
) -> None:
    repo = user_repo(tmp_path / "ops", head, hooks="ksafe-cluster-plan")
    repo.write("plans/prod-snapshot.yaml", SNAPSHOT.read_text())
    repo.write("ksafe.toml", 'snapshot = "plans/prod-snapshot.yaml"\n')
    repo.commit()
    repo.write("plans/restart.yaml", "- restart: {nodes: [1, 2]}\n")
    repo.git("add", "-A")
    code, out = run(repo, home)
    assert code == 1, out
    assert "restart-breaks-min-isr" in out
    assert "plans/restart.yaml:1" in out

    code, out = run(repo, home, "--all-files")
    assert code == 1, out
    assert "plans/prod-snapshot.yaml: a cluster snapshot, not a change plan: skipped" in out
    assert "unknown key" not in out
