"""The fleet scan on Spark: the only module that imports pyspark, and only when a scan runs.

Spark distributes; the per-app and per-slice work is :func:`linter.fleet.scan.scan_app` and
:func:`linter.fleet.lineage.judge`, the same library code the CLI uses. The driver only sees
counts, histograms and top-N lists: tables go from the executors straight to ``--out``.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from linter.api import Settings
from linter.fleet.inputs import (
    COLUMNS,
    TABLE_SCHEMA,
    detect_format,
    local_path,
    version_of,
)
from linter.fleet.jsonrows import json_row, utf8_problem
from linter.fleet.lineage import (
    FleetRules,
    edges,
    judge,
    plan_findings,
    slice_graphs,
    slice_rows,
)
from linter.fleet.local import cycles_uncollected
from linter.fleet.options import ScanOptions
from linter.fleet.rows import APP_ROW_SCHEMA, EDGES_SCHEMA, FINDINGS_SCHEMA, FindingRow
from linter.fleet.scan import Version, scan_app
from linter.fleet.small import is_small, run_small
from linter.lineage import PartitionChange

if TYPE_CHECKING:
    from pyspark import RDD
    from pyspark.sql import DataFrame, SparkSession


# --- input -------------------------------------------------------------------------------------


def read_versions(spark: SparkSession, path: str, fmt: str, partitions: int) -> RDD[Any]:
    """``(app_id, [Version, ...])`` per app, from any of the three input shapes."""
    kind = detect_format(path, fmt)
    local = local_path(path)
    if kind == "dir" and local is not None:
        from linter.fleet.tree import app_dirs, read_app

        listed = app_dirs(local)
        return spark.sparkContext.parallelize(listed, max(1, min(partitions, len(listed)))).map(
            read_app
        )
    if kind == "dir":  # another filesystem: listed and read through Hadoop, as bounded
        from linter.fleet.remote import read_tree

        tree: RDD[Any] = read_tree(spark, path, partitions)
        return tree
    from pyspark.sql import functions as F

    # Grouped by the JVM (no Python pickling in the shuffle); Python gets one row per app.
    grouped = table(spark, path, kind).groupBy("app_id").agg(
        F.collect_list(F.struct(*COLUMNS[1:], SOURCE, PROBLEM, *NOT_UTF8)).alias("rows")
    )
    return grouped.rdd.map(_table_app)


def _table_app(row: Any) -> tuple[str, list[Version]]:
    versions = [
        version_of(
            (row["app_id"], *r[: len(COLUMNS) - 1]),
            source=_shown(r[SOURCE]),
            problem=_problem(r[PROBLEM], *(r[c] for c in NOT_UTF8)),
        )
        for r in row["rows"]
    ]
    return versions[0].app_id, versions


def _problem(found: str | None, *not_utf8: bytes | None) -> str | None:
    """The row's problems: the JVM's (``found``), then where each of :data:`TEXT_COLUMNS`'s
    bytes (given only when they are not UTF-8) stop being UTF-8."""
    located = (
        utf8_problem(raw, f"column {c}") for c, raw in zip(TEXT_COLUMNS, not_utf8, strict=True)
    )
    return "; ".join(p for p in (found, *located) if p) or None


def _shown(source: str) -> str:
    """A file as the user would write it: a plain path for a local file."""
    return local_path(source) or source


SOURCE, PROBLEM = "_source", "_problem"
# A Parquet text column's bytes, only where they are not UTF-8 (null elsewhere): located in
# Python by the scan's own worker (a Python UDF would start a worker of its own and be handed
# every row, whatever the condition around it).
TEXT_COLUMNS = ("description", "properties")
NOT_UTF8 = tuple(f"_not_utf8_{c}" for c in TEXT_COLUMNS)
_TYPES = dict(c.split(" ", 1) for c in (part.strip() for part in TABLE_SCHEMA.split(",")))


def _json_line(line: Any) -> Iterator[tuple[Any, ...]]:
    value, source, raw = line
    bad = utf8_problem(raw, "line")  # Spark hands Python bad bytes already replaced
    if bad is not None:
        yield (*[None] * len(COLUMNS), source, bad, None, None)
        return
    row = json_row(value)
    if row is not None:
        yield (*row[:-1], source, row[-1], None, None)


def table(spark: SparkSession, path: str, kind: str) -> DataFrame:
    """A JSON Lines or Parquet fleet table: the :data:`COLUMNS` (missing optional ones null),
    the file each row comes from (:data:`SOURCE`), what is wrong with the row (:data:`PROBLEM`,
    empty when nothing is) and the bytes of a text column that is not UTF-8 (:data:`NOT_UTF8`,
    located by :func:`_problem`).

    A JSON line that does not parse, is too long, has a key that is not a column or a value of
    the wrong type (:func:`~linter.fleet.jsonrows.json_row`), or a Parquet value that does not
    cast to its column's type, is kept, with its problem: the app it names (or, with
    no app_id, the rows without one) is quarantined, never silently changed or dropped.
    """
    from pyspark.sql import functions as F

    source = F.col("_metadata.file_path").alias(SOURCE)
    if kind == "jsonl":
        raw = F.when(~F.is_valid_utf8("value"), F.col("value").cast("binary"))
        lines = spark.read.text(path).select("value", source, raw)
        rows = lines.rdd.flatMap(_json_line)
        unchecked = "".join(f", {c} binary" for c in NOT_UTF8)  # checked by _json_line
        return spark.createDataFrame(
            rows, f"{TABLE_SCHEMA}, {SOURCE} string, {PROBLEM} string{unchecked}"
        )
    # part files written at different times may hold different columns: the union of them,
    # or Spark's own error when a column's types conflict (never a column silently dropped)
    df = spark.read.option("mergeSchema", "true").parquet(path)
    columns, problems = [], []
    for c in COLUMNS:
        kind_of = _TYPES[c]
        if c not in df.columns:
            columns.append(F.lit(None).cast(kind_of).alias(c))
        elif df.schema[c].dataType.simpleString() == kind_of:
            columns.append(F.col(c))
        else:
            cast = F.col(c).try_cast(kind_of)
            columns.append(cast.alias(c))
            bad = F.col(c).isNotNull() & cast.isNull()
            value = F.substring(F.col(c).cast("string"), 1, 80)
            problems.append(F.when(bad, F.concat(F.lit(f"column {c}: "), value,
                                                 F.lit(f" is not a {kind_of}"))))  # fmt: skip
    not_utf8 = []
    for c, name in zip(TEXT_COLUMNS, NOT_UTF8, strict=True):
        bytes_of = F.lit(None).cast("binary")
        if c in df.columns and df.schema[c].dataType.simpleString() == "string":
            bytes_of = F.when(~F.is_valid_utf8(c), F.col(c).cast("binary"))
        not_utf8.append(bytes_of.alias(name))
    problem = F.concat_ws("; ", *problems) if problems else F.lit("")
    return df.select(*columns, source, problem.alias(PROBLEM), *not_utf8)


# --- the job -----------------------------------------------------------------------------------

APP, FINDING, SLICE, EDGE, TALLY, PLAN = 0, 1, 2, 3, 4, 5  # PLAN: a plan's finding on an app

SLICE_SCHEMA = (
    "key string, app_id string, application_id string, version string, upgrade string, roles int"
)


# Findings counted by rule, name, severity and check (and how many acknowledged), per partition:
# the rule histogram of summary.json.
TALLY_SCHEMA = (
    "rule string, name string, severity string, check string, count int, acknowledged int"
)


class _Tally:
    """The findings a partition makes, counted as :data:`TALLY_SCHEMA` rows: made in the pass
    that makes the findings (so a partition computed again counts again, unlike an accumulator),
    a few hundred rows the summary adds up instead of a pass of the JVM over every finding."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str, str, str], list[int]] = {}

    def add(self, row: FindingRow) -> None:
        key = (row.rule, row.name, row.severity, row.check)
        counted = self.counts.get(key)
        if counted is None:
            counted = self.counts[key] = [0, 0]
        counted[0] += 1
        counted[1] += row.acknowledged is not None

    def rows(self) -> Iterator[tuple[str, str, str, str, int, int]]:
        for (rule, name, severity, check), (count, acknowledged) in self.counts.items():
            yield rule, name, severity, check, count, acknowledged


