"""Commands and helpers for where ksafe runs: ``diff --git-base`` (CI and pre-commit),
``baseline`` (adoption), ``cluster check-plans`` (the change-plan pre-commit hook)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path

import click

from linter import api
from linter.cli.common import (
    config_option,
    effective_fail_on,
    emit,
    fail_on_option,
    load,
    output_options,
    write_output,
)
from linter.config import Config
from linter.gitbase import FileChange, changes, merge_base, removed, text_at
from linter.inputs import MalformedInput, UnreadableInput, load_yaml, read_bytes
from linter.report.model import Report
from linter.topology.model import Description
from linter.topology.parse import TopologyParseError, parse, parse_file
from linter.topology.streams_config import StreamsConfig, parse_properties, parse_properties_file
from rules.facts import AppFacts
from rules.framework import Finding, Location, run
from rules.workflow import WORKFLOW_RULES
from rules.workflow.file_deleted import TOPOLOGY_FILE, DeletedFile


def _without_acknowledgements(settings: api.Settings) -> api.Settings:
    # Acknowledgements are applied once, over the whole run (see api.finish).
    return replace(settings, acknowledgements=())


def _lint_findings(description: Description, settings: api.Settings) -> list[Finding]:
    return list(api.lint(description, _without_acknowledgements(settings)).findings)


def _diff_findings(
    before: Description,
    after: Description,
    settings: api.Settings,
    config_before: StreamsConfig | None,
    config_after: StreamsConfig | None,
) -> list[Finding]:
    report = api.diff(
        before,
        after,
        _without_acknowledgements(settings),
        streams_before=config_before,
        streams_after=config_after,
    )
    return list(report.findings)


def _properties_at(revision: str, path: str | None) -> StreamsConfig | None:
    """The Streams properties file ``path`` as it was at ``revision`` (absent then: None)."""
    if path is None:
        return None
    text = text_at(revision, path)
    return None if text is None else parse_properties(text, f"{path}@{revision}")


def git_base_report(
    revision: str,
    paths: Sequence[str],
    config: Config,
    *,
    application_id: str | None = None,
    head: str | None = None,
    lint_unchanged: bool = False,
) -> Report:
    """Every file under ``paths`` compared with its version at ``revision``: diffed when changed
    or renamed, linted when new, a ``topology-file-deleted`` finding when deleted. ``head`` is
    the commit holding the new versions (None: the working tree). With ``lint_unchanged``, a
    file identical at both ends is linted as one version (what ``--all-files`` asks for)."""
    found = changes(revision, paths, head=head)
    if not found:
        raise UnreadableInput(
            " ".join(paths), f"no *.txt describe() file here now or at {revision}; nothing checked"
        )
    findings, inputs, apps = _git_base_findings(
        revision, found, config, application_id=application_id, lint_unchanged=lint_unchanged
    )
    report = api.finish("diff", findings, config.settings, inputs=inputs, apps=apps)
    return _with_revisions(report, found)


def _with_revisions(report: Report, found: Sequence[FileChange]) -> Report:
    """The report knowing which ``path@REV`` labels name a file at a revision."""
    revisions = {c.label_before: c.old_file for c in found if c.old_file is not None}
    return report.model_copy(update={"revisions": revisions})


def _git_base_findings(
    revision: str,
    found: Sequence[FileChange],
    config: Config,
    *,
    application_id: str | None = None,
    lint_unchanged: bool = False,
) -> tuple[list[Finding], dict[str, str], list[api.AppScope]]:
    findings: list[Finding] = []
    inputs: dict[str, str] = {}
    apps: list[api.AppScope] = []
    for n, change in enumerate(found):
        settings = config.settings_for(change.path)
        if application_id is not None:
            settings = replace(settings, application_id=application_id)
        key = f"file{n + 1}" if len(inputs) else "file"
        inputs[key] = change.path
        first = len(findings)
        if change.status == "deleted":
            before = _try_parse(change.old_text or "", change.label_before)
            deleted = DeletedFile(change.path, revision, before, settings.application_id)
            rules = api.selected(WORKFLOW_RULES, settings)
            findings += run(
                rules,
                TOPOLOGY_FILE,
                deleted,
                severities=api.severity_overrides(rules, settings),
            )
            facts, _ = api.app_context(before, None, settings.application_id)
            apps.append(_scope(change.path, settings, facts, (), len(findings) - first))
            continue
        after = _new_version(change)
        if change.status == "added" or (lint_unchanged and _unchanged(change)):
            findings += _lint_findings(after, settings)
            facts, notes = api.app_context(None, after, settings.application_id)
            apps.append(_scope(change.path, settings, facts, notes, len(findings) - first))
            continue
        before = parse(change.old_text or "", change.label_before)
        where = config.for_path(change.path)
        config_after = (
            parse_properties_file(_shown(where.properties_after))
            if where.properties_after
            else None
        )
        config_before = _properties_at(
            revision, _shown(where.properties_before) if where.properties_before else None
        )
        diffed = _diff_findings(before, after, settings, config_before, config_after)
        findings += [_anchored(f, change.path) for f in diffed]
        configs = (config_after, config_before)
        app = settings.application_id or next(
            (c.application_id for c in configs if c and c.application_id), None
        )
        state_dir = next((c.state_dir for c in configs if c and c.state_dir), None)
        if before == after and len(findings) == first:
            continue  # unchanged: no upgrade of this application to plan
        facts, notes = api.app_context(
            before, after, app, state_dir=state_dir, configs=(config_before, config_after)
        )
        apps.append(_scope(change.path, settings, facts, notes, len(findings) - first))
    return findings, inputs, apps


def _new_version(change: FileChange) -> Description:
    if change.new_text is None:
        return parse_file(change.path)
    return parse(change.new_text, change.path)


def _unchanged(change: FileChange) -> bool:
    if change.status != "modified":
        return False
    now = change.new_text if change.new_text is not None else Path(change.path).read_text()
    return now == change.old_text


def _is_describe_text(text: str) -> bool:
    """A describe() text starts with ``Topologies:`` (after blank lines)."""
    return text.lstrip().startswith("Topologies:")


def pre_commit_report(
    paths: Sequence[str],
    config: Config,
    environ: Mapping[str, str],
    *,
    application_id: str | None = None,
) -> Report:
    """What the ``ksafe-topology`` pre-commit hook checks.

    With ``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF`` (``pre-commit run --from-ref A --to-ref
    B``, how CI runs hooks) the files at B are compared with the merge-base of A and B, the
    commit pre-commit's own file list starts from; otherwise (a commit) the staged files with
    HEAD. pre-commit never passes a file that no longer exists, so describe() texts deleted or
    renamed away between the two ends are asked of git and added. A file with no change against
    HEAD (``--all-files``, ``--files``) is diffed from the merge-base of ``git-base`` (the
    configuration) and HEAD when that is set, else linted as one version.
    """
    source, target = environ.get("PRE_COMMIT_FROM_REF"), environ.get("PRE_COMMIT_TO_REF")
    if source and target:
        base, head = merge_base(source, target), target
    else:
        base, head = "HEAD", None
    wanted = list(dict.fromkeys(paths))
    for gone in removed(base, head):
        if gone not in wanted:
            text = text_at(base, gone)
            if text is not None and _is_describe_text(text):
                wanted.append(gone)
    found = changes(base, wanted, head=head) if wanted else []
    unchanged = [c.path for c in found if _unchanged(c)] if head is None else []
    rest = [c for c in found if c.path not in unchanged]
    findings, inputs, apps = _git_base_findings(
        base, rest, config, application_id=application_id
    )
    later: list[FileChange] = []
    if unchanged and config.git_base is not None:
        branch = merge_base(config.git_base, "HEAD")
        later = changes(branch, unchanged)
        more, more_inputs, more_apps = _git_base_findings(
            branch, later, config, application_id=application_id
        )
    else:
        more, more_inputs, more_apps = _git_base_findings(
            base, [c for c in found if c.path in unchanged], config,
            application_id=application_id, lint_unchanged=True,
        )
    findings += more
    inputs = _numbered([*inputs.values(), *more_inputs.values()])
    report = api.finish("diff", findings, config.settings, inputs=inputs, apps=apps + more_apps)
    return _with_revisions(report, [*found, *later])


def _numbered(paths: Sequence[str]) -> dict[str, str]:
    return {("file" if i == 0 else f"file{i + 1}"): p for i, p in enumerate(paths)}


def _scope(
    path: str, settings: api.Settings, facts: AppFacts, notes: tuple[str, ...], count: int
) -> api.AppScope:
    """One file's application: named by its application id, else by the file's name."""
    name = facts.application_id or settings.application_id or Path(path).stem
    return api.AppScope(
        application=name, path=path, count=count, facts=facts, unchecked=notes
    )


def _shown(path: str) -> str:
    """A configured (absolute) path relative to the current directory when it lies below it,
    as the user's own paths are, so annotations can follow it."""
    try:
        return Path(path).relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path


