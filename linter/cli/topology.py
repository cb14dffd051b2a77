"""Topology commands: ``parse``, ``schema``; ``lint``, ``diff``, ``rules``, ``explain``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from linter.cli.common import (
    checking_options,
    config_option,
    describe_files,
    effective_fail_on,
    emit,
    load,
    output_options,
    single_stdin,
    to_stdout,
    write_output,
)


@click.command("parse")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False, allow_dash=True),
              default=None, help="Write here instead of standard output (- for standard output).")
def parse_command(files: tuple[Path, ...], fmt: str, output: Path | None) -> None:
    """Parse describe() texts and print the model (canonical text, or JSON). - reads standard
    input."""
    from linter import api

    single_stdin(*files)
    models = api.parse_topologies(files)
    if fmt == "json":
        text = api.topology_json(models)
    else:
        text = api.topology_text(models)
        if to_stdout(output) and sys.stdout.isatty():
            # Names are printed verbatim into files (the text must parse again), but escaped on
            # a terminal: an ESC sequence in a Processor-API name would repaint the screen.
            from linter.report.text import sanitize

            text = "\n".join(sanitize(line) for line in text.split("\n"))
    write_output(text, output, what="model")


@click.command("schema")
@click.argument(
    "what", type=click.Choice(["topology", "report", "snapshot", "plan", "config"])
)
def schema_command(what: str) -> None:
    """Print the JSON schema of a model ksafe reads or writes."""
    from linter.api import schema_of

    click.echo(json.dumps(schema_of(what), indent=2, sort_keys=True))


@click.command("lint")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--application-id", default=None, help="Name real changelog/repartition topics.")
@output_options
@checking_options
@config_option
def lint_command(
    paths: tuple[Path, ...],
    application_id: str | None,
    fmt: str,
    output: Path | None,
    fail_on: str | None,
    config_path: Path | None,
) -> None:
    """Lint describe() texts: stores, repartition topics and operators left with generated
    names (each finding gives the DSL call that names it).

    PATHS are files, directories (every *.txt below them) or - for standard input."""
    from linter import api

    files = describe_files(paths)
    single_stdin(*files)
    result = api.check_lint(files, load(config_path), application_id=application_id)
    sys.exit(emit(result, fmt, output, effective_fail_on(fail_on, result.settings)))


@click.command("diff")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path),
                metavar="[BEFORE AFTER | --git-base REF PATH...]")
@click.option("--git-base", default=None, metavar="REF",
              help="Compare each file under PATH... with its version at git revision REF "
              "(renames followed, new files linted, deleted files reported).")
@click.option("--pre-commit", "pre_commit", is_flag=True,
              help="What the ksafe-topology pre-commit hook runs: the FILES pre-commit passes "
              "(and describe() files deleted) between PRE_COMMIT_FROM_REF and PRE_COMMIT_TO_REF "
              "when set, else between HEAD and the index; unchanged files are linted.")
@click.option("--application-id", default=None, help="Name real changelog/repartition topics.")
@click.option("--config-before", type=click.Path(path_type=Path), default=None,
              help="Streams .properties of the running version.")
@click.option("--config-after", type=click.Path(path_type=Path), default=None,
              help="Streams .properties of the new version.")
@click.option("--streams-version-before", default=None, help="Kafka Streams version running now.")
@click.option("--streams-version-after", default=None, help="Kafka Streams version to deploy.")
@output_options
@checking_options
@config_option
def diff_command(
    files: tuple[Path, ...],
    git_base: str | None,
    pre_commit: bool,
    application_id: str | None,
    config_before: Path | None,
    config_after: Path | None,
    streams_version_before: str | None,
    streams_version_after: str | None,
    fmt: str,
    output: Path | None,
    fail_on: str | None,
    config_path: Path | None,
) -> None:
    """Judge the upgrade from BEFORE to AFTER (two describe() texts) and print a verdict and a
    deployment plan. With --config-before/--config-after, also judge the Streams configuration
    change (the configs can be checked without topologies). - stands for standard input."""
    from linter import api

    if pre_commit:
        from linter.cli.workflow import run_pre_commit

        if git_base is not None:
            raise click.UsageError("--pre-commit takes its refs from pre-commit, not --git-base")
        sys.exit(run_pre_commit(files, config_path, fmt, output, fail_on, application_id))
    if git_base is not None:
        from linter.cli.workflow import run_git_base

        code = run_git_base(git_base, files, config_path, fmt, output, fail_on, application_id)
        sys.exit(code)
    if len(files) not in (0, 2):
        raise click.UsageError("give BEFORE and AFTER, or --git-base REF PATH...")
    before, after = files if files else (None, None)
    if (before is None) != (after is None):
        raise click.UsageError("give both BEFORE and AFTER, or neither (config-only diff)")
    single_stdin(before, after, config_before, config_after)
    config = load(config_path)
    if before is None and config_before is None and config_after is None:
        raise click.UsageError("nothing to compare: give BEFORE AFTER and/or --config-before/after")
    result = api.check_diff(
        before,
        after,
        config,
        application_id=application_id,
        config_before=config_before,
        config_after=config_after,
        streams_version_before=streams_version_before,
        streams_version_after=streams_version_after,
    )
    sys.exit(emit(result, fmt, output, effective_fail_on(fail_on, result.settings)))


@click.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def rules_command(fmt: str) -> None:
    """List every rule: id, name, default severity, impact and summary."""
    from linter import api

    rows = [(r.id, r.name, r.severity.value, r.impact.value, r.summary) for r in api.rules()]
    if fmt == "json":
        keys = ("id", "name", "severity", "impact", "summary")
        click.echo(json.dumps([dict(zip(keys, row, strict=True)) for row in rows], indent=2))
        return
    header = ("ID", "NAME", "SEVERITY", "IMPACT", "SUMMARY")
    widths = [max(len(str(x[i])) for x in [header, *rows]) for i in range(4)]
    for row in [header, *rows]:
        cells = [str(c).ljust(w) for c, w in zip(row[:4], widths, strict=True)]
        click.echo("  ".join([*cells, row[4]]).rstrip())


@click.command("explain")
@click.argument("rule_ref", metavar="RULE")
def explain_command(rule_ref: str) -> None:
    """Print a rule's documentation (by id, e.g. KS201, or name, e.g. store-renamed)."""
    from linter import api

    found = api.rule(rule_ref)
    if found is None:
        raise click.BadParameter(f"no rule {rule_ref!r} (see ksafe rules)", param_hint="RULE")
    click.echo(f"{found.id} {found.name} ({found.severity.value}, {found.impact.value})\n")
    click.echo(found.doc)


COMMANDS: tuple[click.Command, ...] = (
    parse_command,
    schema_command,
    lint_command,
    diff_command,
    rules_command,
    explain_command,
)
