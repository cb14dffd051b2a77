"""``ksafe fleet scan``: every app of a fleet at once, on Spark (local by default)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from linter.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    config_option,
    effective_fail_on,
    fail_on_option,
    load,
    rule_options,
)

if TYPE_CHECKING:
    from linter.api import Severity
    from linter.fleet.options import ScanOptions
    from linter.lineage import PartitionChange


@click.group("fleet")
def fleet_group() -> None:
    """Check a whole fleet of Kafka Streams apps (needs the spark extra and Java 17+)."""


@click.command("scan")
@click.argument("input_path", metavar="INPUT")
@click.option("--out", "out", required=True,
              help="Directory (or any Spark-writable URI) for the results.")
@click.option("--master", default=None,
              help="Spark master: local[N], spark://host:7077, yarn, k8s://... (default: "
              "local[*], or spark-submit's --master when run under spark-submit).")
@click.option("--engine", type=click.Choice(["spark", "local"]), default="spark",
              show_default=True,
              help="spark: local[*] or --master. local: this process, no Spark (a local "
              "directory tree; the same tables, for fleets small enough that Spark's start-up "
              "is most of the wait).")
@click.option("--input-format", type=click.Choice(["auto", "dir", "jsonl", "parquet"]),
              default="auto", show_default=True,
              help="dir: <app_id>/<version>.txt (+ .properties, DEPLOYED); jsonl; parquet.")
@click.option("--plan", "plan", default=None, type=click.Path(),
              help="A cluster change plan: find the apps its add-partitions steps hit.")
@click.option("--snapshot", "snapshot", default=None, type=click.Path(),
              help="The cluster snapshot the plan applies to (partition counts before).")
@click.option("--partitions", type=click.IntRange(min=1), default=None,
              help="Spark partitions for the per-app stage (default: 4 x cores).")
@click.option("--top", type=click.IntRange(min=1), default=50, show_default=True,
              help="Worst apps and risky edges kept in summary.json and the dashboard.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              help="What to print on stdout: a short text summary, or summary.json.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@fail_on_option
@rule_options
@config_option
def scan_command(
    input_path: str, out: str, master: str | None, engine: str, input_format: str, plan: str | None,
    snapshot: str | None, partitions: int | None, top: int, fmt: str, quiet: bool,
    fail_on: str | None, config_path: Path | None,
) -> None:  # fmt: skip
    """Scan a fleet: lint every app's latest version, diff deployed -> latest (or each
    consecutive pair), find cross-app lineage risks and, with --plan, the apps a cluster change
    hits. Writes findings/apps/lineage Parquet tables, summary.json and dashboard.html to --out.
    """
    from linter.fleet.environment import FleetSetupError, scan_session
    from linter.fleet.inputs import detect_format, input_problem, local_path, unread_files
    from linter.fleet.job import records_classes, run_scan
    from linter.fleet.options import ScanOptions

    ctx = click.get_current_context()
    if snapshot and not plan:
        raise click.UsageError("--snapshot needs --plan")
    local = local_path(input_path)
    if local is not None and not os.path.exists(local):
        _say(f"ksafe: {input_path}: no such file or directory", err=True)
        ctx.exit(EXIT_USAGE)
    kind = detect_format(input_path, input_format)  # once, for the checks and the scan
    problem = input_problem(input_path, kind) or _out_problem(out)
    if problem is not None:
        _say(f"ksafe: {problem}", err=True)
        ctx.exit(EXIT_USAGE)
    unread = unread_files(input_path, kind)
    if unread:
        shown = ", ".join(unread[:5]) + (f" and {len(unread) - 5} more" if len(unread) > 5 else "")
        _say(f"ksafe: warning: not read, not in an <app_id>/ directory: {shown}", err=True)
    # Rule selection, severities and acknowledgements from the config; the application id
    # comes from each app's own properties, never one for the whole fleet.
    config_settings = load(config_path).settings
    severity = effective_fail_on(fail_on, config_settings)
    settings = replace(config_settings, fail_on=severity, application_id=None)
    changes: tuple[PartitionChange, ...] = ()
    if plan:  # the cluster engine's readers are loaded for a plan only
        from linter.fleet.cluster import load_changes

        changes = load_changes(plan, snapshot)
    options = ScanOptions(
        input=input_path, out=out, input_format=kind,
        partitions=partitions, changes=changes, plan=plan, settings=settings,
        top=top, progress=not quiet,
    )  # fmt: skip

    def log(message: str) -> None:
        if not quiet:
            _say(f"ksafe fleet: {message}", err=True)

    started = time.monotonic()
    if engine == "local":
        try:
            summary = _local_scan(options, kind, log)
        except (OSError, ValueError) as error:  # an unwritable --out, a table pyarrow refuses
            _say(f"ksafe: fleet scan of {input_path} failed: {_first_line(error)}", err=True)
            ctx.exit(EXIT_USAGE)
        log(f"done in {time.monotonic() - started:.1f} s; results in {out}")
        _finish(summary, fmt, severity)
    record = records_classes(master, options)  # a scan of the whole job saves Spark's classes
    try:
        with scan_session(master, record_classes=record, log=log) as spark:
            ready = time.monotonic() - started
            log(f"Spark {spark.version} on {spark.sparkContext.master} ready in {ready:.1f} s")
            result = run_scan(spark, options, log)
    except FleetSetupError as error:
        _say(f"ksafe: {error}", err=True)
        ctx.exit(EXIT_USAGE)
    except Exception as error:  # Spark's own errors (missing path, bad table) -> one line
        _say(f"ksafe: fleet scan of {input_path} failed: {_first_line(error)}", err=True)
        ctx.exit(EXIT_USAGE)
    log(f"done in {time.monotonic() - started:.1f} s; results in {out}")
    _finish(result.summary, fmt, severity)


def _local_scan(options: ScanOptions, kind: str, log: Callable[[str], None]) -> dict[str, Any]:
    from linter.fleet.inprocess import local_engine_problem, run_local
    from linter.fleet.inputs import local_path

    problem = local_engine_problem(kind, local_path(options.input))
    if problem is not None:
        _say(f"ksafe: {problem}", err=True)
        click.get_current_context().exit(EXIT_USAGE)
    log("engine: local (this process, no Spark)")
    return run_local(options, log)


def _finish(summary: dict[str, Any], fmt: str, severity: Severity | None) -> NoReturn:
    """Print the summary and exit with the scan's code."""
    ctx = click.get_current_context()
    if fmt == "json":
        sys.stdout.write(json.dumps(summary, indent=2, sort_keys=True, default=str) + "\n")
    else:
        _say(_text(summary))
    if not summary["consistent"]:
        ctx.exit(EXIT_USAGE)
    ranks = {"error": 3, "warning": 2, "info": 1}
    failing = severity is not None and any(
        count and ranks[name] >= severity.rank
        for name, count in summary["findings"].items() if name in ranks
    )
    ctx.exit(EXIT_FINDINGS if failing else EXIT_OK)


