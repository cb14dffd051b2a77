"""The git doors: ``check_git_base`` (every describe() file under some paths against its version
at a revision, what ``ksafe diff --git-base`` and CI run) and ``check_pre_commit`` (what the
``ksafe-topology`` pre-commit hook runs)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from linter.api.checks import app_context, diff, lint
from linter.api.finish import AppScope, finish
from linter.config import Config
from linter.gitbase import FileChange, changes, merge_base, removed, text_at
from linter.inputs import UnreadableInput
from linter.report.model import Report
from linter.report.result import Result
from linter.settings import Settings, selected, severity_overrides
from linter.topology.model import Description
from linter.topology.parse import TopologyParseError, parse, parse_file
from linter.topology.streams_config import StreamsConfig, parse_properties, parse_properties_file
from rules.facts import AppFacts
from rules.framework import Finding, Location, run
from rules.workflow import WORKFLOW_RULES
from rules.workflow.file_deleted import TOPOLOGY_FILE, DeletedFile


def _without_acknowledgements(settings: Settings) -> Settings:
    # Acknowledgements are applied once, over the whole run (see api.finish).
    return replace(settings, acknowledgements=())


def _lint_findings(description: Description, settings: Settings) -> list[Finding]:
    return list(lint(description, _without_acknowledgements(settings)).findings)


def _diff_findings(
    before: Description,
    after: Description,
    settings: Settings,
    config_before: StreamsConfig | None,
    config_after: StreamsConfig | None,
) -> list[Finding]:
    report = diff(
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


def check_git_base(
    revision: str,
    paths: Sequence[str],
    config: Config | None = None,
    *,
    application_id: str | None = None,
    head: str | None = None,
    lint_unchanged: bool = False,
) -> Result:
    """Every file under ``paths`` compared with its version at ``revision``: diffed when changed
    or renamed, linted when new, a ``topology-file-deleted`` finding when deleted; one verdict
    and plan per application. ``head`` is the commit holding the new versions (None: the
    working tree). With ``lint_unchanged``, a file identical at both ends is linted as one
    version (what ``--all-files`` asks for)."""
    config = config if config is not None else Config()
    found = changes(revision, paths, head=head)
    if not found:
        raise UnreadableInput(
            " ".join(paths), f"no *.txt describe() file here now or at {revision}; nothing checked"
        )
    findings, inputs, apps = _git_base_findings(
        revision, found, config, application_id=application_id, lint_unchanged=lint_unchanged
    )
    report = finish("diff", findings, config.settings, inputs=inputs, apps=apps)
    return _with_revisions(report, found, config)


def _with_revisions(report: Report, found: Sequence[FileChange], config: Config) -> Result:
    """The result, its report knowing which ``path@REV`` labels name a file at a revision, and
    saying which renames it followed (the findings name the new file only)."""
    revisions = {c.label_before: c.old_file for c in found if c.old_file is not None}
    followed = tuple(
        f"followed the rename of {c.old_shown or c.old_path} to {c.path} (since {c.revision})"
        for c in found
        if c.status == "renamed"
    )
    report = report.model_copy(update={"revisions": revisions})
    return Result(report, config.settings, done=followed)


def _git_base_findings(
    revision: str,
    found: Sequence[FileChange],
    config: Config,
    *,
    application_id: str | None = None,
    lint_unchanged: bool = False,
) -> tuple[list[Finding], dict[str, str], list[AppScope]]:
    findings: list[Finding] = []
    inputs: dict[str, str] = {}
    apps: list[AppScope] = []
    for n, change in enumerate(found):
        settings = config.settings_for(change.path)
        if application_id is not None:
            settings = replace(settings, application_id=application_id)
        key = f"file{n + 1}" if len(inputs) else "file"
        inputs[key] = change.path
        first = len(findings)
        if change.status == "deleted":
            on_deleted, facts = _deleted_findings(change, revision, settings)
            findings += on_deleted
            apps.append(_scope(change.path, settings, facts, (), len(findings) - first))
            continue
        after = _new_version(change)
        if change.status == "added" or (lint_unchanged and _unchanged(change)):
            findings += _lint_findings(after, settings)
            facts, notes = app_context(None, after, settings.application_id)
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
        facts, notes = app_context(
            before, after, app, state_dir=state_dir, configs=(config_before, config_after)
        )
        apps.append(_scope(change.path, settings, facts, notes, len(findings) - first))
    return findings, inputs, apps


def _deleted_findings(
    change: FileChange, revision: str, settings: Settings
) -> tuple[list[Finding], AppFacts]:
    """The workflow rules' findings on a deleted describe() file, and what its old version
    says about the application."""
    before = _try_parse(change.old_text or "", change.label_before)
    deleted = DeletedFile(change.path, revision, before, settings.application_id)
    rules = selected(WORKFLOW_RULES, settings)
    found = run(
        rules,
        TOPOLOGY_FILE,
        deleted,
        severities=severity_overrides(rules, settings),
    )
    facts, _ = app_context(before, None, settings.application_id)
    return found, facts


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


def check_pre_commit(
    paths: Sequence[str],
    config: Config,
    environ: Mapping[str, str],
    *,
    application_id: str | None = None,
) -> Result:
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
    report = finish("diff", findings, config.settings, inputs=inputs, apps=apps + more_apps)
    return _with_revisions(report, [*found, *later], config)


def _numbered(paths: Sequence[str]) -> dict[str, str]:
    return {("file" if i == 0 else f"file{i + 1}"): p for i, p in enumerate(paths)}


def _scope(
    path: str, settings: Settings, facts: AppFacts, notes: tuple[str, ...], count: int
) -> AppScope:
    """One file's application: named by its application id, else by the file's name."""
    name = facts.application_id or settings.application_id or Path(path).stem
    return AppScope(
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
