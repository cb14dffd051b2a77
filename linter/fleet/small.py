"""A small local fleet on Spark: two Python passes, and the tables written by the driver.

On a fleet of a few apps the scan's own work is milliseconds; a fresh scan spent its time in a
dozen SQL jobs on a JVM that had just started (planning a cached relation, a groupBy, three
sorted Parquet writers, six summary queries), each cold, for tables of a few hundred rows. So
when the input and ``--out`` are local and the input is at most :data:`SMALL_INPUT` bytes, Spark
still runs the per-app scan and the per-slice lineage judgement (:func:`linter.fleet.scan.scan_app`,
:func:`linter.fleet.lineage.judge`, the same code as on a large fleet), as two plain RDD jobs, and
their rows, a few hundred, come back to the driver, which sorts, aggregates and writes them as
``--engine local`` does (:func:`linter.fleet.inprocess.write_outputs`): the same rows in the same
order and the same summary bytes. A larger fleet keeps the job of :mod:`linter.fleet.job`, where
the driver sees counts and top-N lists only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from linter.api import Settings
from linter.fleet.lineage import (
    Edge,
    FleetRules,
    edges,
    judge,
    plan_findings,
    slice_graphs,
    slice_rows,
)
from linter.fleet.options import ScanOptions
from linter.fleet.rows import AppRow, FindingRow
from linter.fleet.scan import Version, scan_app
from linter.lineage import PartitionChange

if TYPE_CHECKING:
    from pyspark import RDD
    from pyspark.sql import SparkSession

# A describe() text is a few kilobytes: 2 MiB is some 150 apps, a few thousand rows of results.
SMALL_INPUT = 2 * 1024 * 1024

SliceRow = tuple[str, str, str, str | None, int]  # app_id, application_id, version, upgrade, roles
Slice = tuple[str, list[SliceRow]]
Judged = tuple[list[FindingRow], list[Edge]]


def is_small(master: str, input_bytes: int, options: ScanOptions) -> bool:
    """Whether the driver writes this scan's tables: on a local master (the driver and the
    executors share one filesystem), a local input of at most :data:`SMALL_INPUT` bytes (0: none,
    or unknown) and a local ``--out``."""
    from linter.fleet.inputs import local_path

    return (
        master.startswith("local")
        and 0 < input_bytes <= SMALL_INPUT
        and local_path(options.out) is not None
    )


def _scan(
    settings: Settings, changes: tuple[PartitionChange, ...]
) -> Callable[[Iterable[tuple[str, list[Version]]]], Iterator[Any]]:
    def run(apps: Iterable[tuple[str, list[Version]]]) -> Iterator[Any]:
        chosen = FleetRules.of(settings)
        for app_id, versions in apps:
            result = scan_app(app_id, versions, settings)
            facts = result.facts
            if facts is None:
                yield result.app, result.findings, []
                continue
            # the plan's findings need the app's whole facts, which no slice holds
            plan = plan_findings(facts, changes, settings, chosen)
            yield result.app, (*result.findings, *plan), list(slice_rows(facts))

    return run


def _judge(settings: Settings) -> Callable[[Iterable[Slice]], Iterator[Judged]]:
    def run(slices: Iterable[Slice]) -> Iterator[Judged]:
        chosen = FleetRules.of(settings)
        rows = ((key, *app) for key, apps in slices for app in apps)
        for graph in slice_graphs(rows):  # as the large fleet's job judges them
            yield judge(graph, settings, chosen), list(edges(graph))

    return run


def run_small(
    spark: SparkSession,
    apps: RDD[Any],
    options: ScanOptions,
    partitions: int,
    log: Callable[[str], None],
    started: float,
) -> dict[str, Any]:
    """The scan of ``apps`` (its RDD of ``(app_id, [Version, ...])``); the summary."""
    from linter.fleet.inprocess import write_outputs
    from linter.fleet.local import LocalScan

    settings, changes = options.settings, options.changes
    scanned: list[tuple[AppRow, tuple[FindingRow, ...], list[tuple[Any, ...]]]]
    scanned = apps.mapPartitions(_scan(settings, changes)).collect()
    findings = [f for _, own, _ in scanned for f in own]
    slices: dict[str, list[SliceRow]] = {}
    for _, _, parts in scanned:
        for key, *app in parts:
            slices.setdefault(key, []).append(tuple(app))
    lineage: list[Edge] = []
    if slices:  # as on a large fleet: no slice, nothing judged
        groups = spark.sparkContext.parallelize(list(slices.items()), min(partitions, len(slices)))
        for fleet, found in groups.mapPartitions(_judge(settings)).collect():
            findings.extend(fleet)
            lineage.extend(found)
    log(
        f"apps scanned and lineage judged ({time.monotonic() - started:.1f} s); a small local"
        " fleet: the driver writes the tables"
    )
    scan = LocalScan(
        findings=tuple(sorted(findings, key=FindingRow.sort_key)),
        apps=tuple(sorted((app for app, _, _ in scanned), key=lambda a: a.app_id)),
        edges=tuple(lineage),
    )
    return write_outputs(scan, options, log, started)
