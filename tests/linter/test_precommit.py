"""The pre-commit hooks, run by the real ``pre-commit``.

``pre-commit try-repo`` clones this repository at a commit, installs it into a virtualenv of its
own and runs the hook in a temporary git repository, as a user's commit would. To stay offline,
the virtualenv sees the packages already installed here (``VIRTUALENV_SYSTEM_SITE_PACKAGES``) and
pip may not reach an index: ksafe's dependencies are satisfied from the test environment. The
clone is of ``HEAD``: uncommitted changes to ksafe are not what the hook runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT
from tests.linter.gitrepo import GIT_ENV, Repo

EXAMPLES = FIXTURES / "examples"
SNAPSHOT = FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml"

pytestmark = pytest.mark.skipif(shutil.which("pre-commit") is None, reason="pre-commit missing")


def pre_commit(*args: str, cwd: Path, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        **GIT_ENV,
        "NO_COLOR": "1",
        "PRE_COMMIT_COLOR": "never",
        # offline: reuse the installed dependencies, never ask an index
        "VIRTUALENV_SYSTEM_SITE_PACKAGES": "1",
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",  # pip reads "0" here as --no-build-isolation
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    if home is not None:
        env["PRE_COMMIT_HOME"] = str(home)
    return subprocess.run(
        ["pre-commit", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def test_manifest_and_own_config_validate() -> None:
    done = pre_commit("validate-manifest", ".pre-commit-hooks.yaml", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    done = pre_commit("validate-config", ".pre-commit-config.yaml", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def head() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        pytest.skip("the project is not a git checkout; pre-commit try-repo needs one")
    manifest = subprocess.run(
        ["git", "show", "HEAD:.pre-commit-hooks.yaml"], cwd=ROOT, capture_output=True, check=False
    )
    if manifest.returncode != 0:
        pytest.skip(".pre-commit-hooks.yaml is not committed yet")
    return done.stdout.strip()


def try_repo(repo: Repo, hook: str, head: str) -> subprocess.CompletedProcess[str]:
    # try-repo keeps its hook environments in a temporary store: each call installs ksafe anew
    home = repo.root.parent / "pre-commit-home"
    return pre_commit("try-repo", str(ROOT), hook, "--ref", head, cwd=repo.root, home=home)


@pytest.mark.slow
def test_topology_hook_fails_on_an_unsafe_change_until_acknowledged(
    tmp_path: Path, head: str
) -> None:
    repo = Repo(tmp_path / "app")
    repo.write("topology/word-count.txt", (EXAMPLES / "word-count-v1.txt").read_text())
    repo.commit("word count, first version")
    # a filter inserted before count(): the store's generated index shifts
    repo.write("topology/word-count.txt", (EXAMPLES / "word-count-v2.txt").read_text())
    repo.git("add", "topology/word-count.txt")

    failed = try_repo(repo, "ksafe-topology", head)
    out = failed.stdout + failed.stderr
    assert failed.returncode == 1, out
    assert "Failed" in out
    assert "KS201 store-renamed" in out
    assert "topology/word-count.txt" in out

    repo.write(
        "ksafe.toml",
        '[[acknowledgements]]\nrule = "store-renamed"\npath = "topology/word-count.txt"\n'
        'reason = "word-count is reset on this deploy"\n',
    )
    repo.git("add", "ksafe.toml")
    passed = try_repo(repo, "ksafe-topology", head)
    out = passed.stdout + passed.stderr
    assert passed.returncode == 0, out
    assert "Passed" in out


@pytest.mark.slow
def test_cluster_plan_hook_uses_the_configured_snapshot(
    tmp_path: Path, head: str
) -> None:
    repo = Repo(tmp_path / "ops")
    # configured paths resolve inside the directory holding the configuration
    repo.write("cluster.yaml", SNAPSHOT.read_text())
    repo.write("ksafe.toml", 'snapshot = "cluster.yaml"\n')
    repo.commit()
    repo.write("plans/restart.yaml", "- restart: {nodes: [1, 2]}\n")
    repo.git("add", "-A")
    done = try_repo(repo, "ksafe-cluster-plan", head)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "restart-breaks-min-isr" in out
    assert "plans/restart.yaml:1" in out
