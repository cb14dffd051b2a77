"""The checks on models already read: lint, diff, release (a cluster plan's alone is in
``cluster_checks``). Each runs its rules with the settings applied and returns the report plus
what was computed on the way (the topology diff, the simulation), so a renderer never computes
them again."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from linter.api.cluster_checks import cluster_simulation, cluster_warnings_noted
from linter.api.finish import finish, judged
from linter.report.model import Report
from linter.settings import Settings, selected, severity_overrides
from linter.topology.diff import TopologyDiff
from linter.topology.diff import diff as match
from linter.topology.model import Description
from linter.topology.streams_config import StreamsConfig, diff_configs
from rules.facts import AppFacts, app_facts, unchecked
from rules.framework import DeployStrategy, Finding, Raw, collect, run_raw
from rules.topology import TOPOLOGY_RULES
from rules.topology.context import (
    STREAMS_CONFIG,
    TOPOLOGY,
    TOPOLOGY_DIFF,
    ConfigSubject,
    DiffSubject,
    LintSubject,
)
from rules.verdict import Verdict

if TYPE_CHECKING:  # the cluster engine is imported by the cluster checks, when they run
    from cluster_engine.plan import Plan
    from cluster_engine.simulate import Simulation
    from cluster_engine.snapshot import Snapshot


# The rules of each check, in catalogue order: the runner skips a rule of another kind, but
# testing the kind of every rule of the catalogue costs more than the lint's own three rules
# take to start (each check runs for every app of a fleet scan).
_LINT_RULES = tuple(r for r in TOPOLOGY_RULES if r.subject == TOPOLOGY)
_UPGRADE_RULES = tuple(r for r in TOPOLOGY_RULES if r.subject in (TOPOLOGY_DIFF, STREAMS_CONFIG))


def lint(description: Description, settings: Settings = Settings()) -> Report:
    """Lint one describe() model (KS1xx rules): names that will shift in a later version."""
    return lint_all((description,), settings)


def lint_all(
    descriptions: Iterable[Description],
    settings: Settings = Settings(),
    *,
    application_ids: Sequence[str | None] = (),
) -> Report:
    """Lint several describe() models into one report (``ksafe lint FILE...``).
    ``application_ids``: each model's own application id (a configuration's ``[[paths]]`` may
    give each file its own), in place of ``settings.application_id``."""
    rules = selected(_LINT_RULES, settings)
    severities = severity_overrides(rules, settings)
    findings: list[Finding] = []
    inputs: dict[str, str] = {}
    for i, description in enumerate(descriptions):
        app = application_ids[i] if application_ids else settings.application_id
        subject = LintSubject(description, app)
        # unsorted: finish() sorts them all (stably, so the order is the same as sorting twice)
        findings += collect(rules, TOPOLOGY, subject, severities=severities)
        if description.path:
            inputs["topology" if i == 0 else f"topology-{i + 1}"] = description.path
    return finish("lint", findings, settings, inputs=inputs)


def lint_raw(
    description: Description,
    settings: Settings = Settings(),
    *,
    application_id: str | None = None,
) -> list[Raw]:
    """:func:`lint`'s findings before they are made, in its report's order, for a caller that
    makes rows of its own (the fleet scan: some thirty findings an app, each made once).
    Without acknowledgements only: they mark findings and add the workflow rules' own, which
    :func:`lint` does. ``application_id``, when given, stands for ``settings.application_id``
    (a fleet app's own, without a copy of the settings for each app)."""
    if settings.acknowledgements:
        raise ValueError("lint_raw() takes no acknowledgements: call lint()")
    rules = selected(_LINT_RULES, settings)
    subject = LintSubject(description, application_id or settings.application_id)
    return run_raw(rules, TOPOLOGY, subject, severities=severity_overrides(rules, settings))


def diff(
    before: Description | None,
    after: Description | None,
    settings: Settings = Settings(),
    *,
    streams_before: StreamsConfig | None = None,
    streams_after: StreamsConfig | None = None,
    streams_version_before: str | None = None,
    streams_version_after: str | None = None,
) -> Report:
    """:func:`judge_diff`'s report."""
    return judge_diff(
        before,
        after,
        settings,
        streams_before=streams_before,
        streams_after=streams_after,
        streams_version_before=streams_version_before,
        streams_version_after=streams_version_after,
    )[0]


def judge_diff(
    before: Description | None,
    after: Description | None,
    settings: Settings = Settings(),
    *,
    streams_before: StreamsConfig | None = None,
    streams_after: StreamsConfig | None = None,
    streams_version_before: str | None = None,
    streams_version_after: str | None = None,
) -> tuple[Report, TopologyDiff | None]:
    """Judge the upgrade ``before`` -> ``after`` (KS2xx rules on the topology diff, KS3xx on the
    Streams configs when given; either half may be absent) with a verdict and deployment plan,
    and the topology diff it judged (None without both topologies).

    The application id used to name changelog/repartition topics is ``settings.application_id``,
    else ``application.id`` of the after (or before) config. Raises
    :class:`~linter.topology.streams_config.StreamsConfigError` for a config value Streams rejects.
    """
    findings, inputs, topology, app, state_dir = _diff_findings(
        before,
        after,
        settings,
        streams_before=streams_before,
        streams_after=streams_after,
        streams_version_before=streams_version_before,
        streams_version_after=streams_version_after,
    )
    facts, notes = app_context(
        before, after, app, state_dir=state_dir, configs=(streams_before, streams_after)
    )
    report = finish(
        "diff",
        findings,
        settings,
        inputs=inputs,
        facts=facts,
        notes=notes,
    )
    return report, topology


@dataclass(frozen=True, slots=True)
class Upgrade:
    """An upgrade judged without a report (:func:`judge_upgrade`)."""

    findings: tuple[Finding, ...]  # the report's: acknowledgements applied, sorted
    verdict: Verdict
    strategy: DeployStrategy


def judge_upgrade(
    before: Description,
    after: Description,
    settings: Settings = Settings(),
    *,
    streams_before: StreamsConfig | None = None,
    streams_after: StreamsConfig | None = None,
    application_id: str | None = None,
) -> Upgrade:
    """:func:`judge_diff`'s findings, verdict and strategy, for a caller that reads no more (the
    fleet scan): without the runbook's facts, nor what describe() cannot show, nor a report.
    ``application_id`` as :func:`lint_raw`'s."""
    findings, inputs, _, _, _ = _diff_findings(
        before,
        after,
        settings,
        streams_before=streams_before,
        streams_after=streams_after,
        application_id=application_id,
    )
    return Upgrade(*judged(findings, settings, inputs))


def _diff_findings(
    before: Description | None,
    after: Description | None,
    settings: Settings,
    *,
    streams_before: StreamsConfig | None,
    streams_after: StreamsConfig | None,
    streams_version_before: str | None = None,
    streams_version_after: str | None = None,
    application_id: str | None = None,
) -> tuple[list[Finding], dict[str, str], TopologyDiff | None, str | None, str | None]:
    """:func:`judge_diff`'s raw findings (unsorted), inputs and topology diff, and the
    application id and state directory they were judged with (``application_id`` stands for
    ``settings.application_id`` when given)."""
    for cfg in (streams_before, streams_after):
        if cfg is not None:
            cfg.optimizations()  # fail early, located, on values Streams would reject
    app = application_id or settings.application_id or next(
        (c.application_id for c in (streams_after, streams_before) if c and c.application_id),
        None,
    )
    state_dir = next(
        (c.state_dir for c in (streams_after, streams_before) if c and c.state_dir), None
    )
    rules = selected(_UPGRADE_RULES, settings)
    severities = severity_overrides(rules, settings)
    findings: list[Finding] = []
    inputs: dict[str, str] = {}
    topology = None
    if before is not None and after is not None:
        topology = match(before, after)
        # A version reprinted unchanged is parsed once (the fleet scan's versions): no diff rule
        # has anything to judge in it (tests/rules/test_catalogue.py holds it over the corpus).
        if before.topologies is not after.topologies:
            subject = DiffSubject(topology, application_id=app, state_dir=state_dir)
            # unsorted, as lint_all: finish() sorts them all, stably
            findings += collect(rules, TOPOLOGY_DIFF, subject, severities=severities)
        inputs.update({"before": before.path or "", "after": after.path or ""})
    # the versions alone decide upgrade.from, downgrades and known-bad releases
    versions = streams_version_before is not None or streams_version_after is not None
    if streams_before is not None or streams_after is not None or versions:
        config = diff_configs(
            streams_before,
            streams_after,
            version_before=streams_version_before,
            version_after=streams_version_after,
        )
        findings += collect(
            rules, STREAMS_CONFIG, ConfigSubject(config, topology), severities=severities
        )
        for name, cfg in (("config-before", streams_before), ("config-after", streams_after)):
            if cfg is not None and cfg.path:
                inputs[name] = cfg.path
    return findings, {k: v for k, v in inputs.items() if v}, topology, app, state_dir


def app_context(
    before: Description | None,
    after: Description | None,
    application_id: str | None,
    *,
    state_dir: str | None = None,
    configs: tuple[StreamsConfig | None, StreamsConfig | None] | tuple[()] = (),
) -> tuple[AppFacts, tuple[str, ...]]:
    """The facts a runbook for the upgrade ``before`` -> ``after`` is filled in with, and what a
    verdict on it cannot check (from the version deployed; none without a topology).
    ``configs``: the Streams configs (before, after)."""
    exactly_once = any(
        c is not None and c.processing_guarantee.startswith("exactly_once") for c in configs
    )
    # configs are (before, after): a changed application.id means the running application is
    # another one than the application that starts, and the runbook stops and retires that one
    ids = [c.application_id if c is not None else None for c in configs]
    previous = ids[0] if len(ids) == 2 and ids[0] and ids[1] and ids[0] != ids[1] else None
    previous = previous if previous != application_id else None
    facts = app_facts(
        before, after, application_id=application_id, state_dir=state_dir,
        exactly_once=exactly_once, previous_application_id=previous,
    )
    shown = after or before
    return facts, (unchecked(shown) if shown is not None else ())


def release(
    settings: Settings = Settings(),
    *,
    before: Description | None = None,
    after: Description | None = None,
    streams_before: StreamsConfig | None = None,
    streams_after: StreamsConfig | None = None,
    streams_version_before: str | None = None,
    streams_version_after: str | None = None,
    snapshot: Snapshot | None = None,
    plan: Plan | None = None,
    snapshot_path: str | None = None,
) -> tuple[Report, Simulation | None]:
    """:func:`judge_release`'s report and simulation."""
    judged = judge_release(
        settings,
        before=before,
        after=after,
        streams_before=streams_before,
        streams_after=streams_after,
        streams_version_before=streams_version_before,
        streams_version_after=streams_version_after,
        snapshot=snapshot,
        plan=plan,
        snapshot_path=snapshot_path,
    )
    return judged.report, judged.simulation


@dataclass(frozen=True)
class Released:
    """A release judged: the report, the topology diff and the simulation it judged."""

    report: Report
    topology: TopologyDiff | None
    simulation: Simulation | None


def judge_release(
    settings: Settings = Settings(),
    *,
    before: Description | None = None,
    after: Description | None = None,
    streams_before: StreamsConfig | None = None,
    streams_after: StreamsConfig | None = None,
    streams_version_before: str | None = None,
    streams_version_after: str | None = None,
    snapshot: Snapshot | None = None,
    plan: Plan | None = None,
    snapshot_path: str | None = None,
) -> Released:
    """A release that changes an application and the cluster it runs on, judged as one: the
    topology/config diff and the cluster plan are checked without acknowledgements, then their
    findings are finished together, so an acknowledgement used by either half counts as used."""
    bare = replace(settings, acknowledgements=())
    findings: list[Finding] = []
    inputs: dict[str, str] = {}
    topology: TopologyDiff | None = None
    simulation: Simulation | None = None
    versions = streams_version_before is not None or streams_version_after is not None
    upgrade = after is not None or streams_before is not None or streams_after is not None
    if upgrade or versions:
        part, topology = judge_diff(
            before,
            after,
            bare,
            streams_before=streams_before,
            streams_after=streams_after,
            streams_version_before=streams_version_before,
            streams_version_after=streams_version_after,
        )
        findings += part.findings
        inputs |= part.inputs
    if snapshot is not None and plan is not None:
        part, simulation = cluster_simulation(snapshot, plan, bare, snapshot_path=snapshot_path)
        findings += part.findings
        inputs |= part.inputs
    facts: AppFacts | None = None
    notes: tuple[str, ...] = ()
    if upgrade:
        configs = (streams_after, streams_before)
        app = settings.application_id or next(
            (c.application_id for c in configs if c and c.application_id), None
        )
        state_dir = next((c.state_dir for c in configs if c and c.state_dir), None)
        facts, notes = app_context(
            before, after, app, state_dir=state_dir, configs=(streams_before, streams_after)
        )
    report = finish("combined", findings, settings, inputs=inputs, facts=facts, notes=notes)
    return Released(cluster_warnings_noted(report), topology, simulation)
