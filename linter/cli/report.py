"""``ksafe report``: one report (HTML by default) for a release that changes both a Kafka Streams
application and the cluster it runs on."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from linter.cli.common import (
    checking_options,
    config_option,
    effective_fail_on,
    emit,
    load,
    single_stdin,
    wants,
)
from linter.report import FORMATS

# no click checks: the reader refuses a missing or irregular path with one line, exit 2
_FILE = click.Path(path_type=Path)


@click.command("report")
@click.option("--topology-before", type=_FILE, default=None,
              help="describe() text of the running version.")
@click.option("--topology-after", type=_FILE, default=None,
              help="describe() text of the version to deploy.")
@click.option("--application-id", default=None, help="Name real changelog/repartition topics.")
@click.option("--config-before", type=_FILE, default=None,
              help="Streams .properties of the running version.")
@click.option("--config-after", type=_FILE, default=None,
              help="Streams .properties of the new version.")
@click.option("--snapshot", "snapshot_path", type=_FILE,
              default=None, help="The cluster: a YAML/JSON snapshot or a folder of captures.")
@click.option("--plan", "plan_path", type=_FILE, default=None, help="The cluster change plan.")
@click.option("--format", "fmt", type=click.Choice(list(FORMATS)), default="html",
              show_default=True, help="Report format.")
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False, allow_dash=True),
              default=None, help="Write the report here (e.g. report.html) instead of stdout.")
@checking_options
@config_option
def report_command(
    topology_before: Path | None,
    topology_after: Path | None,
    application_id: str | None,
    config_before: Path | None,
    config_after: Path | None,
    snapshot_path: Path | None,
    plan_path: Path | None,
    fmt: str,
    output: Path | None,
    fail_on: str | None,
    config_path: Path | None,
) -> None:
    """Judge an application upgrade (--topology-before/--topology-after, optional Streams
    configs) and a cluster change plan (--snapshot/--plan) together: one verdict, one runbook,
    the topology diagrams and the step-by-step cluster timeline in one report."""
    from linter import api
    from linter.topology.parse import parse_file

    if (topology_before is None) != (topology_after is None):
        raise click.UsageError("give both --topology-before and --topology-after, or neither")
    if (snapshot_path is None) != (plan_path is None):
        raise click.UsageError("give both --snapshot and --plan, or neither")
    if topology_after is None and plan_path is None and config_after is None:
        raise click.UsageError(
            "nothing to report: give --topology-before/--topology-after and/or --snapshot/--plan"
        )
    single_stdin(topology_before, topology_after, config_before, config_after, snapshot_path,
                 plan_path)
    config = load(config_path)
    anchor = topology_after or plan_path or config_after
    settings = config.settings_for(anchor) if anchor is not None else config.settings
    if application_id is not None:
        settings = replace(settings, application_id=application_id)

    from cluster_engine.ingest import load_snapshot
    from cluster_engine.plan import load_plan
    from linter.report.timeline import timeline_from_simulation
    from linter.topology.diff import diff as match
    from linter.topology.streams_config import parse_properties_file

    before = parse_file(topology_before) if topology_before is not None else None
    after = parse_file(topology_after) if topology_after is not None else None
    report, simulation = api.release(
        settings,
        before=before,
        after=after,
        streams_before=parse_properties_file(config_before) if config_before else None,
        streams_after=parse_properties_file(config_after) if config_after else None,
        snapshot=load_snapshot(snapshot_path) if snapshot_path is not None else None,
        plan=load_plan(plan_path) if plan_path is not None else None,
        snapshot_path=str(snapshot_path) if snapshot_path is not None else None,
    )
    extra: dict[str, Any] = {"application_id": settings.application_id}
    if before is not None and after is not None:
        extra.update(before=before, after=after, diff=match(before, after))
    if simulation is not None:
        extra["timeline"] = timeline_from_simulation(simulation)
    html = extra if wants("html", fmt) else {}
    sys.exit(emit(report, fmt, output, effective_fail_on(fail_on, settings), **html))


COMMANDS: tuple[click.Command, ...] = (report_command,)
