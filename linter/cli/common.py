"""What every command shares: user-error handling, output options, exit codes."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from cluster_engine.errors import ClusterInputError
from linter.topology.parse import TopologyParseError
from rules.framework import Severity

F = TypeVar("F", bound=Callable[..., Any])

# Errors a user can cause with their input: printed as one line (``path:line:col: ...``), exit 2.
USER_ERRORS: tuple[type[Exception], ...] = (TopologyParseError, ClusterInputError, OSError)

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class KsafeGroup(click.Group):
    """Turns our own input errors into a one-line message and exit code 2, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except USER_ERRORS as error:
            click.echo(f"ksafe: {_describe(error)}", err=True)
            ctx.exit(EXIT_USAGE)


def _describe(error: Exception) -> str:
    if isinstance(error, OSError) and error.filename is not None:
        return f"{error.filename}: {error.strerror or error}"
    return str(error)


FAIL_ON_CHOICES = ["error", "warning", "info", "never"]


def fail_on_option(func: F) -> F:
    return click.option(
        "--fail-on",
        type=click.Choice(FAIL_ON_CHOICES),
        default=None,
        help="Lowest severity that makes the exit code 1 (default: error, or the config's).",
    )(func)


def parse_fail_on(value: str | None) -> Severity | None:
    value = value or "error"
    return None if value == "never" else Severity(value)


def write_output(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
    else:
        output.write_text(text, encoding="utf-8")
