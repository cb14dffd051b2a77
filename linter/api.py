"""The library entry points the CLI, the fleet job and the reports all call.

Each takes parsed inputs and :class:`Settings`, runs the rules, applies the settings (rule
selection, severity overrides, acknowledgements) and returns one immutable
:class:`~linter.report.model.Report`. No I/O here: reading files is the caller's job.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from cluster_engine.plan import Plan
from cluster_engine.simulate import Simulation, simulate
from cluster_engine.snapshot import Snapshot
from linter.acknowledgements import Acknowledgement as Acknowledgement
from linter.acknowledgements import AcknowledgementCheck
from linter.acknowledgements import apply as apply_acknowledgements
from linter.report.model import AppVerdict, Report, ReportKind, Summary
from linter.topology.diff import diff as match
from linter.topology.model import Description
from linter.topology.streams_config import StreamsConfig, diff_configs
from rules.cluster import CLUSTER_RULES, run_cluster
from rules.facts import AppFacts, app_facts, unchecked
from rules.framework import Finding, Location, Rule, Severity, collect, run
from rules.topology import TOPOLOGY_RULES
from rules.topology.context import ConfigSubject, DiffSubject, LintSubject
from rules.verdict import Verdict, assess, verdict_of, warnings_note
from rules.workflow import WORKFLOW_RULES


@dataclass(frozen=True)
class Settings:
    """What a user's configuration changes about a check (defaults: every rule, as shipped)."""

    select: frozenset[str] = frozenset()  # rule ids or names; empty means all
    ignore: frozenset[str] = frozenset()
    severities: Mapping[str, Severity] = field(default_factory=dict)  # by rule id or name
    acknowledgements: tuple[Acknowledgement, ...] = ()
    fail_on: Severity | None = Severity.ERROR
    application_id: str | None = None
    today: date | None = None  # for acknowledgement expiry; None means the real date


def selected(rules: Iterable[Rule], settings: Settings) -> tuple[Rule, ...]:
    """The rules ``settings`` keeps, in catalogue order."""

    def named(r: Rule, refs: frozenset[str]) -> bool:
        return r.id in refs or r.name in refs or r.id.lower() in refs

    return tuple(
        r
        for r in rules
        if (not settings.select or named(r, settings.select)) and not named(r, settings.ignore)
    )


def severity_overrides(rules: Iterable[Rule], settings: Settings) -> dict[str, Severity]:
    """Overrides keyed by rule id, whether the config named the rule by id or by name."""
    out: dict[str, Severity] = {}
    for r in rules:
        for ref in (r.id, r.name):
            if ref in settings.severities:
                out[r.id] = settings.severities[ref]
    return out


@dataclass(frozen=True)
class AppScope:
    """One application among the raw findings of a run: its ``count`` findings, in order from
    the previous app's last, with the facts its runbook is filled in with and what its
    verdict did not check."""

    application: str
    path: str
    count: int
    facts: AppFacts | None = None
    unchecked: tuple[str, ...] = ()


