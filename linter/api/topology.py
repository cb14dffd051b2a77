"""The topology doors: ``check_lint``, ``check_diff``, ``check_release`` (an application and
its cluster at once), ``check_lint_tree`` (every describe() file under some paths, for
``baseline``). Each reads its files, resolves the settings from the configuration for the file
it is about, and returns one :class:`~linter.report.result.Result`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from linter.api.checks import judge_diff, judge_release, lint, lint_all
from linter.api.finish import finish
from linter.config import Config
from linter.inputs import describe_files
from linter.report.result import Result
from linter.report.timeline import timeline_from_simulation
from linter.settings import Settings
from linter.topology.parse import parse_file
from linter.topology.streams_config import StreamsConfig, parse_properties_file
from rules.framework import Finding


def resolved(config: Config, anchor: Path | None, application_id: str | None = None) -> Settings:
    """The settings for a check about ``anchor`` (the configuration's own without one), with
    the command line's ``application_id`` over the configured one."""
    settings = config.settings_for(anchor) if anchor is not None else config.settings
    return settings if application_id is None else replace(settings, application_id=application_id)


def check_lint(
    files: Sequence[Path], config: Config | None = None, *, application_id: str | None = None
) -> Result:
    """Lint describe() texts (KS1xx rules), each naming its topics with its own application id
    (the command line's, else its ``[[paths]]`` entry's, else the configuration's); the result
    carries the first file's settings."""
    config = config if config is not None else Config()
    settings = resolved(config, files[0], application_id)
    ids = [resolved(config, f, application_id).application_id for f in files]
    models = [parse_file(f) for f in files]
    drawn = models[0] if len(models) == 1 else None  # HTML draws one topology, not several
    return Result(lint_all(models, settings, application_ids=ids), settings, after=drawn)


def _properties(
    config: Config, anchor: Path | None, before: Path | None, after: Path | None
) -> tuple[Path | None, Path | None]:
    """The Streams properties of both versions: as given, else the configuration's
    ``properties-before``/``properties-after`` for ``anchor``."""
    where = config.for_path(anchor) if anchor is not None else None
    if before is None and where is not None and where.properties_before:
        before = Path(where.properties_before)
    if after is None and where is not None and where.properties_after:
        after = Path(where.properties_after)
    return before, after


def _read_properties(path: Path | None) -> StreamsConfig | None:
    return parse_properties_file(path) if path is not None else None


def check_diff(
    before: Path | None,
    after: Path | None,
    config: Config | None = None,
    *,
    application_id: str | None = None,
    config_before: Path | None = None,
    config_after: Path | None = None,
    streams_version_before: str | None = None,
    streams_version_after: str | None = None,
) -> Result:
    """Judge the upgrade ``before`` -> ``after`` (describe() texts; both or neither) and the
    Streams configuration change (given, else configured for the file): a verdict and plan."""
    config = config if config is not None else Config()
    anchor = after or config_after or config_before
    settings = resolved(config, anchor, application_id)
    config_before, config_after = _properties(config, anchor, config_before, config_after)
    before_model = parse_file(before) if before is not None else None
    after_model = parse_file(after) if after is not None else None
    report, topology = judge_diff(
        before_model,
        after_model,
        settings,
        streams_before=_read_properties(config_before),
        streams_after=_read_properties(config_after),
        streams_version_before=streams_version_before,
        streams_version_after=streams_version_after,
    )
    if topology is None:
        return Result(report, settings)
    return Result(report, settings, before=before_model, after=after_model, diff=topology)


def check_release(
    config: Config | None = None,
    *,
    topology_before: Path | None = None,
    topology_after: Path | None = None,
    application_id: str | None = None,
    config_before: Path | None = None,
    config_after: Path | None = None,
    streams_version_before: str | None = None,
    streams_version_after: str | None = None,
    snapshot: Path | None = None,
    plan: Path | None = None,
) -> Result:
    """An application upgrade (as :func:`check_diff` reads it) and a cluster change plan on
    its ``snapshot``, judged as one release: one verdict, one runbook."""
    # the cluster engine, here only: the topology checks of this module never load it
    from cluster_engine.ingest import load_snapshot
    from cluster_engine.plan import load_plan

    config = config if config is not None else Config()
    settings = resolved(config, topology_after or plan or config_after, application_id)
    config_before, config_after = _properties(
        config, topology_after or config_after or config_before, config_before, config_after
    )
    before = parse_file(topology_before) if topology_before is not None else None
    after = parse_file(topology_after) if topology_after is not None else None
    judged = judge_release(
        settings,
        before=before,
        after=after,
        streams_before=_read_properties(config_before),
        streams_after=_read_properties(config_after),
        streams_version_before=streams_version_before,
        streams_version_after=streams_version_after,
        snapshot=load_snapshot(snapshot) if snapshot is not None else None,
        plan=load_plan(plan) if plan is not None else None,
        snapshot_path=str(snapshot) if snapshot is not None else None,
    )
    simulation = judged.simulation
    timeline = timeline_from_simulation(simulation) if simulation is not None else ()
    drawn = (before, after) if before is not None and after is not None else (None, None)
    return Result(
        judged.report, settings, before=drawn[0], after=drawn[1], diff=judged.topology,
        timeline=timeline,
    )


def check_lint_tree(paths: Sequence[str], config: Config | None = None) -> Result:
    """Every describe() file under ``paths`` (files, or directories of ``*.txt``) linted with
    its own settings, as one report."""
    config = config if config is not None else Config()
    files = describe_files(paths)
    findings: list[Finding] = []
    for f in files:
        # acknowledgements are applied once, over the whole run
        own = replace(config.settings_for(f), acknowledgements=())
        findings += lint(parse_file(f), own).findings
    inputs = {("file" if i == 0 else f"file{i + 1}"): str(f) for i, f in enumerate(files)}
    return Result(finish("lint", findings, config.settings, inputs=inputs), config.settings)
