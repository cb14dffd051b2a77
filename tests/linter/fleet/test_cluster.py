"""The README's cluster command against a real standalone Spark cluster on 127.0.0.1.

A master and one worker are started from the installed pyspark (``spark-class``), the README's
``spark-submit --master spark://127.0.0.1:PORT .../linter/fleet/__main__.py scan ...`` runs on the
small fleet, and its tables must equal a local run's. The executors' Python finds a decoy
``linter`` package first on its own ``PYTHONPATH``: the scan only passes when the driver ships
its code to them (:mod:`linter.fleet.shipping`). Both processes are stopped by their ids,
whatever happens.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.spark, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[3]
FLEET = ROOT / "fixtures" / "fleet"
REGISTERED = "Successfully registered with master"
DECOY = 'raise ImportError("the executor imported the worker\'s own linter, not the driver\'s")\n'


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _spark_home() -> str:
    from pyspark.find_spark_home import _find_spark_home

    return str(_find_spark_home())


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    from linter.fleet.environment import check_environment

    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYSPARK_", "SPARK_"))}
    env.update(
        JAVA_HOME=check_environment(), SPARK_HOME=_spark_home(), SPARK_LOCAL_IP="127.0.0.1",
        SPARK_LOCAL_DIRS=str(tmp / "local"), SPARK_LOG_DIR=str(tmp / "logs"),
        PYSPARK_PYTHON=sys.executable, **extra,
    )  # fmt: skip
    return env


class _Daemon:
    """A ``spark-class`` process in a session of its own, its output in a file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path):
        self.name, self.log = name, log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [os.path.join(env["SPARK_HOME"], "bin", "spark-class"), *argv],
                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip

    def wait_for(self, text: str, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if text in self.log.read_text(encoding="utf-8", errors="replace"):
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.5)
        tail = self.log.read_text(encoding="utf-8", errors="replace")[-3000:]
        pytest.fail(f"spark {self.name}: no {text!r} within {seconds} s:\n{tail}")

    def stop(self) -> None:
        """The process and what it started (the worker's executors), by the group of its id."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)
        # an executor (or its Python) left behind in the group after the worker went
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    from linter.fleet.environment import FleetSetupError, check_environment

    try:
        check_environment()
    except FleetSetupError as error:
        pytest.skip(f"a Spark cluster needs pyspark and Java 17+ ({error})")
    tmp = tmp_path_factory.mktemp("spark-cluster")
    decoy = tmp / "decoy"
    (decoy / "linter").mkdir(parents=True)
    (decoy / "linter" / "__init__.py").write_text(DECOY, encoding="utf-8")
    port = _free_port()
    url = f"spark://127.0.0.1:{port}"
    daemons: list[_Daemon] = []
    try:
        master = _Daemon("master", [
            "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
            "--port", str(port), "--webui-port", str(_free_port()),
        ], _env(tmp), tmp / "master.log")  # fmt: skip
        daemons.append(master)
        master.wait_for(f"Starting Spark master at {url}", 300)
        worker = _Daemon("worker", [
            "org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1",
            "--cores", "1", "--memory", "1g", "--webui-port", str(_free_port()),
            "--work-dir", str(tmp / "work"),
        ], _env(tmp, PYTHONPATH=str(decoy)), tmp / "worker.log")  # fmt: skip
        daemons.append(worker)
        worker.wait_for(REGISTERED, 300)
        yield url, tmp
    finally:
        for daemon in reversed(daemons):
            daemon.stop()


def _scan(
    argv: list[str], env: dict[str, str], out: Path, *more: str
) -> subprocess.CompletedProcess[str]:
    args = ["scan", str(FLEET / "small"), "--out", str(out), *more,
            "--plan", str(FLEET / "plan-add-partitions.yaml"),
            "--snapshot", str(FLEET / "snapshot.yaml")]  # fmt: skip
    return subprocess.run([*argv, *args], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=1200, check=False)  # fmt: skip


def _tables(out: Path) -> dict[str, Any]:
    import pyarrow.parquet as pq

    return {name: pq.read_table(out / name).to_pylist()
            for name in ("findings.parquet", "apps.parquet", "lineage.parquet")}  # fmt: skip


def test_the_readme_command_on_a_standalone_cluster_gives_local_modes_tables(
    cluster: tuple[str, Path],
) -> None:
    url, tmp = cluster
    main = ROOT / "linter" / "fleet" / "__main__.py"
    env = _env(tmp, PYTHONPATH=str(ROOT))
    submit = [os.path.join(env["SPARK_HOME"], "bin", "spark-submit"), "--master", url,
              "--executor-memory", "512m", str(main)]  # fmt: skip
    on_cluster = _scan(submit, env, tmp / "cluster-out")
    # spark-submit hands the Python driver's stderr to its own stdout: the progress lines too
    said = on_cluster.stdout + on_cluster.stderr
    assert on_cluster.returncode == 1, said[-3000:]  # errors, at the default --fail-on
    assert f"on {url} ready" in said, said[-3000:]
    local = _scan([sys.executable, "-m", "linter.fleet"], env, tmp / "local-out",
                  "--master", "local[1]")  # fmt: skip
    assert local.returncode == 1, local.stderr[-3000:]
    assert _tables(tmp / "cluster-out") == _tables(tmp / "local-out")
    summary = (tmp / "cluster-out" / "summary.json").read_text(encoding="utf-8")
    assert summary == (tmp / "local-out" / "summary.json").read_text(encoding="utf-8")
    assert '"apps_in": 6' in summary