def _anchored(finding: Finding, path: str) -> Finding:
    """A finding located only in the old text also points at the file now (without a line), so
    pull request annotations have a file to attach to."""
    if any(loc.path and loc.side != "before" for loc in finding.locations):
        return finding
    now = Location(path=path, side="after")
    return finding.model_copy(update={"locations": (*finding.locations, now)})


def _try_parse(text: str, label: str) -> Description | None:
    try:
        return parse(text, label)
    except TopologyParseError:  # a deleted file need not have been a valid describe() text
        return None


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
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), default=None)
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
        report = git_base_report(revision, paths, config)
    else:
        report = lint_report(paths, config)
    target = config.path or Path.cwd() / "ksafe.toml"
    expiry = expires.date() if expires is not None else None
    text = baseline(
        report,
        target.resolve().parent,
        reason=reason or f"baseline of {date.today().isoformat()}",
        expires=expiry,
        table=table_for(target),
    )
    if write:
        append_to(target, text)
        count = text.count("[[")
        click.echo(f"ksafe: {count} acknowledgement(s) appended to {target}", err=True)
    else:
        write_output(text, output)


def lint_report(paths: Sequence[str], config: Config) -> Report:
    """Every describe() file under ``paths`` linted, as one report."""
    files: list[Path] = []
    for p in paths:
        path = Path(p)
        if not path.is_dir():
            files.append(path)
            continue
        # a directory stands for the describe() texts below it, as with --git-base
        found = sorted(f for f in path.rglob("*.txt") if not f.name.startswith("."))
        if not found:
            raise UnreadableInput(p, "no *.txt describe() file inside; nothing checked")
        files += found
    findings: list[Finding] = []
    for f in files:
        findings += _lint_findings(parse_file(f), config.settings_for(f))
    inputs = {("file" if i == 0 else f"file{i + 1}"): str(f) for i, f in enumerate(files)}
    return api.finish("lint", findings, config.settings, inputs=inputs)


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
    config = load(config_path)
    report = git_base_report(
        revision, [str(p) for p in paths], config, application_id=application_id
    )
    return emit(report, fmt, output, effective_fail_on(fail_on, config.settings))


