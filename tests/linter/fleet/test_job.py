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


@pytest.fixture(scope="module")
def scanned(
    spark: Any, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Any, dict[str, Any]]:
    out = tmp_path_factory.mktemp("fleet-out")
    result = CliRunner().invoke(ksafe, [
        "fleet", "scan", str(FLEET / "small"), "--out", str(out), "--quiet", "--format", "json",
        "--partitions", "1",
        "--plan", str(FLEET / "plan-add-partitions.yaml"),
        "--snapshot", str(FLEET / "snapshot.yaml"),
    ])  # fmt: skip
    return out, result, json.loads(result.stdout)


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
    html = (out / "dashboard.html").read_text(encoding="utf-8")
    assert "customer-totals" in html
    assert "orders-enriched" in html
    for remote in ('src="http', 'href="http', "url(http", "@import"):
        assert remote not in html
    assert summary["worst_apps"][0]["app_id"] == "broken-app"


def test_table_input_orders_by_timestamp(spark: Any, tmp_path: Path) -> None:
    """JSON Lines and Parquet fleets; versions by timestamp; a row without text is reported."""
    from pyspark.testing import assertDataFrameEqual

    from linter.fleet.inputs import TABLE_SCHEMA
    from linter.fleet.job import ScanOptions, run_scan

    text = (FLEET / "small" / "billing" / "v1.txt").read_text(encoding="utf-8")
    rows = [
        ("a", "v2", text, "application.id=a\n", None, "2024-01-01T00:00:00Z"),
        ("a", "v1", text, "application.id=a\n", None, "2024-03-01T00:00:00Z"),
        ("b", "v1", None, None, None, None),
    ]
    frame = spark.createDataFrame(rows, TABLE_SCHEMA)
    frame.write.parquet(str(tmp_path / "fleet.parquet"))
    frame.write.json(str(tmp_path / "fleet.jsonl"))
    expected = spark.createDataFrame(
        [("a", "scanned", "v1", 2), ("b", "quarantined", "v1", 1)],
        "app_id string, status string, latest_version string, versions int",
    )
    for name in ("fleet.parquet", "fleet.jsonl"):
        options = ScanOptions(input=str(tmp_path / name), out=str(tmp_path / f"out-{name}"),
                              partitions=1, progress=False)  # fmt: skip
        summary = run_scan(spark, options, lambda _: None).summary
        assert summary["apps_in"] == 2
        assert summary["apps_quarantined"] == 1
        apps = spark.read.parquet(str(tmp_path / f"out-{name}" / "apps.parquet"))
        assertDataFrameEqual(
            apps.select("app_id", "status", "latest_version", "versions"), expected,
            checkRowOrder=True,
        )  # fmt: skip


def test_bad_table_rows_quarantine_their_app_with_the_file(spark: Any, tmp_path: Path) -> None:
    """A JSON line that does not parse or has a wrong type, and a Parquet value that does not
    cast, are kept as rows of a quarantined app, the message naming the file and the row."""
    from pyspark.testing import assertDataFrameEqual

    from linter.fleet.job import ScanOptions, run_scan
    from linter.fleet.jsonrows import JSON_ROW

    text = (FLEET / "small" / "billing" / "v1.txt").read_text(encoding="utf-8")
    jsonl = tmp_path / "fleet.jsonl"
    jsonl.write_text("\n".join([
        json.dumps({"app_id": "a", "version": "v1", "description": text}),
        '{"app_id": "lost", "version": "v1", "descr',
        json.dumps({"app_id": "d", "version": "v1", "description": text, "deployed": "yes"}),
        "[1, 2]",
    ]) + "\n", encoding="utf-8")  # fmt: skip
    spark.createDataFrame(
        [("a", "v1", text, "true"), ("d", "v1", text, "maybe")],
        "app_id string, version string, description string, deployed string",
    ).coalesce(1).write.parquet(str(tmp_path / "fleet.parquet"))
    (part,) = (tmp_path / "fleet.parquet").glob("part-*.parquet")
    schema = "app_id string, status string, versions int, error string"
    wrong_type = f'd: cannot be scanned: {jsonl}: deployed: "yes" is not true or false'
    expected = {
        "fleet.jsonl": [
            ("<no app_id>", "quarantined", 2,
             f"<no app_id>: cannot be scanned: {jsonl}: {JSON_ROW}"
             f'{{"app_id": "lost", "version": "v1", "descr; {jsonl}: {JSON_ROW}[1, 2]'),
            ("a", "scanned", 1, None),
            ("d", "quarantined", 1, wrong_type),
        ],
        "fleet.parquet": [
            ("a", "scanned", 1, None),
            ("d", "quarantined", 1,
             f"d: cannot be scanned: {part}: column deployed: maybe is not a boolean"),
        ],
    }  # fmt: skip
    for name, rows in expected.items():
        out = tmp_path / f"out-{name}"
        options = ScanOptions(input=str(tmp_path / name), out=str(out), partitions=1,
                              progress=False)  # fmt: skip
        summary = run_scan(spark, options, lambda _: None).summary
        assert summary["rows_in"] == sum(r[2] for r in rows)
        assert summary["consistent"] is True
        apps = spark.read.parquet(str(out / "apps.parquet")).select(
            "app_id", "status", "versions", "error"
        )
        if name == "fleet.jsonl":  # the wrong-type row's excerpt: compared by its start
            apps = apps.selectExpr(
                "app_id", "status", "versions",
                f"if(app_id = 'd', substring(error, 1, {len(wrong_type)}), error) as error",
            )  # fmt: skip
        assertDataFrameEqual(apps, spark.createDataFrame(rows, schema), checkRowOrder=True)


