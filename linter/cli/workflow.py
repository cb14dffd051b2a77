"""Commands and helpers for where ksafe runs: ``diff --git-base`` (CI and pre-commit),
``baseline`` (adoption), ``cluster check-plans`` (the change-plan pre-commit hook)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path

import click

from linter import api
from linter.cli.common import (
    checking_options,
    config_option,
    effective_fail_on,
    emit,
    load,
    output_options,
    rule_options,
    say,
    usage_problems,
    write_output,
)


@click.command("baseline")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=str))
@click.option(
    "--git-base",
    "revision",
    default=None,
    metavar="REF",
    help="Baseline the findings of a diff against REF instead of linting the files.",
)
@click.option("--reason", default=None, help="Reason recorded in every entry.")
@click.option(
    "--expires",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Expiry date (YYYY-MM-DD) of every entry.",
)
@click.option(
    "--write",
    is_flag=True,
    help="Append the entries to the configuration file (or create ksafe.toml here).",
)
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False, allow_dash=True),
              default=None, help="Write the entries here instead of standard output.")
@rule_options
@config_option
def baseline_command(
    paths: tuple[str, ...],
    revision: str | None,
    reason: str | None,
    expires: datetime | None,
    write: bool,
    output: Path | None,
    config_path: Path | None,
) -> None:
    """Write today's findings as acknowledgements, so only new problems fail.

    PATHS are describe() files or directories. Prints TOML entries for the configuration,
    or appends them to it with --write. Findings already acknowledged are left out.
    """
    from linter.baseline import append_to, baseline, table_for

    config = load(config_path)
    if revision is not None:
        result = api.check_git_base(revision, paths, config)
    else:
        result = api.check_lint_tree(paths, config)
    for done in result.done:
        say(done)
    target = config.path or Path.cwd() / "ksafe.toml"
    expiry = expires.date() if expires is not None else None
    text = baseline(
        result.report,
        target.resolve().parent,
        reason=reason or f"baseline of {date.today().isoformat()}",
        expires=expiry,
        table=table_for(target),
    )
    count = sum(line.startswith("[[") for line in text.splitlines())
    if not count:
        say("nothing to baseline: no finding that is not acknowledged already")
        if write:
            return
    if write:
        append_to(target, text)
        say(f"{count} acknowledgement(s) appended to {target}")
    else:
        write_output(text, output, what=f"{count} acknowledgement(s)")


def run_git_base(
    revision: str,
    paths: Sequence[str | Path],
    config_path: Path | None,
    fmt: str,
    output: Path | None,
    fail_on: str | None,
    application_id: str | None = None,
) -> int:
    """What ``ksafe diff --git-base`` does; returns the exit code."""
    if not paths:
        raise click.UsageError("--git-base needs at least one PATH (a file or a directory)")
    result = api.check_git_base(
        revision, [str(p) for p in paths], load(config_path), application_id=application_id
    )
    return emit(result, fmt, output, effective_fail_on(fail_on, result.settings))


def run_pre_commit(
    paths: Sequence[str | Path],
    config_path: Path | None,
    fmt: str,
    output: Path | None,
    fail_on: str | None,
    application_id: str | None = None,
) -> int:
    """What ``ksafe diff --pre-commit`` does (see :func:`pre_commit_report`); the exit code."""
    result = api.check_pre_commit(
        [str(p) for p in paths], load(config_path), os.environ, application_id=application_id
    )
    return emit(result, fmt, output, effective_fail_on(fail_on, result.settings))


@click.command("check-plans")
@click.argument(
    "plans", nargs=-1, required=True, type=click.Path(path_type=Path)
)
@click.option(
    "--snapshot",
    "snapshot_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Snapshot for every plan (default: the configuration's snapshot for each plan).",
)
@output_options
@checking_options
@config_option
def check_plans_command(
    plans: tuple[Path, ...],
    snapshot_path: Path | None,
    fmt: str,
    output: Path | None,
    fail_on: str | None,
    config_path: Path | None,
) -> None:
    """Check several change PLANS, each against the snapshot the configuration names for it
    (``snapshot`` in [tool.ksafe] or per glob in [[tool.ksafe.paths]]); one report. This is what
    the ksafe-cluster-plan pre-commit hook runs on the staged plans."""
    with usage_problems():
        result = api.check_plans(plans, load(config_path), snapshot_path)
    sys.exit(emit(result, fmt, output, effective_fail_on(fail_on, result.settings)))


COMMANDS: tuple[click.Command, ...] = (baseline_command,)
CLUSTER_COMMANDS: tuple[click.Command, ...] = (check_plans_command,)