def _say(text: str, *, err: bool = False) -> None:
    """Every line this command prints: app ids, file names and Spark's messages come from the
    input, so control and bidi characters in them (an OSC 52 clipboard write) are shown as
    escapes, like every other text output."""
    from linter.report.safe import visible

    click.echo("\n".join(visible(line) for line in text.split("\n")), err=err)


def _out_problem(out: str) -> str | None:
    """Why a local ``--out`` cannot be written (found before the scan, not after it)."""
    from linter.fleet.inputs import local_path

    local = local_path(out)
    if local is None:
        return None
    try:
        os.makedirs(local, exist_ok=True)
    except OSError as error:
        return f"--out {out}: cannot create the directory: {error.strerror or error}"
    if not os.access(local, os.W_OK | os.X_OK):
        return f"--out {out}: the directory is not writable"
    return None


def _first_line(error: Exception) -> str:
    """The line of a Spark error that says what went wrong: for an error raised in the JVM
    (``An error occurred while calling o69.count.``), the Java exception under it."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].startswith("An error occurred while calling"):
        return lines[1].removeprefix(": ")
    return lines[0] if lines else type(error).__name__


def _text(summary: dict[str, object]) -> str:
    from linter.report.safe import visible

    s = summary
    f = s["findings"]
    assert isinstance(f, dict)
    lineage = s["lineage"]
    assert isinstance(lineage, dict)
    lines = [
        f"{s['rows_in']} descriptions of {s['apps_in']} apps: {s['apps_scanned']} scanned, "
        f"{s['apps_quarantined']} quarantined",
        f"findings: {f['error']} errors, {f['warning']} warnings, {f['info']} infos"
        + (f" ({f['acknowledged']} acknowledged)" if f.get("acknowledged") else ""),
        f"lineage: {lineage['edges']} app-to-app edges over {lineage['topics']} topics, "
        f"{lineage['risky_edges']} risky",
    ]
    worst = s["worst_apps"]
    assert isinstance(worst, list)
    for app in worst[:10]:
        lines.append(
            f"  {visible(str(app['app_id']))}: {app['status']}, {app['errors']} errors, "
            f"{app['warnings']} warnings"
            + (f", verdict {app['verdict']}" if app.get("verdict") else "")
        )
    return "\n".join(lines)


fleet_group.add_command(scan_command)

COMMANDS: tuple[click.Command, ...] = (fleet_group,)