def _struct(ddl: str) -> str:
    return "struct<" + ", ".join(f.strip().replace(" ", ":", 1) for f in ddl.split(",")) + ">"


# One Python pass writes every kind of row into one wide table (one column per kind, the others
# null); the JVM then caches it and splits it, so nothing is unpickled twice. Rows are plain
# tuples: an app's findings, its summary row, the plan's findings on it (judged on its whole
# facts: lineage.plan_findings), one small row per slice of the lineage graph it belongs to (the
# slice's topic and what the app does with it, not the app's whole facts), and the partition's
# counts of findings.
SCANNED_SCHEMA = (
    f"kind int, finding {_struct(FINDINGS_SCHEMA)}, app {_struct(APP_ROW_SCHEMA)}, "
    f"slice {_struct(SLICE_SCHEMA)}, tally {_struct(TALLY_SCHEMA)}"
)
JUDGED_SCHEMA = (
    f"kind int, finding {_struct(FINDINGS_SCHEMA)}, edge {_struct(EDGES_SCHEMA)}, "
    f"tally {_struct(TALLY_SCHEMA)}"
)


def _scan(
    settings: Settings, changes: tuple[PartitionChange, ...]
) -> Callable[[Iterable[tuple[str, list[Version]]]], Iterator[tuple[Any, ...]]]:
    def run(apps: Iterable[tuple[str, list[Version]]]) -> Iterator[tuple[Any, ...]]:
        chosen = FleetRules.of(settings)
        # An app's check makes no reference cycles: the collector's passes over everything
        # the worker holds only cost (a fifth of the scan's CPU, measured in one process).
        tally = _Tally()
        with cycles_uncollected():
            for app_id, versions in apps:
                result = scan_app(app_id, versions, settings)
                yield (APP, None, result.app.as_tuple(), None, None)
                for row in result.findings:
                    tally.add(row)
                    yield (FINDING, row.as_tuple(), None, None, None)
                if result.facts is not None:
                    # the plan's findings need the app's whole facts, which no slice holds
                    for row in plan_findings(result.facts, changes, settings, chosen):
                        tally.add(row)
                        yield (PLAN, row.as_tuple(), None, None, None)
                    for part in slice_rows(result.facts):
                        yield (SLICE, None, None, part, None)
        for counted in tally.rows():
            yield (TALLY, None, None, None, counted)

    return run


