"""The ``ksafe`` group: commands loaded when named, user errors as one line, quiet broken pipes.

Importing this module (and so ``linter.cli``) imports click and nothing of ksafe's models,
rules, parser or cluster engine: ``ksafe --version`` and ``ksafe --help`` stay fast, and each
command pulls in what it needs when it runs.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from typing import Any

import click

EXIT_USAGE = 2
# What a shell reports for a program killed by SIGPIPE (128 + 13). Not 1, click's own choice:
# 1 means "findings" here, and a pipe closed early is not a finding.
EXIT_BROKEN_PIPE = 141


@dataclass(frozen=True)
class Entry:
    """A command of the group: where it lives, and its one-line help for ``ksafe --help``."""

    module: str
    attribute: str
    summary: str


# The first paragraph of each command's docstring (a test holds them equal), so the group's
# help lists the commands without importing them.
COMMANDS: dict[str, Entry] = {
    "baseline": Entry(
        "linter.cli.workflow", "baseline_command",
        "Write today's findings as acknowledgements, so only new problems fail.",
    ),
    "cluster": Entry(
        "linter.cli.cluster", "cluster_group",
        "KRaft cluster: build a snapshot from captured tool outputs, check a change plan.",
    ),
    "diff": Entry(
        "linter.cli.topology", "diff_command",
        "Judge the upgrade from BEFORE to AFTER (two describe() texts) and print a verdict and "
        "a deployment plan.",
    ),
    "explain": Entry(
        "linter.cli.topology", "explain_command",
        "Print a rule's documentation (by id, e.g. KS201, or name, e.g. store-renamed).",
    ),
    "fleet": Entry(
        "linter.cli.fleet", "fleet_group",
        "Check a whole fleet of Kafka Streams apps (needs the spark extra and Java 17+).",
    ),
    "lint": Entry(
        "linter.cli.topology", "lint_command",
        "Lint describe() texts: stores, repartition topics and operators left with generated "
        "names (each finding gives the DSL call that names it).",
    ),
    "parse": Entry(
        "linter.cli.topology", "parse_command",
        "Parse describe() texts and print the model (canonical text, or JSON). - reads "
        "standard input.",
    ),
    "report": Entry(
        "linter.cli.report", "report_command",
        "Judge an application upgrade (--topology-before/--topology-after, optional Streams "
        "configs) and a cluster change plan (--snapshot/--plan) together: one verdict, one "
        "runbook, the topology diagrams and the step-by-step cluster timeline in one report.",
    ),
    "rules": Entry(
        "linter.cli.topology", "rules_command",
        "List every rule: id, name, default severity, impact and summary.",
    ),
    "schema": Entry(
        "linter.cli.topology", "schema_command",
        "Print the JSON schema of a model ksafe reads or writes.",
    ),
}


def load_command(name: str) -> click.Command:
    """The command ``name``, imported now, with ``-q``/``-v`` on it and its subcommands."""
    entry = COMMANDS[name]
    command: click.Command = getattr(importlib.import_module(entry.module), entry.attribute)
    if name == "cluster":
        from linter.cli.workflow import CLUSTER_COMMANDS

        assert isinstance(command, click.Group)
        for sub in CLUSTER_COMMANDS:
            command.add_command(sub)
    from linter.cli.common import add_verbosity

    add_verbosity(command)
    return command


class KsafeGroup(click.Group):
    """Turns our own input errors into a one-line message and exit code 2, never a traceback;
    a reader that closes the pipe early (``ksafe rules | head``) ends the run quietly."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.add_command(load_command(cmd_name), cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            loaded = self.commands.get(name)
            if loaded is not None:
                rows.append((name, loaded.get_short_help_str(limit)))
            else:
                # the summary cut as click cuts a loaded command's help (its own helper's
                # signature is not stable across click releases)
                stand_in = click.Command(name, help=COMMANDS[name].summary)
                rows.append((name, stand_in.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        from linter.cli.common import USER_ERRORS, describe

        try:
            try:
                return super().invoke(ctx)
            finally:
                # what is still buffered meets a closed pipe here, not at interpreter exit
                sys.stdout.flush()
        except BrokenPipeError:
            quiet_stdout()
            ctx.exit(EXIT_BROKEN_PIPE)
        except USER_ERRORS as error:
            # messages quote the input (file names, values read from captures): escape its
            # control characters so they cannot repaint the terminal
            from linter.report.text import sanitize

            click.echo(f"ksafe: {sanitize(describe(error))}", err=True)
            ctx.exit(EXIT_USAGE)


def quiet_stdout() -> None:
    """Point standard output at the null device, so the flush at exit cannot fail again and
    print "Exception ignored ... BrokenPipeError" (the recipe of Python's signal docs)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a test runner's in-memory stream
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
