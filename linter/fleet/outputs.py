"""What the fleet scan writes under ``--out``, and the aggregates the driver reads back.

``findings.parquet``, ``apps.parquet``, ``lineage.parquet`` (schemas in the README), then
``summary.json`` and ``dashboard.html`` from counts and top-N lists only. Every table is sorted
and written as one file, so the same input gives the same rows in the same order.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

    from linter.fleet.job import ScanOptions

FINDINGS, APPS, LINEAGE = "findings.parquet", "apps.parquet", "lineage.parquet"
SUMMARY, DASHBOARD = "summary.json", "dashboard.html"

SEVERITY_RANK = {"error": 3, "warning": 2, "info": 1}


@dataclass
class Tables:
    findings: DataFrame
    apps: DataFrame
    lineage: DataFrame


def _path(out: str, name: str) -> str:
    return out.rstrip("/") + "/" + name


def write_tables(findings: DataFrame, apps: DataFrame, lineage: DataFrame, out: str) -> Tables:
    """Sort and write the three tables, and return them as read back from ``out``."""
    from pyspark.sql import functions as F

    spark = findings.sparkSession
    rank = F.coalesce(
        F.create_map(*(x for k, v in SEVERITY_RANK.items() for x in (F.lit(k), F.lit(v))))[
            F.col("severity")
        ],
        F.lit(0),
    )
    ordered = (
        findings.withColumn("_rank", -rank)
        .repartition(1)
        .sortWithinPartitions(
            F.col("app_id").asc_nulls_first(), "check",
            F.col("version_before").asc_nulls_first(), F.col("version_after").asc_nulls_first(),
            "_rank", "rule", "fingerprint", "message",
        )
        .drop("_rank")
    )
    ordered.write.mode("overwrite").parquet(_path(out, FINDINGS))
    written = spark.read.parquet(_path(out, FINDINGS))

    per_app = (
        written.where(F.col("app_id").isNotNull())
        .groupBy("app_id")
        .agg(
            F.sum((F.col("severity") == "error").cast("int")).alias("errors"),
            F.sum((F.col("severity") == "warning").cast("int")).alias("warnings"),
            F.sum((F.col("severity") == "info").cast("int")).alias("infos"),
            F.sum(F.col("check").isin("lineage", "cluster").cast("int")).alias("fleet_findings"),
        )
    )
    counts = ("errors", "warnings", "infos", "fleet_findings")
    summary = (
        apps.drop("errors", "warnings", "infos")
        .join(per_app, "app_id", "left")
        .fillna(0, subset=list(counts))
        .withColumn(
            "risk",
            (F.col("status") == "quarantined").cast("int") * 1000
            + F.col("errors") * 100
            + F.col("warnings") * 10
            + F.col("infos"),
        )
        .select(
            "app_id", "application_id", "status", "error", "versions", "latest_version",
            "deployed_version", "verdict", "strategy",
            *(F.col(c).cast("int").alias(c) for c in counts), F.col("risk").cast("int"),
        )
    )
    summary.repartition(1).sortWithinPartitions("app_id").write.mode("overwrite").parquet(
        _path(out, APPS)
    )
    edges = lineage.repartition(1).sortWithinPartitions("topic", "upstream_app", "downstream_app")
    edges.write.mode("overwrite").parquet(_path(out, LINEAGE))
    return Tables(
        findings=written,
        apps=spark.read.parquet(_path(out, APPS)),
        lineage=spark.read.parquet(_path(out, LINEAGE)),
    )


def _rows(df: DataFrame) -> list[dict[str, Any]]:
    return [r.asDict(recursive=True) for r in df.collect()]


def summarize(tables: Tables, options: ScanOptions, log: Callable[[str], None]) -> dict[str, Any]:
    """Aggregates of the written tables -> ``summary.json`` and ``dashboard.html``."""
    from pyspark.sql import functions as F

    f, a, e = tables.findings, tables.apps, tables.lineage
    totals = a.agg(
        F.count(F.lit(1)).alias("apps"),
        F.coalesce(F.sum("versions"), F.lit(0)).alias("descriptions"),
        F.sum((F.col("status") == "scanned").cast("int")).alias("scanned"),
        F.sum((F.col("status") == "quarantined").cast("int")).alias("quarantined"),
    ).collect()[0]
    apps_in = int(totals["apps"])
    scanned, quarantined = int(totals["scanned"] or 0), int(totals["quarantined"] or 0)
    severities = {r["severity"]: r["count"] for r in _rows(f.groupBy("severity").count())}
    histogram = _rows(
        f.groupBy("rule", "name", "severity", "check").count().orderBy(F.desc("count"), "rule")
    )
    verdicts = {
        r["verdict"] or "none": r["count"] for r in _rows(a.groupBy("verdict").count())
    }
    worst = _rows(
        a.where(F.col("risk") > 0)
        .orderBy(F.desc("risk"), "app_id")
        .limit(options.top)
        .drop("error")
    )
    quarantined_apps = _rows(
        a.where(F.col("status") == "quarantined").orderBy("app_id").limit(options.top)
        .select("app_id", "error")
    )
    risky_edges = _rows(
        e.where(F.col("risky")).orderBy("topic", "upstream_app", "downstream_app")
        .limit(options.top)
    )
    edge_totals = e.agg(
        F.count(F.lit(1)).alias("edges"),
        F.coalesce(F.sum(F.col("risky").cast("int")), F.lit(0)).alias("risky"),
        F.countDistinct("topic").alias("topics"),
    ).collect()[0]
    plan_findings = _rows(
        f.where(F.col("app_id").isNull())
        .orderBy("step", "rule", "fingerprint")
        .limit(options.top)
        .select("rule", "name", "severity", "message", "step", "fingerprint")
    )
    summary: dict[str, Any] = {
        "input": options.input,
        "plan": options.plan,
        "rows_in": int(totals["descriptions"]),
        "apps_in": apps_in,
        "apps_scanned": scanned,
        "apps_quarantined": quarantined,
        "consistent": apps_in == scanned + quarantined,
        "findings": {s: int(severities.get(s, 0)) for s in ("error", "warning", "info")},
        "verdicts": dict(sorted(verdicts.items())),
        "rules": histogram,
        "worst_apps": worst,
        "quarantined": quarantined_apps,
        "lineage": {
            "edges": int(edge_totals["edges"]),
            "risky_edges": int(edge_totals["risky"]),
            "topics": int(edge_totals["topics"]),
            "risky": risky_edges,
        },
        "plan_findings": plan_findings,
        "tables": {"findings": FINDINGS, "apps": APPS, "lineage": LINEAGE},
    }
    write_summary(summary, options.out)
    log(
        f"rows in: {summary['rows_in']} descriptions of {apps_in} apps = {scanned} apps scanned "
        f"+ {quarantined} apps quarantined"
    )
    return summary


def write_summary(summary: dict[str, Any], out: str) -> None:
    """``summary.json`` and ``dashboard.html``; a local directory, or any Hadoop filesystem."""
    text = json.dumps(summary, indent=2, sort_keys=True, default=str) + "\n"
    from linter.fleet.dashboard import render_dashboard

    html = render_dashboard(summary)
    _write_text(_path(out, SUMMARY), text)
    _write_text(_path(out, DASHBOARD), html)


def _write_text(path: str, text: str) -> None:
    local = path[len("file://"):] if path.startswith("file://") else path
    if "://" not in local:
        os.makedirs(os.path.dirname(local) or ".", exist_ok=True)
        with open(local, "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    _write_hadoop(path, text)


def _write_hadoop(path: str, text: str) -> None:
    """Write through Hadoop's FileSystem API, for ``--out`` on s3a://, hdfs://, gs://..."""
    from pyspark import SparkContext

    sc = SparkContext.getOrCreate()
    jvm = sc._jvm  # the only way to reach Hadoop's FileSystem from Python
    assert jvm is not None
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    fs = hadoop_path.getFileSystem(sc._jsc.hadoopConfiguration())
    stream = fs.create(hadoop_path, True)
    try:
        stream.write(bytearray(text.encode("utf-8")))
    finally:
        stream.close()