def run_pre_commit(
    paths: Sequence[str | Path],
    config_path: Path | None,
    fmt: str,
    output: Path | None,
    fail_on: str | None,
    application_id: str | None = None,
) -> int:
    """What ``ksafe diff --pre-commit`` does (see :func:`pre_commit_report`); the exit code."""
    config = load(config_path)
    report = pre_commit_report(
        [str(p) for p in paths], config, os.environ, application_id=application_id
    )
    return emit(report, fmt, output, effective_fail_on(fail_on, config.settings))


def plans_report(plans: Sequence[Path], config: Config, snapshot: Path | None) -> Report:
    """Every change plan checked against its snapshot (``snapshot``, else the configuration's
    for that plan), as one report: what the ``ksafe-cluster-plan`` pre-commit hook runs."""
    from cluster_engine.ingest import load_snapshot
    from cluster_engine.plan import load_plan
    from linter.cli.cluster import streams_apps

    findings: list[Finding] = []
    inputs: dict[str, str] = {}
    apps = streams_apps(config) if plans else []
    for n, plan_path in enumerate(p for p in plans if not _skipped_snapshot(p)):
        chosen = snapshot or _configured_snapshot(config, plan_path)
        settings = _without_acknowledgements(config.settings_for(plan_path))
        report = api.cluster_check(
            load_snapshot(chosen),
            load_plan(plan_path),
            settings,
            snapshot_path=str(chosen),
            apps=apps,
        )
        findings += [_anchored_plan(f, str(plan_path)) for f in report.findings]
        suffix = "" if n == 0 else f"-{n + 1}"
        inputs[f"plan{suffix}"] = str(plan_path)
        inputs[f"snapshot{suffix}"] = str(chosen)
    return api.finish("cluster", findings, config.settings, inputs=inputs)


def _skipped_snapshot(path: Path) -> bool:
    """A cluster snapshot kept beside the plans (the hook's ``files`` pattern matches both) is
    told from a plan by content: a mapping with ``snapshot_version`` or ``cluster_id`` and no
    ``steps``. It is skipped with a note; anything else is read as a plan, errors and all."""
    try:
        data = load_yaml(read_bytes(path).decode("utf-8"), str(path))
    except (MalformedInput, UnicodeDecodeError):
        return False  # the plan reader says what is wrong, with a location
    if not isinstance(data, dict) or "steps" in data:
        return False
    if "snapshot_version" not in data and "cluster_id" not in data:
        return False
    click.echo(f"ksafe: {path}: a cluster snapshot, not a change plan: skipped", err=True)
    return True


def _configured_snapshot(config: Config, plan: Path) -> Path:
    configured = config.for_path(plan).snapshot
    if configured is None:
        where = config.path or "ksafe.toml / [tool.ksafe]"
        raise click.UsageError(
            f"no snapshot for {plan}: give --snapshot, or set snapshot in {where}"
        )
    return Path(configured)


def _anchored_plan(finding: Finding, plan: str) -> Finding:
    if any(loc.path for loc in finding.locations):
        return finding
    at = Location(path=plan, line=finding.line, side="plan")
    return finding.model_copy(update={"locations": (*finding.locations, at)})


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
@fail_on_option
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
    config = load(config_path)
    report = plans_report(plans, config, snapshot_path)
    sys.exit(emit(report, fmt, output, effective_fail_on(fail_on, config.settings)))


COMMANDS: tuple[click.Command, ...] = (baseline_command,)
CLUSTER_COMMANDS: tuple[click.Command, ...] = (check_plans_command,)
