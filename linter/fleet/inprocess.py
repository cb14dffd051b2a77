"""``--engine local``: the fleet scan in this process, without Spark, for small fleets.

A fresh Spark scan pays a JVM, a session and a dozen small jobs before the first app is read:
most of its time on a fleet of a few apps. This engine reads a local directory tree with the
same reader, scans it with :func:`linter.fleet.local.scan_fleet` (the same per-app and lineage
code), and writes the same tables, ``summary.json`` and dashboard: the same rows in the same
order, the same summary bytes. Spark stays the default and the engine of any other input.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from linter.fleet.lineage import CLUSTER_CHECK, LINEAGE_CHECK, Edge
from linter.fleet.local import LocalScan, cycles_uncollected, scan_fleet
from linter.fleet.options import ScanOptions
from linter.fleet.outputs import (
    APPS,
    APPS_SCHEMA,
    FINDINGS,
    LINEAGE,
    rows_in_line,
    write_summary,
)
from linter.fleet.rows import EDGES_SCHEMA, FINDINGS_SCHEMA, FindingRow
from linter.fleet.tree import app_dirs, read_app
from linter.report.json import FORMAT_VERSION, schema_id

ENGINES = ("spark", "local")


def local_engine_problem(kind: str, local: str | None) -> str | None:
    """Why ``--engine local`` cannot read this input (None: it can)."""
    if kind != "dir" or local is None:
        return "--engine local reads a local directory tree; use --engine spark for this input"
    return None


def run_local(options: ScanOptions, log: Callable[[str], None]) -> dict[str, Any]:
    """The scan of a local directory tree, its outputs under ``options.out``; the summary."""
    from linter.fleet.inputs import local_path

    started = time.monotonic()
    root = local_path(options.input)
    assert root is not None
    with cycles_uncollected():
        fleet = [read_app(item) for item in app_dirs(root)]
        scan = scan_fleet(fleet, options.settings, options.changes)
        log(f"apps scanned and lineage judged ({time.monotonic() - started:.1f} s)")
        return write_outputs(scan, options, log, started)


def write_outputs(
    scan: LocalScan, options: ScanOptions, log: Callable[[str], None], started: float
) -> dict[str, Any]:
    """The tables, ``summary.json`` and dashboard of ``scan`` under a local ``options.out``;
    the summary. (Also the Spark job's, for a small fleet: :mod:`linter.fleet.small`.)"""
    from linter.fleet.inputs import local_path

    apps = app_rows(scan)
    edges = sorted(scan.edges, key=lambda e: (e.topic, e.upstream, e.downstream))
    out = local_path(options.out) or options.out
    _write(out, FINDINGS, FINDINGS_SCHEMA, [f.as_tuple() for f in scan.findings])
    _write(out, APPS, APPS_SCHEMA, apps)
    _write(out, LINEAGE, EDGES_SCHEMA, [_edge(e) for e in edges])
    summary = summarize(scan.findings, apps, edges, options)
    write_summary(summary, options.out)
    log(f"tables written to {options.out} ({time.monotonic() - started:.1f} s)")
    log(rows_in_line(summary))
    return summary


def _edge(e: Edge) -> tuple[Any, ...]:
    return (e.upstream, e.topic, e.downstream, e.stateful, e.key_change, e.risky)


def app_rows(scan: LocalScan) -> list[tuple[Any, ...]]:
    """The apps table: each app's row with its fleet findings counted in, as the Spark job's
    ``write_tables`` makes it."""
    fleet: dict[str, list[FindingRow]] = {}
    for f in scan.findings:
        fleet_row = f.check in (LINEAGE_CHECK, CLUSTER_CHECK)
        if fleet_row and f.app_id is not None and f.acknowledged is None:
            fleet.setdefault(f.app_id, []).append(f)
    verdicts = scan.verdicts()
    rows = []
    for a in scan.apps:
        own = fleet.get(a.app_id, [])
        counts = Counter(f.severity for f in own)
        errors, warnings, infos = (a.errors + counts["error"], a.warnings + counts["warning"],
                                   a.infos + counts["info"])  # fmt: skip
        verdict, strategy = verdicts[a.app_id]
        risk = 1000 * (a.status == "quarantined") + 100 * errors + 10 * warnings + infos
        rows.append((
            a.app_id, a.application_id, a.status, a.error, a.versions, a.latest_version,
            a.deployed_version, verdict, strategy, errors, warnings, infos, len(own), risk,
        ))  # fmt: skip
    return rows


def _arrow_schema(ddl: str) -> Any:
    import pyarrow as pa

    types = {"string": pa.string(), "int": pa.int32(), "boolean": pa.bool_(),
             "array<string>": pa.list_(pa.field("element", pa.string()))}  # fmt: skip
    return pa.schema([
        (name, types[kind]) for name, kind in (c.strip().split(" ", 1) for c in ddl.split(","))
    ])  # fmt: skip


def _write(out: str, name: str, ddl: str, rows: Sequence[tuple[Any, ...]]) -> None:
    """One table as one Parquet file in a directory of its name, where Spark puts its part."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = _arrow_schema(ddl)
    columns = {f.name: [r[i] for r in rows] for i, f in enumerate(schema)}
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):  # what a previous scan left (Spark's mode "overwrite")
        os.remove(os.path.join(folder, old))
    pq.write_table(pa.table(columns, schema=schema), os.path.join(folder, "part-00000.parquet"))


def summarize(
    findings: Sequence[FindingRow], apps: Sequence[tuple[Any, ...]], edges: Sequence[Edge],
    options: ScanOptions,
) -> dict[str, Any]:  # fmt: skip
    """:func:`linter.fleet.outputs.summarize` over rows in memory: the same dictionary."""
    names = [c.strip().split(" ", 1)[0] for c in APPS_SCHEMA.split(",")]
    table = [dict(zip(names, row, strict=True)) for row in apps]
    per_rule: Counter[tuple[str, str, str, str]] = Counter()
    acked: Counter[tuple[str, str, str, str]] = Counter()
    for f in findings:
        key = (f.rule, f.name, f.severity, f.check)
        per_rule[key] += 1
        acked[key] += f.acknowledged is not None
    histogram: list[dict[str, Any]] = sorted(
        ({"rule": k[0], "name": k[1], "severity": k[2], "check": k[3], "count": n,
          "acknowledged": acked[k]} for k, n in per_rule.items()),
        key=lambda r: (-r["count"], r["rule"], r["severity"], r["check"], r["name"]),
    )  # fmt: skip
    severities = {
        s: sum(r["count"] - r["acknowledged"] for r in histogram if r["severity"] == s)
        for s in ("error", "warning", "info")
    }
    severities["acknowledged"] = sum(r["acknowledged"] for r in histogram)
    verdicts = Counter(a["verdict"] or "none" for a in table)
    scanned = sum(1 for a in table if a["status"] == "scanned")
    quarantined = sum(1 for a in table if a["status"] == "quarantined")
    worst = sorted((a for a in table if a["risk"] > 0), key=lambda a: (-a["risk"], a["app_id"]))
    stuck = sorted((a for a in table if a["status"] == "quarantined"), key=lambda a: a["app_id"])
    risky = sorted((e.topic, e.upstream, e.downstream) for e in edges if e.risky)
    plan = sorted((f for f in findings if f.app_id is None and f.check == CLUSTER_CHECK),
                  key=lambda f: (f.step if f.step is not None else -1, f.rule, f.fingerprint))
    return {
        "$schema": schema_id("fleet-summary"),
        "format_version": FORMAT_VERSION,
        "input": options.input,
        "plan": options.plan,
        "rows_in": sum(a["versions"] for a in table),
        "apps_in": len(table),
        "apps_scanned": scanned,
        "apps_quarantined": quarantined,
        "consistent": len(table) == scanned + quarantined,
        "findings": severities,
        "verdicts": dict(sorted(verdicts.items())),
        "rules": histogram,
        "worst_apps": [{k: v for k, v in a.items() if k != "error"} for a in worst[:options.top]],
        "quarantined": [{"app_id": a["app_id"], "error": a["error"]}
                        for a in stuck[:options.top]],
        "lineage": {
            "edges": len(edges),
            "risky_edges": len(risky),
            "topics": len({e.topic for e in edges}),
            "risky": [{"upstream_app": u, "topic": t, "downstream_app": d}
                      for t, u, d in risky[:options.top]],
        },
        "plan_findings": [
            {"rule": f.rule, "name": f.name, "severity": f.severity, "message": f.message,
             "step": f.step, "fingerprint": f.fingerprint}
            for f in plan[:options.top]
        ],
        "tables": {"findings": FINDINGS, "apps": APPS, "lineage": LINEAGE},
    }  # fmt: skip
