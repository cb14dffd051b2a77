"""Cluster commands: ``cluster snapshot`` (captured tool outputs -> snapshot); ``cluster check``."""

from __future__ import annotations

import atexit
import functools
import gc
import sys
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

import click

from linter.cli.common import (
    checking_options,
    config_option,
    effective_fail_on,
    emit,
    load,
    output_options,
    say,
    single_stdin,
    to_stdout,
    usage_problems,
    write_output,
)

P = ParamSpec("P")
R = TypeVar("R")


def _no_cycle_collection(command: Callable[P, R]) -> Callable[P, R]:
    """Run ``command`` with the cyclic garbage collector paused. A 200k-partition cluster is
    millions of small objects, none of them in a cycle; the collector's passes over them cost
    ~15% of a command's CPU time for nothing to free."""

    @functools.wraps(command)
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        # The interpreter's collections at exit walk every object the imports made (pydantic's
        # schemas, ~1M objects) to find nothing: frozen, they are skipped (~0.1 s a command).
        # At exit only: a library caller's own cycles stay collectable while it runs.
        atexit.unregister(gc.freeze)  # once, however many commands a process runs
        atexit.register(gc.freeze)
        if not gc.isenabled():
            return command(*args, **kwargs)
        gc.disable()
        try:
            return command(*args, **kwargs)
        finally:
            gc.enable()

    return paused


@click.group("cluster")
def cluster_group() -> None:
    """KRaft cluster: build a snapshot from captured tool outputs, check a change plan."""


@cluster_group.command("snapshot")
@click.argument("source", type=click.Path(path_type=Path))
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path, dir_okay=False, allow_dash=True),
    default=None,
    help="Write here (YAML if it ends in .yaml/.yml, else JSON); default (or -): stdout as JSON.",
)
@_no_cycle_collection
def snapshot_command(source: Path, output: Path | None) -> None:
    """Assemble a snapshot from SOURCE: a folder of captured Kafka tool outputs (each file's
    kind is recognised from its content; files it does not read are named on stderr), one
    capture, or a native YAML/JSON snapshot; - reads one capture or a native snapshot from
    standard input."""
    from linter import api
    from linter.report.safe import visible

    snapshot = api.read_snapshot(source)
    for unread in snapshot.unread:
        click.echo(visible(f"{unread.path}: not read: {unread.reason}"), err=True)
    counts = f"{len(snapshot.nodes)} node(s), {len(snapshot.topics)} topic(s)"
    if not to_stdout(output) and output is not None and output.suffix.lower() in (".yaml", ".yml"):
        import yaml

        text = yaml.safe_dump(snapshot.model_dump(mode="json"), sort_keys=False)
        write_output(text, output, what=f"snapshot ({counts})")
        return
    # written as it is made: a 200k-partition snapshot is ~80 MB of JSON
    if to_stdout(output):
        sys.stdout.writelines(api.snapshot_json(snapshot))
        sys.stdout.write("\n")
        return
    assert output is not None
    with output.open("w", encoding="utf-8") as out:
        out.writelines(api.snapshot_json(snapshot))
    say(f"snapshot ({counts}) written to {output}")


@cluster_group.command("check")
@click.option(
    "--snapshot",
    "snapshot_path",
    type=click.Path(path_type=Path),
    default=None,
    help="The cluster: a native YAML/JSON snapshot or a folder of captured tool outputs "
    "(default: the config's snapshot for this plan).",
)
@click.option(
    "--plan",
    "plan_path",
    type=click.Path(path_type=Path),
    required=True,
    help="The change plan (YAML).",
)
@click.option(
    "--topology",
    "topology_paths",
    type=click.Path(path_type=Path, dir_okay=False, exists=True, allow_dash=True),
    multiple=True,
    help="A Streams app's describe() output (repeatable; default: the config's topologies). "
    "Steps that affect an app keeping state on a topic name it. The app id is the file's "
    "[[paths]] application-id in the config, else the file name without extension.",
)
@output_options
@checking_options
@config_option
@_no_cycle_collection
def check_command(
    snapshot_path: Path | None,
    plan_path: Path,
    topology_paths: tuple[Path, ...],
    fmt: str,
    output: Path | None,
    fail_on: str | None,
    config_path: Path | None,
) -> None:
    """Simulate the change PLAN on the cluster SNAPSHOT step by step and report what would be
    refused, lose data, block producers or hang, each finding at its plan step and line."""
    from linter import api

    single_stdin(snapshot_path, plan_path, *topology_paths)
    with usage_problems():
        result = api.check_plan(
            plan_path, load(config_path), snapshot=snapshot_path, topologies=topology_paths
        )
    sys.exit(emit(result, fmt, output, effective_fail_on(fail_on, result.settings)))


COMMANDS: tuple[click.Command, ...] = (cluster_group,)
