"""What the fleet scan writes under ``--out``, and the aggregates the driver reads back.

``findings.parquet``, ``apps.parquet``, ``lineage.parquet`` (schemas in the README), then
``summary.json`` and ``dashboard.html`` from counts and top-N lists only. Every table is sorted
and written as one file, so the same input gives the same rows in the same order.
"""

from __future__ import annotations

import json
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from linter.fleet.options import ScanOptions
from linter.fleet.rows import APP_ROW_SCHEMA, EDGES_SCHEMA
from linter.report.json import FORMAT_VERSION, schema_id

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

FINDINGS, APPS, LINEAGE = "findings.parquet", "apps.parquet", "lineage.parquet"
SUMMARY, DASHBOARD = "summary.json", "dashboard.html"

APPS_SCHEMA = APP_ROW_SCHEMA + ", fleet_findings int, risk int"
"""The apps table: each app's own row with its fleet findings counted in, and its risk."""

SEVERITY_RANK = {"error": 3, "warning": 2, "info": 1}


@dataclass
class Tables:
    findings: DataFrame
    apps: DataFrame
    lineage: DataFrame
    fleet_findings: DataFrame  # the lineage and cluster findings only (a small part of findings)
    tallies: DataFrame  # the findings counted per partition (job.TALLY_SCHEMA), for the histogram


def _path(out: str, name: str) -> str:
    return out.rstrip("/") + "/" + name


_GLOB = re.compile(r"([\\\[\]{}*?])")


def _literal(path: str) -> str:
    """``path`` for a Spark read, which takes a path as a Hadoop glob: its glob characters
    escaped, so that an ``--out`` named ``runs[1]`` is read back, not matched as a pattern."""
    return _GLOB.sub(r"\\\1", path)


def write_findings(findings: DataFrame, out: str) -> None:
    """The findings table, sorted, as one file.

    ``findings`` must be built from cached tables: one task reads them all (``coalesce(1)``) and
    sorts, instead of a shuffle of every row into one partition; the caller runs it beside the
    other writes and aggregates, which use the other cores.
    """
    from pyspark.sql import functions as F

    rank = F.coalesce(
        F.create_map(*(x for k, v in SEVERITY_RANK.items() for x in (F.lit(k), F.lit(v))))[
            F.col("severity")
        ],
        F.lit(0),
    )
    ordered = (
        findings.withColumn("_rank", -rank)
        .coalesce(1)
        .sortWithinPartitions(
            F.col("app_id").asc_nulls_first(), "check",
            F.col("version_before").asc_nulls_first(), F.col("version_after").asc_nulls_first(),
            "_rank", "rule", "fingerprint", "message",
        )
        .drop("_rank")
    )  # fmt: skip
    ordered.write.mode("overwrite").parquet(_path(out, FINDINGS))