def sort_findings(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    return tuple(sorted(findings, key=Finding.sort_key))


def finish(
    kind: ReportKind,
    findings: Iterable[Finding],
    settings: Settings,
    *,
    inputs: Mapping[str, str] | None = None,
    verdict: bool | None = None,
    facts: AppFacts | None = None,
    notes: tuple[str, ...] = (),
    apps: Sequence[AppScope] = (),
) -> Report:
    """Turn a run's raw findings into the :class:`Report` every command returns.

    Applies the acknowledgements (matching findings are marked, not counted; unused and expired
    entries become ``acknowledgement-unused``/``acknowledgement-expired`` findings, themselves
    subject to rule selection and severity overrides), sorts, and computes the summary, plus the
    verdict and deployment plan for diffs and cluster checks (``verdict=None``: by ``kind``).

    Paths in findings and ``inputs`` are made absolute against the current directory to match the
    acknowledgements' resolved ``path`` globs.

    ``facts`` fill in the runbook of a reset or blue-green plan; ``notes`` say what describe()
    could not show, kept only with a ``safe``/``safe-with-restore`` verdict. With two ``apps`` or
    more, each gets its own verdict and plan (from its own findings, facts and notes) and the
    report's verdict is the worst of them.
    """
    raw = list(findings)
    marked = raw
    if settings.acknowledgements:  # without any, there is nothing to mark, nor paths to match
        absolute: dict[str, str] = {}  # a few distinct paths, repeated in every finding
        input_paths = {os.path.abspath(p) for p in (inputs or {}).values() if p}
        paths_of: dict[str, tuple[str, ...]] = {}
        for f in raw:
            own = tuple(
                absolute.get(loc.path) or absolute.setdefault(loc.path, os.path.abspath(loc.path))
                for loc in f.locations
                if loc.path
            )
            paths_of[f.fingerprint] = paths_of.get(f.fingerprint, ()) + own
            input_paths.update(own)
        today = settings.today or date.today()
        marked, used = apply_acknowledgements(raw, settings.acknowledgements, today, paths_of)
        check = AcknowledgementCheck(
            acknowledgements=settings.acknowledgements,
            used=used,
            paths=frozenset(input_paths),
            today=today,
        )
        rules = selected(WORKFLOW_RULES, settings)
        marked += run(
            rules, "acknowledgements", check, severities=severity_overrides(rules, settings)
        )
    ordered = sort_findings(marked)
    with_verdict = kind in ("diff", "cluster", "combined") if verdict is None else verdict
    if len(apps) == 1:
        facts, notes = apps[0].facts, apps[0].unchecked
    if not with_verdict:
        return Report(
            kind=kind,
            inputs=dict(inputs or {}),
            findings=ordered,
            summary=Summary.of(ordered),
            notes=not_checked(ordered),
        )
    if len(apps) > 1:
        per_app = _per_app(marked, apps)
        worst = max((a.verdict for a in per_app), key=lambda v: v.rank)
        overall = max(worst, verdict_of(ordered), key=lambda v: v.rank)
        return Report(
            kind=kind,
            inputs=dict(inputs or {}),
            findings=ordered,
            verdict=overall,
            apps=per_app,
            summary=Summary.of(ordered),
            notes=not_checked(ordered),
        )
    judged, plan = assess(ordered, facts)
    return Report(
        kind=kind,
        inputs=dict(inputs or {}),
        findings=ordered,
        verdict=judged,
        plan=plan,
        unchecked=_kept(judged, notes),
        summary=Summary.of(ordered),
        notes=not_checked(ordered),
    )


def not_checked(findings: Iterable[Finding]) -> tuple[str, ...]:
    """What live findings say qualifies the verdict (their ``verdict_note`` data: an outage the
    verdict accepts) and was not checked (their ``not_checked`` data), each once."""
    live = [f for f in findings if f.acknowledged is None]
    notes = [f.data.get("verdict_note") for f in live] + [f.data.get("not_checked") for f in live]
    return tuple(dict.fromkeys(str(n) for n in notes if n))


def _kept(verdict: Verdict, notes: tuple[str, ...]) -> tuple[str, ...]:
    # an unsafe verdict already says "do not deploy": the caveats belong to a "safe"
    return notes if verdict is not Verdict.UNSAFE else ()


def _per_app(marked: Sequence[Finding], apps: Sequence[AppScope]) -> tuple[AppVerdict, ...]:
    out: list[AppVerdict] = []
    start = 0
    for app in apps:
        own = sort_findings(marked[start : start + app.count])
        start += app.count
        judged, plan = assess(own, app.facts)
        out.append(
            AppVerdict(
                application=app.application,
                path=app.path,
                verdict=judged,
                plan=plan,
                unchecked=_kept(judged, app.unchecked),
            )
        )
    return tuple(out)


def lint(description: Description, settings: Settings = Settings()) -> Report:
    """Lint one describe() model (KS1xx rules): names that will shift in a later version."""
    return lint_all((description,), settings)


def lint_all(descriptions: Iterable[Description], settings: Settings = Settings()) -> Report:
    """Lint several describe() models into one report (``ksafe lint FILE...``)."""
    rules = selected(TOPOLOGY_RULES, settings)
    severities = severity_overrides(rules, settings)
    findings: list[Finding] = []
    inputs: dict[str, str] = {}
    for i, description in enumerate(descriptions):
        subject = LintSubject(description, settings.application_id)
        # unsorted: finish() sorts them all (stably, so the order is the same as sorting twice)
        findings += collect(rules, "topology", subject, severities=severities)
        if description.path:
            inputs["topology" if i == 0 else f"topology-{i + 1}"] = description.path
    return finish("lint", findings, settings, inputs=inputs)


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
    """Judge the upgrade ``before`` -> ``after`` (KS2xx rules on the topology diff, KS3xx on the
    Streams configs when given; either half may be absent) with a verdict and deployment plan.

    The application id used to name changelog/repartition topics is ``settings.application_id``,
    else ``application.id`` of the after (or before) config. Raises
    :class:`~linter.topology.streams_config.StreamsConfigError` for a config value Streams rejects.
    """
    for cfg in (streams_before, streams_after):
        if cfg is not None:
            cfg.optimizations()  # fail early, located, on values Streams would reject
    app = settings.application_id or next(
        (c.application_id for c in (streams_after, streams_before) if c and c.application_id),
        None,
    )
    state_dir = next(
        (c.state_dir for c in (streams_after, streams_before) if c and c.state_dir), None
    )
    facts, notes = app_context(
        before, after, app, state_dir=state_dir, configs=(streams_before, streams_after)
    )
    rules = selected(TOPOLOGY_RULES, settings)
    severities = severity_overrides(rules, settings)
    findings: list[Finding] = []
    inputs: dict[str, str] = {}
    topology = None
    if before is not None and after is not None:
        topology = match(before, after)
        subject = DiffSubject(topology, application_id=app, state_dir=state_dir)
        findings += run(rules, "topology-diff", subject, severities=severities)
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
        findings += run(
            rules, "streams-config", ConfigSubject(config, topology), severities=severities
        )
        for name, cfg in (("config-before", streams_before), ("config-after", streams_after)):
            if cfg is not None and cfg.path:
                inputs[name] = cfg.path
    return finish(
        "diff",
        findings,
        settings,
        inputs={k: v for k, v in inputs.items() if v},
        facts=facts,
        notes=notes,
    )


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


def cluster_check(
    snapshot: Snapshot,
    plan: Plan,
    settings: Settings = Settings(),
    *,
    snapshot_path: str | None = None,
    apps: Sequence[tuple[str, Description]] = (),
) -> Report:
    """Simulate ``plan`` on ``snapshot`` step by step and judge it (KC rules): findings carry
    the plan ``step`` and ``line``; the report has a verdict and deployment plan. ``apps``: the
    Streams applications on the cluster (application id, describe() model), named by the rules
    about steps that affect them."""
    return cluster_simulation(snapshot, plan, settings, snapshot_path=snapshot_path, apps=apps)[0]


def cluster_simulation(
    snapshot: Snapshot,
    plan: Plan,
    settings: Settings = Settings(),
    *,
    snapshot_path: str | None = None,
    apps: Sequence[tuple[str, Description]] = (),
) -> tuple[Report, Simulation]:
    """:func:`cluster_check` plus the simulation it judged (for timelines: ``summaries()``)."""
    simulation = simulate(snapshot, plan)
    rules = selected(CLUSTER_RULES, settings)
    findings = run_cluster(
        rules, simulation, severities=severity_overrides(rules, settings), apps=apps
    )
    if snapshot_path:
        located = Location(path=snapshot_path, side="snapshot")
        findings = [
            f.model_copy(
                update={
                    "locations": tuple(
                        located if loc.side == "snapshot" and loc.path is None else loc
                        for loc in f.locations
                    )
                }
            )
            for f in findings
        ]
    inputs = {"snapshot": snapshot_path or "", "plan": plan.path}
    report = finish("cluster", findings, settings, inputs={k: v for k, v in inputs.items() if v})
    if not any(f.requires for f in report.findings):
        # a Streams deployment strategy means nothing for a cluster-only change
        report = report.model_copy(update={"plan": None})
    return _cluster_warnings_noted(report), simulation


def _cluster_warnings_noted(report: Report) -> Report:
    """A verdict that is not unsafe, next to live warnings about plan steps, says so."""
    if report.verdict is Verdict.UNSAFE:
        return report
    note = warnings_note(f for f in report.findings if f.step is not None)
    if note is None:
        return report
    return report.model_copy(update={"notes": (*report.notes, note)})


def release(
    settings: Settings = Settings(),
    *,
    before: Description | None = None,
    after: Description | None = None,
    streams_before: StreamsConfig | None = None,
    streams_after: StreamsConfig | None = None,
    snapshot: Snapshot | None = None,
    plan: Plan | None = None,
    snapshot_path: str | None = None,
) -> tuple[Report, Simulation | None]:
    """A release that changes an application and the cluster it runs on, judged as one: the
    topology/config diff and the cluster plan are checked without acknowledgements, then their
    findings are finished together, so an acknowledgement used by either half counts as used."""
    bare = replace(settings, acknowledgements=())
    findings: list[Finding] = []
    inputs: dict[str, str] = {}
    simulation: Simulation | None = None
    if after is not None or streams_before is not None or streams_after is not None:
        part = diff(before, after, bare, streams_before=streams_before, streams_after=streams_after)
        findings += part.findings
        inputs |= part.inputs
    if snapshot is not None and plan is not None:
        part, simulation = cluster_simulation(snapshot, plan, bare, snapshot_path=snapshot_path)
        findings += part.findings
        inputs |= part.inputs
    facts: AppFacts | None = None
    notes: tuple[str, ...] = ()
    if after is not None or streams_before is not None or streams_after is not None:
        configs = (streams_after, streams_before)
        app = settings.application_id or next(
            (c.application_id for c in configs if c and c.application_id), None
        )
        state_dir = next((c.state_dir for c in configs if c and c.state_dir), None)
        facts, notes = app_context(
            before, after, app, state_dir=state_dir, configs=(streams_before, streams_after)
        )
    report = finish("combined", findings, settings, inputs=inputs, facts=facts, notes=notes)
    return _cluster_warnings_noted(report), simulation
