"""Topology commands: ``parse``, ``schema``; ``lint``, ``diff``, ``rules``, ``explain``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from linter.cli.common import write_output
from linter.topology.model import Description
from linter.topology.parse import parse_file


@click.command("parse")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), default=None)
def parse_command(files: tuple[Path, ...], fmt: str, output: Path | None) -> None:
    """Parse describe() texts and print the model (canonical text, or JSON)."""
    from linter.topology.render import render, to_jsonable

    models: list[Description] = [parse_file(f) for f in files]
    if fmt == "json":
        payload = [to_jsonable(m) for m in models]
        text = json.dumps(payload[0] if len(payload) == 1 else payload, indent=2)
    else:
        text = "".join(render(m) for m in models)
    write_output(text, output)


@click.command("schema")
@click.argument("what", type=click.Choice(["topology", "report", "snapshot", "plan"]))
def schema_command(what: str) -> None:
    """Print the JSON schema of a model ksafe reads or writes."""
    from linter.cli.schemas import schema_of

    click.echo(json.dumps(schema_of(what), indent=2, sort_keys=True))


COMMANDS: tuple[click.Command, ...] = (parse_command, schema_command)
