"""The fleet readers through Spark, case by case: each input shape read by
:func:`linter.fleet.job.read_versions` and each app checked by :func:`linter.fleet.scan.scan_app`
(what the job maps over the apps), compared as small frames, without a whole scan per case.
Whole scans: ``test_job.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.spark

FLEET = Path(__file__).resolve().parents[3] / "fixtures" / "fleet"


def _apps(spark: Any, path: Path) -> Any:
    """The apps table's own columns (before fleet findings), one row per app read, by app_id."""
    from linter.api import Settings
    from linter.fleet.job import read_versions
    from linter.fleet.rows import APP_ROW_SCHEMA
    from linter.fleet.scan import scan_app

    read = read_versions(spark, str(path), "auto", 2).collect()
    rows = sorted(scan_app(app_id, versions, Settings()).app.as_tuple()
                  for app_id, versions in read)  # fmt: skip
    return spark.createDataFrame(rows, APP_ROW_SCHEMA)


def test_table_input_orders_by_timestamp(spark: Any, tmp_path: Path) -> None:
    """JSON Lines and Parquet fleets; versions by timestamp; a row without text is reported."""
    from pyspark.testing import assertDataFrameEqual

    from linter.fleet.inputs import TABLE_SCHEMA

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
        apps = _apps(spark, tmp_path / name)
        assertDataFrameEqual(
            apps.select("app_id", "status", "latest_version", "versions"), expected,
            checkRowOrder=True,
        )  # fmt: skip


def test_bad_table_rows_quarantine_their_app_with_the_file(spark: Any, tmp_path: Path) -> None:
    """A JSON line that does not parse or has a wrong type, and a Parquet value that does not
    cast, are kept as rows of a quarantined app, the message naming the file and the row."""
    from pyspark.testing import assertDataFrameEqual

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
        apps = _apps(spark, tmp_path / name).select("app_id", "status", "versions", "error")
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


    text = (FLEET / "small" / "billing" / "v1.txt").read_text(encoding="utf-8")
    fleet = tmp_path / "fleet"
    for app in ("team-a/orders", "team-b/orders", "team-a/billing"):
        (fleet / app).mkdir(parents=True)
        (fleet / app / "v1.txt").write_text(text, encoding="utf-8")
    (fleet / "notes").mkdir()
    (fleet / "notes" / "README.md").write_text("hi", encoding="utf-8")
    apps = _apps(spark, fleet)
    expected = spark.createDataFrame([
        ("billing", "scanned", 1, None),
        ("notes", "quarantined", 1,
         "notes: cannot be scanned: notes/: no <version>.txt or <version>.properties "
         "(found: README.md)"),
        ("orders", "quarantined", 2,
         f"orders: cannot be scanned: version v1 is given 2 times "
         f"({fleet}/team-a/orders/v1.txt, {fleet}/team-b/orders/v1.txt)"),
    ], "app_id string, status string, versions int, error string")  # fmt: skip
    assertDataFrameEqual(apps.select("app_id", "status", "versions", "error"), expected,
                         checkRowOrder=True)  # fmt: skip


def test_nothing_in_the_input_is_dropped(spark: Any, tmp_path: Path) -> None:
    """Empty and hidden-only app directories and a FIFO; Parquet part files with different
    columns; a JSON key typo, an integer version and bytes that are not UTF-8 in JSON Lines and
    Parquet: every one counted in ``rows in`` and quarantined with its reason, or read whole."""
    import os


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
        found = {r["app_id"]: r["error"] for r in _apps(spark, tmp_path / name).collect()}
        for app, problem in apps.items():
            assert app in found, (name, app, found)
            if problem is None:
                assert found[app] is None, (name, app, found[app])
            else:
                assert problem in (found[app] or ""), (name, app, found[app])
    deployed = {r["app_id"]: r["deployed_version"]
                for r in _apps(spark, tmp_path / "fleet.parquet").collect()}
    assert deployed["b"] == "v1"  # the column only the second part file has is read
