"""The real fleet job on Spark (``local[1]``), on a small fleet with known answers.

``fixtures/fleet/small``: ``orders-enricher`` (deployed v1 -> v2 inserts a ``selectKey`` before
its sink ``orders-enriched``), ``customer-totals`` (counts ``orders-enriched``: a stateful reader
of a re-keyed topic), ``billing`` and ``billing-copy`` (one ``application.id``), ``payment-fraud``
(stateful on ``payments``, to which the plan adds partitions: 12 -> 24) and ``broken-app`` (its
description does not parse).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from linter.cli import ksafe

pytestmark = pytest.mark.spark

FLEET = Path(__file__).resolve().parents[3] / "fixtures" / "fleet"


@pytest.fixture(scope="module", params=["driver-writes", "spark-writes"])
def scanned(
    spark: Any, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> tuple[Path, Any, dict[str, Any]]:
    """The scan of the small fleet both ways: as a small fleet (Spark scans and judges, the
    driver writes the tables) and as a large one (every table written by Spark)."""
    out = tmp_path_factory.mktemp("fleet-out")
    with pytest.MonkeyPatch.context() as patch:
        if request.param == "spark-writes":
            patch.setattr("linter.fleet.small.SMALL_INPUT", 0)
        result = _scan(out)
    return out, result, json.loads(result.stdout)


def _scan(out: Path) -> Any:
    return CliRunner().invoke(ksafe, [
        "fleet", "scan", str(FLEET / "small"), "--out", str(out), "--quiet", "--format", "json",
        "--partitions", "1",
        "--plan", str(FLEET / "plan-add-partitions.yaml"),
        "--snapshot", str(FLEET / "snapshot.yaml"),
    ])  # fmt: skip


def test_an_out_path_with_glob_characters_is_read_back_as_written(tmp_path: Path) -> None:
    # Spark reads a path as a Hadoop glob: the tables it writes are read back from that very path
    out = tmp_path / "runs[1]{a,b}*?"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("linter.fleet.small.SMALL_INPUT", 0)  # every table written by Spark
        result = _scan(out)
    assert result.exit_code == 1, result.output
    summary = json.loads(result.stdout)
    assert (summary["apps_scanned"], summary["apps_quarantined"]) == (5, 1)
    assert sorted(p.name for p in out.iterdir() if p.suffix == ".parquet") == [
        "apps.parquet", "findings.parquet", "lineage.parquet"
    ]


def test_exit_code_and_counts(scanned: tuple[Path, Any, dict[str, Any]]) -> None:
    _, result, summary = scanned
    assert result.exit_code == 1, result.output  # errors at or above the default --fail-on
    assert summary["rows_in"] == 8
    assert summary["apps_in"] == 6
    assert summary["apps_scanned"] == 5
    assert summary["apps_quarantined"] == 1
    assert summary["consistent"] is True


def test_lineage_table(spark: Any, scanned: tuple[Path, Any, dict[str, Any]]) -> None:
    from pyspark.testing import assertDataFrameEqual

    out, _, _ = scanned
    expected = spark.createDataFrame(
        [("orders-enricher", "orders-enriched", "customer-totals", True, True, True)],
        "upstream_app string, topic string, downstream_app string, downstream_stateful boolean, "
        "key_change boolean, risky boolean",
    )
    assertDataFrameEqual(spark.read.parquet(str(out / "lineage.parquet")), expected)


def test_apps_table(spark: Any, scanned: tuple[Path, Any, dict[str, Any]]) -> None:
    from pyspark.testing import assertDataFrameEqual

    out, _, _ = scanned
    apps = spark.read.parquet(str(out / "apps.parquet")).select(
        "app_id", "application_id", "status", "latest_version", "deployed_version"
    )
    expected = spark.createDataFrame(
        [
            ("billing", "billing", "scanned", "v1", None),
            ("billing-copy", "billing", "scanned", "v1", None),
            ("broken-app", None, "quarantined", "v1", None),
            ("customer-totals", "customer-totals", "scanned", "v1", None),
            ("orders-enricher", "orders-enricher", "scanned", "v2", "v1"),
            ("payment-fraud", "payment-fraud", "scanned", "v2", None),
        ],
        "app_id string, application_id string, status string, latest_version string, "
        "deployed_version string",
    )
    assertDataFrameEqual(apps, expected, checkRowOrder=True)
    # verdicts count the fleet findings, as the single-process scan computes them
    from linter.fleet.cluster import load_changes
    from linter.fleet.inputs import assemble
    from linter.fleet.local import scan_fleet

    fleet = {
        app.name: assemble(app.name, [(p.name, p.read_text(encoding="utf-8"))
                                      for p in sorted(app.iterdir())])
        for app in sorted((FLEET / "small").iterdir())
    }  # fmt: skip
    changes = load_changes(str(FLEET / "plan-add-partitions.yaml"), str(FLEET / "snapshot.yaml"))
    verdicts = scan_fleet(fleet, changes=changes).verdicts()
    table = spark.read.parquet(str(out / "apps.parquet")).collect()
    assert {r["app_id"]: (r["verdict"], r["strategy"]) for r in table} == verdicts
    assert verdicts["orders-enricher"][0] == "unsafe"


def test_fleet_findings(spark: Any, scanned: tuple[Path, Any, dict[str, Any]]) -> None:
    from pyspark.sql import functions as F
    from pyspark.testing import assertDataFrameEqual

    out, _, _ = scanned
    findings = spark.read.parquet(str(out / "findings.parquet"))
    fleet = findings.where(
        F.col("check").isin("parse", "cluster") | F.col("severity").isin("error", "warning")
        & (F.col("check") == "lineage")
    ).select("app_id", "check", "rule", "severity")
    expected = spark.createDataFrame(
        [
            (None, "cluster", "KS805", "error"),  # the plan's own row
            ("billing", "lineage", "KS802", "error"),
            ("billing-copy", "lineage", "KS802", "error"),
            ("broken-app", "parse", "parse-error", "error"),
            ("customer-totals", "lineage", "KS801", "error"),
            ("orders-enricher", "lineage", "KS801", "error"),
            ("payment-fraud", "cluster", "KS805", "error"),
        ],
        "app_id string, check string, rule string, severity string",
    )
    assertDataFrameEqual(fleet, expected, checkRowOrder=True)
    broken = findings.where(F.col("app_id") == "broken-app").first()
    assert broken["message"].startswith("broken-app/v1:3:")
    plan_row = findings.where(F.col("app_id").isNull()).first()
    assert "from 12 to 24" in plan_row["message"]


def test_spark_matches_the_single_process_scan(
    spark: Any, scanned: tuple[Path, Any, dict[str, Any]]
) -> None:
    """Spark only distributes: the findings table is the local scan's rows, in the same order."""
    from pyspark.testing import assertDataFrameEqual

    from linter.fleet.cluster import load_changes
    from linter.fleet.inputs import assemble
    from linter.fleet.local import scan_fleet
    from linter.fleet.rows import FINDINGS_SCHEMA

    out, _, _ = scanned
    fleet = {
        app.name: assemble(app.name, [(p.name, p.read_text(encoding="utf-8"))
                                      for p in sorted(app.iterdir())])
        for app in sorted((FLEET / "small").iterdir())
    }  # fmt: skip
    changes = load_changes(str(FLEET / "plan-add-partitions.yaml"), str(FLEET / "snapshot.yaml"))
    local = scan_fleet(fleet, changes=changes)
    expected = spark.createDataFrame([r.as_tuple() for r in local.findings], FINDINGS_SCHEMA)
    assertDataFrameEqual(
        spark.read.parquet(str(out / "findings.parquet")), expected, checkRowOrder=True
    )