def _judge(settings: Settings) -> Callable[[Iterable[Any]], Iterator[tuple[Any, ...]]]:
    def run(rows: Iterable[Any]) -> Iterator[tuple[Any, ...]]:
        chosen = FleetRules.of(settings)
        tally = _Tally()
        with cycles_uncollected():  # nor does judging a slice
            # the partition's slices in a few graphs, not a graph per slice (slice_graphs)
            for graph in slice_graphs(rows):
                for finding in judge(graph, settings, chosen):
                    tally.add(finding)
                    yield (FINDING, finding.as_tuple(), None, None)
                for e in edges(graph):
                    yield (EDGE, None, (e.upstream, e.topic, e.downstream, e.stateful,
                                        e.key_change, e.risky), None)  # fmt: skip
        for counted in tally.rows():
            yield (TALLY, None, None, counted)

    return run


def slices(parts: DataFrame, partitions: int) -> DataFrame:
    """The rows of :data:`SLICE_SCHEMA` in ``partitions`` partitions, every slice (``t:<topic>``,
    ``a:<application.id>``) whole in one of them: a shuffle of the rows as they are, not grouped
    (the JVM's collect_list of structs cost more than the judging it fed, and the judge does
    not need the rows of a slice together, only in the same partition)."""
    return parts.repartition(partitions, "key")


# Input bytes per partition, when the input is local and its size known: a describe() text is a
# few kilobytes (less compressed in Parquet), so a partition holds tens of apps or more, enough
# work to pay for its tasks; a fleet of a few apps runs one task per stage, not 4 x cores.
BYTES_PER_PARTITION = 128 * 1024


