"""What every command shares: user-error handling, the options of the checking commands
(``--select``, ``--ignore``, ``--fail-on``, ``--color``, ``--also-write``, ``-q``/``-v``),
output (``-o -`` is standard output) and exit codes.

Options that only change how a run is set up or reported are stored on the click context
(``expose_value=False``) rather than passed to each command: :func:`load` and :func:`emit`
read them, so a command gains them by its decorator alone."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import IO, Any, TypeVar

import click

from linter.api import INPUT_ERRORS, Result, Settings, Severity, UsageProblem
from linter.cli.group import EXIT_USAGE as EXIT_USAGE
from linter.cli.group import KsafeGroup as KsafeGroup
from linter.config import Config, load_config, resolve_rules
from linter.gitbase import GitError, repo_root
from linter.inputs import STDIN
from linter.inputs import describe_files as describe_files
from linter.report import FORMATS, render
from linter.report.locations import PathBase
from linter.report.model import Report
from linter.report.safe import visible

F = TypeVar("F", bound=Callable[..., Any])

# Errors a user can cause with their input: printed as one line (``path:line:col: ...``), exit 2.
USER_ERRORS: tuple[type[Exception], ...] = (*INPUT_ERRORS, OSError)

EXIT_OK, EXIT_FINDINGS = 0, 1


# An error line quotes input (a node name, a value): a 10 MB name must not make a 10 MB line.
MAX_MESSAGE = 1_000


def describe(error: Exception) -> str:
    if isinstance(error, OSError) and error.filename is not None:
        text = f"{error.filename}: {error.strerror or error}"
    else:
        text = str(error)
    if len(text) > MAX_MESSAGE:
        text = f"{text[:MAX_MESSAGE]}... ({len(text)} characters, cut)"
    return text


FAIL_ON_CHOICES = ["error", "warning", "info", "never"]
COLOR_CHOICES = ["auto", "always", "never"]

# Where the context-held options live (ctx.meta keys).
_SELECT, _IGNORE, _COLOR, _ALSO, _VERBOSITY = (
    "ksafe.select", "ksafe.ignore", "ksafe.color", "ksafe.also_write", "ksafe.verbosity",
)


def _meta(key: str, default: Any) -> Any:
    ctx = click.get_current_context(silent=True)
    return default if ctx is None else ctx.meta.get(key, default)


def _store(key: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is not None and value != ():
            ctx.meta[key] = value
        return value

    return callback


def fail_on_option(func: F) -> F:
    return click.option(
        "--fail-on",
        type=click.Choice(FAIL_ON_CHOICES),
        default=None,
        help="Lowest severity that makes the exit code 1 (default: error, or the config's).",
    )(func)


def _rule_refs(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> Any:
    """``--select KS201,store-removed --select KS301``: rule ids or names, as ids."""
    refs = [part.strip() for value in values for part in value.split(",") if part.strip()]
    try:
        ids = resolve_rules(refs)
    except KeyError as unknown:
        raise click.BadParameter(f"no rule {unknown.args[0]!r} (see ksafe rules)") from None
    return _store(f"ksafe.{param.name}")(ctx, param, ids if values else None)


def rule_options(func: F) -> F:
    """``--select`` and ``--ignore``: which rules run, over the configuration's choice."""
    func = click.option(
        "--ignore", multiple=True, metavar="RULES", expose_value=False, callback=_rule_refs,
        help="Rules not to run (ids or names, comma-separated or repeated), added to the "
        "configuration's ignore.",
    )(func)
    return click.option(
        "--select", multiple=True, metavar="RULES", expose_value=False, callback=_rule_refs,
        help="Run only these rules (ids or names, comma-separated or repeated); replaces the "
        "configuration's select and ignore.",
    )(func)


