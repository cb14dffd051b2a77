"""What every command shares: user-error handling, output options, exit codes."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

import click

from cluster_engine.errors import ClusterInputError
from linter.api import Settings
from linter.config import Config, ConfigError, load_config
from linter.gitbase import GitError, repo_root
from linter.inputs import MalformedInput
from linter.report import FORMATS, render
from linter.report.locations import PathBase
from linter.report.model import Report
from linter.topology.parse import TopologyParseError
from linter.topology.streams_config import StreamsConfigError
from rules.framework import Severity

F = TypeVar("F", bound=Callable[..., Any])

# Errors a user can cause with their input: printed as one line (``path:line:col: ...``), exit 2.
USER_ERRORS: tuple[type[Exception], ...] = (
    TopologyParseError,
    StreamsConfigError,
    ClusterInputError,
    ConfigError,
    GitError,
    MalformedInput,
    OSError,
)

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class KsafeGroup(click.Group):
    """Turns our own input errors into a one-line message and exit code 2, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except USER_ERRORS as error:
            # messages quote the input (file names, values read from captures): escape its
            # control characters so they cannot repaint the terminal
            from linter.report.text import sanitize

            click.echo(f"ksafe: {sanitize(_describe(error))}", err=True)
            ctx.exit(EXIT_USAGE)


# An error line quotes input (a node name, a value): a 10 MB name must not make a 10 MB line.
MAX_MESSAGE = 1_000


def _describe(error: Exception) -> str:
    if isinstance(error, OSError) and error.filename is not None:
        text = f"{error.filename}: {error.strerror or error}"
    else:
        text = str(error)
    if len(text) > MAX_MESSAGE:
        text = f"{text[:MAX_MESSAGE]}... ({len(text)} characters, cut)"
    return text


FAIL_ON_CHOICES = ["error", "warning", "info", "never"]


def fail_on_option(func: F) -> F:
    return click.option(
        "--fail-on",
        type=click.Choice(FAIL_ON_CHOICES),
        default=None,
        help="Lowest severity that makes the exit code 1 (default: error, or the config's).",
    )(func)


def write_output(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
    else:
        output.write_text(text, encoding="utf-8")


def output_options(func: F) -> F:
    """``--format`` and ``--output``, shared by lint, diff, cluster check and baseline."""
    func = click.option(
        "--output",
        "-o",
        type=click.Path(path_type=Path, dir_okay=False),
        default=None,
        help="Write the report to this file instead of standard output.",
    )(func)
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(FORMATS)),
        default="text",
        show_default=True,
        help="Report format: text for terminals, json, sarif for code scanning, github for "
        "workflow annotations, markdown for a pull request comment, html.",
    )(func)


def config_option(func: F) -> F:
    """``--config FILE``: use this file instead of the nearest ksafe.toml/pyproject.toml."""
    return click.option(
        "--config",
        "config_path",
        type=click.Path(path_type=Path),
        default=None,
        help="Configuration file (default: the nearest ksafe.toml, or pyproject.toml with "
        "[tool.ksafe], walking up from the current directory).",
    )(func)


def load(config_path: Path | None) -> Config:
    """The configuration a command runs with (``--config``, else discovered, else defaults);
    its paths may lead outside its directory only with the top-level flag."""
    ctx = click.get_current_context(silent=True)
    allow = bool(ctx is not None and ctx.find_root().params.get("allow_outside_config_paths"))
    return load_config(config_path, allow_outside=allow)


def effective_fail_on(flag: str | None, settings: Settings) -> Severity | None:
    """``--fail-on`` when given, else the config's ``fail-on`` (default error)."""
    if flag is None:
        return settings.fail_on
    return None if flag == "never" else Severity(flag)


def should_color(stream: IO[str] | None = None) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    stream = stream or sys.stdout
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def path_base() -> PathBase:
    """The repository root (git's top level; the current directory outside a repository) and
    the current directory, for locations code-review tools resolve from the root."""
    here = os.path.realpath(Path.cwd())
    try:
        root = os.path.realpath(repo_root(Path(here)))
    except GitError:
        root = here
    return PathBase(root=root, cwd=here)


def emit(
    report: Report, fmt: str, output: Path | None, fail_on: Severity | None, **html: Any
) -> int:
    """Render and write ``report``; return the exit code (0 or 1) for ``fail_on``. ``html``:
    extra context for the HTML renderer (diagrams, timeline)."""
    color = output is None and fmt == "text" and should_color()
    base = path_base() if fmt in ("sarif", "github") else None
    write_output(render(report, fmt, color=color, base=base, **html), output)
    return EXIT_FINDINGS if report.fails(fail_on) else EXIT_OK
