"""``ksafe report``: one report (HTML by default) for a release that changes both a Kafka Streams
application and the cluster it runs on."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from linter.cli.common import (
    checking_options,
    config_option,
    effective_fail_on,
    emit,
    load,
    single_stdin,
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
@click.option("--streams-version-before", default=None, help="Kafka Streams version running now.")
@click.option("--streams-version-after", default=None, help="Kafka Streams version to deploy.")
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
    streams_version_before: str | None,
    streams_version_after: str | None,
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
    result = api.check_release(
        load(config_path),
        topology_before=topology_before,
        topology_after=topology_after,
        application_id=application_id,
        config_before=config_before,
        config_after=config_after,
        streams_version_before=streams_version_before,
        streams_version_after=streams_version_after,
        snapshot=snapshot_path,
        plan=plan_path,
    )
    sys.exit(emit(result, fmt, output, effective_fail_on(fail_on, result.settings)))


COMMANDS: tuple[click.Command, ...] = (report_command,)
