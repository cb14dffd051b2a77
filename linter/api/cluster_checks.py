"""The cluster check on models already read: the plan simulated on the snapshot step by step,
judged by the cluster rules. Apart from the topology checks, so that ``ksafe cluster check`` loads
no topology diff, parser or topology rule (the Streams apps are only named, as models)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from linter.api.finish import finish
from linter.report.model import Report
from linter.settings import Settings, selected, severity_overrides
from rules.framework import Location
from rules.verdict import Verdict, warnings_note

if TYPE_CHECKING:  # the cluster engine is imported when a check runs
    from cluster_engine.plan import Plan
    from cluster_engine.simulate import Simulation
    from cluster_engine.snapshot import Snapshot
    from linter.topology.model import Description


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
    from cluster_engine.simulate import simulate
    from rules.cluster import CLUSTER_RULES
    from rules.cluster.runner import run_cluster

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
    return cluster_warnings_noted(report), simulation


def cluster_warnings_noted(report: Report) -> Report:
    """A verdict that is not unsafe, next to live warnings about plan steps, says so."""
    if report.verdict is Verdict.UNSAFE:
        return report
    note = warnings_note(f for f in report.findings if f.step is not None)
    if note is None:
        return report
    return report.model_copy(update={"notes": (*report.notes, note)})
