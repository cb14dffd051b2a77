"""Cluster commands: ``cluster snapshot`` (captured tool outputs -> snapshot); ``cluster check``."""

from __future__ import annotations

from pathlib import Path

import click

from linter.cli.common import write_output


@click.group("cluster")
def cluster_group() -> None:
    """KRaft cluster: build a snapshot from captured tool outputs, check a change plan."""


@cluster_group.command("snapshot")
@click.argument("source", type=click.Path(path_type=Path, exists=True))
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Write here (YAML if it ends in .yaml/.yml, else JSON); default: stdout as JSON.",
)
def snapshot_command(source: Path, output: Path | None) -> None:
    """Assemble a snapshot from SOURCE: a folder of captured Kafka tool outputs (each file's
    kind is recognised from its content), one capture, or a native YAML/JSON snapshot."""
    from cluster_engine.ingest import load_snapshot

    snapshot = load_snapshot(source)
    if output is not None and output.suffix.lower() in (".yaml", ".yml"):
        import yaml

        text = yaml.safe_dump(snapshot.model_dump(mode="json"), sort_keys=False)
    else:
        text = snapshot.model_dump_json(indent=2)
    write_output(text, output)


COMMANDS: tuple[click.Command, ...] = (cluster_group,)