def test_the_local_engine_writes_the_same_tables_and_summary(
    scanned: tuple[Path, Any, dict[str, Any]], tmp_path: Path
) -> None:
    """``--engine local`` (no Spark) on the same fleet: the same rows and column types in every
    table, the same ``summary.json`` and dashboard bytes, the same exit code."""
    import pyarrow.parquet as pq

    out, spark_result, _ = scanned
    result = CliRunner().invoke(ksafe, [
        "fleet", "scan", str(FLEET / "small"), "--out", str(tmp_path), "--quiet",
        "--format", "json", "--engine", "local",
        "--plan", str(FLEET / "plan-add-partitions.yaml"),
        "--snapshot", str(FLEET / "snapshot.yaml"),
    ])  # fmt: skip
    assert (result.exit_code, result.stdout) == (spark_result.exit_code, spark_result.stdout)
    for name in ("findings.parquet", "apps.parquet", "lineage.parquet"):
        ours, theirs = pq.read_table(tmp_path / name), pq.read_table(out / name)
        assert ours.schema.names == theirs.schema.names, name
        assert [f.type for f in ours.schema] == [f.type for f in theirs.schema], name
        assert ours.to_pylist() == theirs.to_pylist(), name
    for name in ("summary.json", "dashboard.html"):
        assert (tmp_path / name).read_bytes() == (out / name).read_bytes(), name