def sized_partitions(input_bytes: int | None, cores: int) -> int:
    """The scan's partitions: 4 x cores (every core busy, and stragglers evened out), or fewer
    for a small local input of ``input_bytes`` (one per :data:`BYTES_PER_PARTITION`; None: not
    a local input)."""
    most = max(4, cores * 4)
    if input_bytes is None:
        return most
    return max(1, min(most, input_bytes // BYTES_PER_PARTITION + 1))


def input_bytes(path: str) -> int | None:
    """The regular files' bytes under a local ``path`` (a FIFO or a link is not followed);
    None for another filesystem."""
    local = local_path(path)
    return None if local is None else _local_bytes(local)


def _local_bytes(path: str) -> int:
    try:
        if not os.path.isdir(path):
            return os.stat(path).st_size
        total = 0
        for folder, _, files in os.walk(path):
            for name in files:
                info = os.lstat(os.path.join(folder, name))
                total += info.st_size if stat.S_ISREG(info.st_mode) else 0
        return total
    except OSError:
        return 0


@dataclass
class ScanResult:
    """What comes back to the driver: counts and short lists only."""

    summary: dict[str, Any]
    seconds: float


def records_classes(master: str | None, options: ScanOptions) -> bool:
    """Whether a new session for this scan on ``master`` may write the archive of Spark's
    classes (:mod:`linter.fleet.classdata`): only a scan that runs the whole job, not the
    small-fleet path, which loads few of the SQL classes."""
    from linter.fleet.environment import master_to_set

    return not is_small(master_to_set(master) or "", input_bytes(options.input) or 0, options)


def run_scan(spark: SparkSession, options: ScanOptions, log: Callable[[str], None]) -> ScanResult:
    started = time.monotonic()
    sc = spark.sparkContext
    size = input_bytes(options.input)
    partitions = options.partitions or sized_partitions(size, sc.defaultParallelism)
    if is_small(str(sc.master), size or 0, options):
        # A directory tree is read without SQL: its session state is never even built.
        tree = detect_format(options.input, options.input_format) == "dir"
        with nullcontext() if tree else _sql_conf(spark, partitions):
            apps = read_versions(spark, options.input, options.input_format, partitions)
            summary = run_small(spark, apps, options, partitions, log, started)
        return ScanResult(summary=summary, seconds=time.monotonic() - started)
    with _sql_conf(spark, partitions):
        return _run(spark, options, log, partitions, started)


@contextmanager
def _sql_conf(spark: SparkSession, partitions: int) -> Iterator[None]:
    """The SQL settings of a scan, set for the scan only (the session may be the caller's)."""
    # Descriptions are small for their CPU cost: keep every partition, so every core has work.
    conf = {
        "spark.sql.shuffle.partitions": str(partitions),
        "spark.sql.adaptive.coalescePartitions.enabled": "false",
        # Adaptive execution runs every shuffle's map side as a job of its own and re-plans
        # after it: seconds of driver round trips on a two-core machine, for plans that are
        # already right (the partition count is set above, the one join is small).
        "spark.sql.adaptive.enabled": "false",
        # Whole-stage code generation compiles a Java class per stage with Janino: on a JVM
        # that has just started, seconds for queries over a few thousand rows; the rows
        # here are few for their Python cost, and interpreted stages handle them in
        # milliseconds.
        "spark.sql.codegen.wholeStage": "false",
    }
    saved = {key: spark.conf.get(key, None) for key in conf}
    for key, value in conf.items():
        spark.conf.set(key, value)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, old)


def _run(
    spark: SparkSession,
    options: ScanOptions,
    log: Callable[[str], None],
    partitions: int,
    started: float,
) -> ScanResult:
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    from linter.fleet.outputs import (
        rows_in_line,
        summarize,
        write_findings,
        write_summary,
        write_tables,
    )

    settings, changes = options.settings, options.changes
    with _progress(spark, log, options.progress):
        apps = read_versions(spark, options.input, options.input_format, partitions)
        scanned = spark.createDataFrame(
            apps.mapPartitions(_scan(settings, changes)), SCANNED_SCHEMA, verifySchema=False
        ).persist(StorageLevel.MEMORY_AND_DISK)
        scanned.count()  # every app scanned, on every core, into the cache
        kind = F.col("kind")
        parts = scanned.where(kind == SLICE).select("slice.*")
        judged = spark.createDataFrame(
            slices(parts, partitions).rdd.mapPartitions(_judge(settings)),
            JUDGED_SCHEMA,
            verifySchema=False,
        ).persist(StorageLevel.MEMORY_AND_DISK)
        judged.count()  # every slice of the lineage graph judged, into the cache
        log(f"apps scanned and lineage judged ({time.monotonic() - started:.1f} s)")
        # the lineage findings and the plan's, which count towards the apps they name
        fleet_findings = (
            judged.where(kind == FINDING)
            .select("finding.*")
            .unionByName(scanned.where(kind == PLAN).select("finding.*"))
        )
        findings = scanned.where(kind == FINDING).select("finding.*").unionByName(fleet_findings)
        app_rows = scanned.where(kind == APP).select("app.*")
        edge_rows = judged.where(kind == EDGE).select("edge.*")
        tallies = scanned.where(kind == TALLY).select("tally.*").unionByName(
            judged.where(kind == TALLY).select("tally.*")
        )
        # The sorted findings file is written by one task; the other tables and the aggregates
        # run beside it, on the other cores.
        with ThreadPoolExecutor(max_workers=1) as pool:
            pending = pool.submit(write_findings, findings, options.out)
            tables = write_tables(
                findings, fleet_findings, app_rows, edge_rows, tallies, options.out
            )
            summary = summarize(tables, options)
            pending.result()
    write_summary(summary, options.out)
    log(f"tables written to {options.out} ({time.monotonic() - started:.1f} s)")
    log(rows_in_line(summary))
    scanned.unpersist()
    judged.unpersist()
    return ScanResult(summary=summary, seconds=time.monotonic() - started)


class _progress:
    """Every few seconds, the running stages' done/total task counts on the log (stderr)."""

    def __init__(self, spark: SparkSession, log: Callable[[str], None], on: bool):
        self.tracker = spark.sparkContext.statusTracker()
        self.log, self.on = log, on
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> _progress:
        if self.on:
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.on:
            self.thread.join(timeout=5)

    def _run(self) -> None:
        last = ""
        while not self.stop.wait(5.0):
            parts = []
            for stage_id in sorted(self.tracker.getActiveStageIds()):
                info = self.tracker.getStageInfo(stage_id)
                if info is not None:
                    parts.append(f"stage {stage_id}: {info.numCompletedTasks}/{info.numTasks}")
            line = ", ".join(parts)
            if line and line != last:
                self.log(f"progress: {line} tasks")
                last = line