def write_tables(
    findings: DataFrame,
    fleet_findings: DataFrame,
    apps: DataFrame,
    lineage: DataFrame,
    tallies: DataFrame,
    out: str,
) -> Tables:
    """Sort and write the apps and lineage tables; return them as read back from ``out``, with
    the findings (written by :func:`write_findings`) for the aggregates.

    ``findings`` holds every finding, ``fleet_findings`` the lineage and cluster ones among them,
    ``tallies`` their counts by rule and severity;
    ``apps`` counts each app's own findings, to which its fleet findings are added here; its
    verdict and strategy are made worse by them (:mod:`linter.fleet.verdicts`).
    """
    from pyspark.sql import functions as F

    from linter.fleet.verdicts import STRATEGIES, VERDICTS, combined, rank_columns

    spark = findings.sparkSession
    severities = {"errors": "error", "warnings": "warning", "infos": "info"}
    verdict_rank, strategy_rank = rank_columns()
    per_app = (
        fleet_findings.where(F.col("app_id").isNotNull() & F.col("acknowledged").isNull())
        .groupBy("app_id")
        .agg(
            *(F.sum((F.col("severity") == s).cast("int")).alias(f"fleet_{c}")
              for c, s in severities.items()),
            F.count(F.lit(1)).alias("fleet_findings"),
            F.max(verdict_rank).alias("fleet_verdict"),
            F.max(strategy_rank).alias("fleet_strategy"),
        )
    )  # fmt: skip
    counts = (*severities, "fleet_findings")
    summary = (
        apps.join(per_app, "app_id", "left")
        .fillna(0, subset=[f"fleet_{c}" for c in severities] + ["fleet_findings"])
        .fillna(-1, subset=["fleet_verdict", "fleet_strategy"])
        .withColumns({c: F.col(c) + F.col(f"fleet_{c}") for c in severities})
        .withColumns({
            "verdict": combined(F.col("verdict"), F.col("fleet_verdict"), VERDICTS),
            "strategy": combined(F.col("strategy"), F.col("fleet_strategy"), STRATEGIES),
        })  # an app whose upgrade breaks another (or whose state another breaks) is not safe
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
    # Read with the schema they were written with: else Spark runs a job per table to read it
    # back from the files' footers.
    return Tables(
        findings=findings,
        apps=spark.read.schema(APPS_SCHEMA).parquet(_literal(_path(out, APPS))),
        lineage=spark.read.schema(EDGES_SCHEMA).parquet(_literal(_path(out, LINEAGE))),
        fleet_findings=fleet_findings,
        tallies=tallies,
    )


def _rows(df: DataFrame) -> list[dict[str, Any]]:
    return [r.asDict(recursive=True) for r in df.collect()]


def _summary_queries(tables: Tables, options: ScanOptions) -> tuple[DataFrame, ...]:
    """The six small queries ``summary.json`` is made of: the rule histogram, apps by status and
    verdict, the riskiest and the quarantined apps, the lineage edges, the plan's findings."""
    from pyspark.sql import functions as F

    a, e = tables.apps, tables.lineage
    risky = F.when(F.col("risky"), F.struct("topic", "upstream_app", "downstream_app"))
    return (
        # the partitions' counts added up: no pass over every finding
        tables.tallies.groupBy("rule", "name", "severity", "check").agg(
            F.sum("count").alias("count"), F.sum("acknowledged").alias("acknowledged")
        ),
        a.groupBy("status", "verdict").agg(
            F.count(F.lit(1)).alias("apps"), F.sum("versions").alias("descriptions")
        ),
        a.where(F.col("risk") > 0).orderBy(F.desc("risk"), "app_id").limit(options.top),
        a.where(F.col("status") == "quarantined").orderBy("app_id").limit(options.top),
        e.agg(
            F.count(F.lit(1)).alias("edges"),
            F.coalesce(F.sum(F.col("risky").cast("int")), F.lit(0)).alias("risky_edges"),
            F.countDistinct("topic").alias("topics"),
            F.slice(F.sort_array(F.collect_list(risky)), 1, options.top).alias("risky"),
        ),
        tables.fleet_findings.where(F.col("app_id").isNull())
        .orderBy("step", "rule", "fingerprint")
        .limit(options.top)
        .select("rule", "name", "severity", "message", "step", "fingerprint"),
    )


def summarize(tables: Tables, options: ScanOptions) -> dict[str, Any]:
    """Aggregates of the tables, for ``summary.json`` and ``dashboard.html``.

    Small Spark jobs over the small tables and the findings' counts; what comes back is
    bounded by the number of rules, statuses and ``options.top``, never by the size of the fleet.
    """
    queries = _summary_queries(tables, options)
    # Six small jobs, each mostly scheduling latency: submitted at once, they share the cores.
    with ThreadPoolExecutor(max_workers=len(queries)) as pool:
        rules, stats, worst, stuck, (edge,), plan_findings = pool.map(_rows, queries)
    # Bounded by the catalogue: sorted here, not by a distributed sort (one job fewer).
    histogram = sorted(
        rules, key=lambda r: (-int(r["count"]), r["rule"], r["severity"], r["check"], r["name"])
    )
    severities = {
        s: sum(int(r["count"]) - int(r["acknowledged"]) for r in histogram if r["severity"] == s)
        for s in ("error", "warning", "info")
    }
    severities["acknowledged"] = sum(int(r["acknowledged"]) for r in histogram)
    apps_in = sum(int(r["apps"]) for r in stats)
    scanned = sum(int(r["apps"]) for r in stats if r["status"] == "scanned")
    quarantined = sum(int(r["apps"]) for r in stats if r["status"] == "quarantined")
    verdicts: dict[str, int] = {}
    for r in stats:
        key = r["verdict"] or "none"
        verdicts[key] = verdicts.get(key, 0) + int(r["apps"])
    summary: dict[str, Any] = {
        "$schema": schema_id("fleet-summary"),
        "format_version": FORMAT_VERSION,
        "input": options.input,
        "plan": options.plan,
        "rows_in": sum(int(r["descriptions"] or 0) for r in stats),
        "apps_in": apps_in,
        "apps_scanned": scanned,
        "apps_quarantined": quarantined,
        "consistent": apps_in == scanned + quarantined,
        "findings": severities,
        "verdicts": dict(sorted(verdicts.items())),
        "rules": histogram,
        "worst_apps": [{k: v for k, v in r.items() if k != "error"} for r in worst],
        "quarantined": [{"app_id": r["app_id"], "error": r["error"]} for r in stuck],
        "lineage": {
            "edges": int(edge["edges"]),
            "risky_edges": int(edge["risky_edges"]),
            "topics": int(edge["topics"]),
            "risky": [
                {"upstream_app": r["upstream_app"], "topic": r["topic"],
                 "downstream_app": r["downstream_app"]}
                for r in edge["risky"]
            ],
        },
        "plan_findings": plan_findings,
        "tables": {"findings": FINDINGS, "apps": APPS, "lineage": LINEAGE},
    }  # fmt: skip
    return summary


def rows_in_line(summary: dict[str, Any]) -> str:
    """Every input row accounted for: the line the scan prints and the summary stores."""
    return (
        f"rows in: {summary['rows_in']} descriptions of {summary['apps_in']} apps = "
        f"{summary['apps_scanned']} apps scanned + {summary['apps_quarantined']} apps quarantined"
    )


def write_summary(summary: dict[str, Any], out: str) -> None:
    """``summary.json`` and ``dashboard.html``; a local directory, or any Hadoop filesystem."""
    text = json.dumps(summary, indent=2, sort_keys=True, default=str) + "\n"
    from linter.fleet.dashboard import render_dashboard

    html = render_dashboard(summary)
    _write_text(_path(out, SUMMARY), text)
    _write_text(_path(out, DASHBOARD), html)


def _write_text(path: str, text: str) -> None:
    from linter.fleet.inputs import local_path

    local = local_path(path)
    if local is not None:
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