def test_directory_input_names_each_file(spark: Any, tmp_path: Path) -> None:
    """Apps one level down are read too (``team/app/v1.txt``); an app name found twice, or a
    directory without versions, is quarantined with the paths, not merged or dropped."""
    from pyspark.testing import assertDataFrameEqual

    from linter.fleet.job import ScanOptions, run_scan

    text = (FLEET / "small" / "billing" / "v1.txt").read_text(encoding="utf-8")
    fleet = tmp_path / "fleet"
    for app in ("team-a/orders", "team-b/orders", "team-a/billing"):
        (fleet / app).mkdir(parents=True)
        (fleet / app / "v1.txt").write_text(text, encoding="utf-8")
    (fleet / "notes").mkdir()
    (fleet / "notes" / "README.md").write_text("hi", encoding="utf-8")
    options = ScanOptions(input=str(fleet), out=str(tmp_path / "out"), partitions=2,
                          progress=False)  # fmt: skip
    summary = run_scan(spark, options, lambda _: None).summary
    assert (summary["rows_in"], summary["apps_in"], summary["consistent"]) == (4, 3, True)
    expected = spark.createDataFrame([
        ("billing", "scanned", 1, None),
        ("notes", "quarantined", 1,
         "notes: cannot be scanned: notes/: no <version>.txt or <version>.properties "
         "(found: README.md)"),
        ("orders", "quarantined", 2,
         f"orders: cannot be scanned: version v1 is given 2 times "
         f"({fleet}/team-a/orders/v1.txt, {fleet}/team-b/orders/v1.txt)"),
    ], "app_id string, status string, versions int, error string")  # fmt: skip
    apps = spark.read.parquet(str(tmp_path / "out" / "apps.parquet"))
    assertDataFrameEqual(apps.select("app_id", "status", "versions", "error"), expected,
                         checkRowOrder=True)  # fmt: skip


def test_nothing_in_the_input_is_dropped(spark: Any, tmp_path: Path) -> None:
    """Empty and hidden-only app directories and a FIFO; Parquet part files with different
    columns; a JSON key typo, an integer version and bytes that are not UTF-8 in JSON Lines and
    Parquet: every one counted in ``rows in`` and quarantined with its reason, or read whole."""
    import os

    from linter.fleet.job import ScanOptions, run_scan

    text = (FLEET / "small" / "billing" / "v1.txt").read_text(encoding="utf-8")
    fleet = tmp_path / "fleet"
    for app in ("good", "empty", "hidden", "piped"):
        (fleet / app).mkdir(parents=True)
    (fleet / "good" / "v1.txt").write_text(text, encoding="utf-8")
    (fleet / "hidden" / "_SUCCESS").write_text("", encoding="utf-8")
    (fleet / "piped" / "v1.txt").write_text(text, encoding="utf-8")
    os.mkfifo(fleet / "piped" / "v2.txt")
    table = tmp_path / "fleet.parquet"
    spark.createDataFrame([("a", "v1", text)], "app_id string, version string, description "
                          "string").coalesce(1).write.parquet(str(table / "p=1"))  # fmt: skip
    spark.createDataFrame(
        [("b", "v1", text, True, "application.id=b\n")],
        "app_id string, version string, description string, deployed boolean, properties string",
    ).coalesce(1).write.mode("append").parquet(str(table / "p=2"))
    import pyarrow as pa
    import pyarrow.parquet as pq

    (table / "p=3").mkdir()
    not_utf8 = pa.array([b"ok\xff"], pa.binary()).view(pa.string())  # a writer that did not check
    pq.write_table(pa.table({"app_id": ["c"], "version": ["v1"], "description": not_utf8}),
                   table / "p=3" / "part-0.parquet")  # fmt: skip
    bad = text.encode() + b"\xff"
    jsonl = tmp_path / "fleet.jsonl"
    jsonl.write_bytes(b"\n".join([
        json.dumps({"app_id": "a", "version": "v1", "description": text,
                    "depolyed": True}).encode(),
        json.dumps({"app_id": "b", "version": 2, "description": text}).encode(),
        b'{"app_id": "c", "version": "v1", "description": "' + bad.replace(b"\n", b"\\n") + b'"}',
        json.dumps({"app_id": "d", "version": "v1", "description": text}).encode(),
    ]) + b"\n")  # fmt: skip
    expected = {
        "fleet": {"good": None, "empty": "no <version>.txt", "hidden": "only hidden files",
                  "piped": "v2.txt: not read: a FIFO"},
        "fleet.jsonl": {"a": 'unknown key "depolyed"', "b": "version: 2 is not a string",
                        "<no app_id>": "line: byte 0xff at byte offset", "d": None},
        "fleet.parquet": {"a": None, "b": None,
                          "c": "column description: byte 0xff at byte offset 2 (line 1, column 3)"},
    }  # fmt: skip
    for name, apps in expected.items():
        out = tmp_path / f"out-{name}"
        options = ScanOptions(input=str(tmp_path / name), out=str(out), partitions=1,
                              progress=False)  # fmt: skip
        summary = run_scan(spark, options, lambda _: None).summary
        rows = spark.read.parquet(str(out / "apps.parquet")).collect()
        found = {r["app_id"]: r["error"] for r in rows}
        assert summary["consistent"] is True, name
        assert summary["apps_in"] == len(found), name
        for app, problem in apps.items():
            assert app in found, (name, app, found)
            if problem is None:
                assert found[app] is None, (name, app, found[app])
            else:
                assert problem in (found[app] or ""), (name, app, found[app])
    deployed = {r["app_id"]: r["deployed_version"] for r in
                spark.read.parquet(str(tmp_path / "out-fleet.parquet" / "apps.parquet")).collect()}
    assert deployed["b"] == "v1"  # the column only the second part file has is read


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