def test_the_local_engine_reads_only_a_local_directory_tree(tmp_path: Path) -> None:
    table = tmp_path / "fleet.jsonl"
    table.write_text("", encoding="utf-8")
    argv = ["fleet", "scan", str(table), "--out", str(tmp_path / "out"), "--engine", "local"]
    result = CliRunner().invoke(ksafe, argv)
    assert (result.exit_code, result.output) == (2, "ksafe: --engine local reads a local "
                                                 "directory tree; use --engine spark for this "
                                                 "input\n")  # fmt: skip


def test_outputs_exist_and_dashboard_is_self_contained(
    scanned: tuple[Path, Any, dict[str, Any]],
) -> None:
    out, _, summary = scanned
    assert json.loads((out / "summary.json").read_text(encoding="utf-8")) == summary
    assert summary["$schema"] == "urn:ksafe:schema:fleet-summary:1"
    assert summary["format_version"] == 1
    html = (out / "dashboard.html").read_text(encoding="utf-8")
    assert "customer-totals" in html
    assert "orders-enriched" in html
    for remote in ('src="http', 'href="http', "url(http", "@import"):
        assert remote not in html
    assert summary["worst_apps"][0]["app_id"] == "broken-app"


def test_the_command_speaks_in_its_own_lines_only(spark: Any, tmp_path: Path) -> None:
    """A fresh ``python -m linter.fleet scan``: stderr holds ksafe's lines (progress, and a
    warning naming a file it does not read), not Spark's start-up log (the JVM's own note on the
    incubator module is beyond Spark's logging)."""
    import shutil
    import subprocess
    import sys

    fleet = tmp_path / "fleet"
    shutil.copytree(FLEET / "small", fleet)
    (fleet / "stray.txt").write_text("Topologies:\n", encoding="utf-8")
    argv = [sys.executable, "-m", "linter.fleet", "scan", str(fleet), "--out",
            str(tmp_path / "out"), "--master", "local[1]", "--fail-on", "never"]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False,
                          cwd=FLEET.parents[1])  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines, "no progress lines"
    warning = "ksafe: warning: not read, not in an <app_id>/ directory: stray.txt"
    assert lines[0] == warning
    foreign = [line for line in lines[1:] if not line.startswith("ksafe fleet: ")
               and "Using incubator modules" not in line]  # fmt: skip
    assert foreign == []
    assert "6 apps: 5 scanned, 1 quarantined" in done.stdout


def test_an_out_that_cannot_be_written_is_named_before_the_scan(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    out = tmp_path / "file" / "out"
    result = CliRunner().invoke(ksafe, ["fleet", "scan", str(FLEET / "small"), "--out", str(out)])
    assert result.exit_code == 2
    assert result.output == f"ksafe: --out {out}: cannot create the directory: Not a directory\n"


def test_missing_spark_or_java_is_a_clear_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    from linter.fleet import environment

    def missing() -> None:
        raise environment.FleetSetupError("the fleet scan needs pyspark")

    monkeypatch.setattr(environment, "check_environment", missing)
    result = CliRunner().invoke(ksafe, ["fleet", "scan", str(FLEET / "small"), "--out", "x"])
    assert result.exit_code == 2
    assert "needs pyspark" in result.output