def _also_write(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> Any:
    pairs: list[tuple[str, Path]] = []
    for value in values:
        fmt, equals, file = value.partition("=")
        if not equals or not file or fmt not in FORMATS:
            raise click.BadParameter(
                f"{value!r}: expected FORMAT=FILE with FORMAT one of {', '.join(FORMATS)}"
            )
        pairs.append((fmt, Path(file)))
    return _store(_ALSO)(ctx, param, tuple(pairs))


def color_option(func: F) -> F:
    return click.option(
        "--color", type=click.Choice(COLOR_CHOICES), default=None, expose_value=False,
        callback=_store(_COLOR),
        help="Colour the text report: auto (default; a terminal, unless NO_COLOR or TERM=dumb; "
        "FORCE_COLOR forces it), always or never.",
    )(func)


def checking_options(func: F) -> F:
    """What every checking command takes: ``--select``, ``--ignore``, ``--fail-on``,
    ``--color`` and ``--also-write FORMAT=FILE`` (``-q``/``-v`` every command has)."""
    func = click.option(
        "--also-write", multiple=True, metavar="FORMAT=FILE", expose_value=False,
        callback=_also_write,
        help="Also write the report in FORMAT to FILE (repeatable): one run writes e.g. the "
        "SARIF file and the Markdown summary beside its main output.",
    )(func)
    return rule_options(color_option(fail_on_option(func)))


def _verbosity(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[_VERBOSITY] = -1 if param.name == "quiet" else 1


def add_verbosity(command: click.Command) -> None:
    """Give ``command`` (and a group's subcommands) ``-q/--quiet`` and ``-v/--verbose``, unless
    it has its own."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            add_verbosity(sub)
    taken = {opt for p in command.params for opt in getattr(p, "opts", [])}
    for names, help_ in (
        (["-q", "--quiet"], "Print nothing on stderr but warnings and errors."),
        (["-v", "--verbose"], "Also say on stderr which configuration and inputs were used."),
    ):
        if not taken.intersection(names):
            command.params.append(
                click.Option(names, is_flag=True, expose_value=False, callback=_verbosity,
                             help=help_)
            )


def verbosity() -> int:
    """-1 with ``-q``, 1 with ``-v``, else 0."""
    value: int = _meta(_VERBOSITY, 0)
    return value


def say(message: str, *, level: int = 0) -> None:
    """Tell the user on stderr what a run did (``ksafe: ...``), unless ``-q``; ``level`` 1:
    only with ``-v``."""
    if verbosity() >= level:
        click.echo(visible(f"ksafe: {message}"), err=True)


def to_stdout(output: Path | None) -> bool:
    """``-o -`` (or no ``-o``) writes to standard output."""
    return output is None or str(output) == STDIN


def write_output(text: str, output: Path | None, *, what: str = "the report") -> None:
    if to_stdout(output):
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
        return
    assert output is not None
    output.write_text(text, encoding="utf-8")
    say(f"{what} written to {output}")


def output_options(func: F) -> F:
    """``--format`` and ``--output``, shared by lint, diff, cluster check and baseline."""
    func = click.option(
        "--output",
        "-o",
        type=click.Path(path_type=Path, dir_okay=False, allow_dash=True),
        default=None,
        help="Write the report to this file instead of standard output (- for standard output).",
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
    """The configuration a command runs with (``--config``, else discovered, else defaults),
    with ``--select``/``--ignore`` over its rule choice; its paths may lead outside its
    directory only with the top-level flag."""
    ctx = click.get_current_context(silent=True)
    allow = bool(ctx is not None and ctx.find_root().params.get("allow_outside_config_paths"))
    config = load_config(config_path, allow_outside=allow)
    say(f"configuration: {config.path or 'none found, defaults'}", level=1)
    return replace(config, settings=with_rule_options(config.settings))


def with_rule_options(settings: Settings) -> Settings:
    """``settings`` with the command line's rule choice: ``--select`` replaces the configured
    select and ignore (the rules named run), ``--ignore`` adds to the ignore list."""
    select: frozenset[str] | None = _meta(_SELECT, None)
    ignore: frozenset[str] = _meta(_IGNORE, None) or frozenset()
    if select is not None:
        return replace(settings, select=select, ignore=ignore)
    if ignore:
        return replace(settings, ignore=settings.ignore | ignore)
    return settings


def effective_fail_on(flag: str | None, settings: Settings) -> Severity | None:
    """``--fail-on`` when given, else the config's ``fail-on`` (default error)."""
    if flag is None:
        return settings.fail_on
    return None if flag == "never" else Severity(flag)


def should_color(stream: IO[str] | None = None, choice: str | None = None) -> bool:
    """``--color`` (``choice``; default: the command's, else auto). Auto colours a terminal
    unless ``NO_COLOR`` is set (https://no-color.org) or ``TERM=dumb``; ``FORCE_COLOR`` colours
    any stream (https://force-color.org); NO_COLOR wins over FORCE_COLOR."""
    choice = choice or _meta(_COLOR, "auto")
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
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


@contextmanager
def usage_problems() -> Iterator[None]:
    """What the library finds missing from the inputs and the configuration together, said as
    the command's usage error."""
    try:
        yield
    except UsageProblem as problem:
        raise click.UsageError(str(problem)) from None


def emit(result: Result | Report, fmt: str, output: Path | None, fail_on: Severity | None) -> int:
    """Render and write a check's ``result`` in ``fmt`` to ``output`` and in each
    ``--also-write`` format to its file; return the exit code (0 or 1) for ``fail_on``. Its
    notices (inputs skipped) go to stderr first."""
    if isinstance(result, Report):
        result = Result(result)
    targets: list[tuple[str, Path | None]] = [(fmt, output), *_meta(_ALSO, ())]
    if sum(to_stdout(out) for _, out in targets) > 1:
        raise click.UsageError("only one output can be standard output (-o FILE, or FORMAT=FILE)")
    for notice in result.notices:
        click.echo(f"ksafe: {visible(notice)}", err=True)
    for done in result.done:
        say(done)
    for kind, out in targets:
        color = to_stdout(out) and kind == "text" and should_color()
        base = path_base() if kind in ("sarif", "github") else None
        write_output(render(result, kind, color=color, base=base), out, what=f"{kind} report")
    return EXIT_FINDINGS if result.report.fails(fail_on) else EXIT_OK


def single_stdin(*paths: Path | str | None) -> None:
    """Standard input can be read once: refuse ``-`` given for two inputs."""
    if sum(1 for p in paths if p is not None and str(p) == STDIN) > 1:
        raise click.UsageError("standard input (-) can stand for one input only")
