"""The cluster doors: ``check_plan`` (one change plan on a snapshot, with its timeline) and
``check_plans`` (several plans, each on its configured snapshot: the ``ksafe-cluster-plan``
pre-commit hook)."""

from __future__ import annotations

import glob
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from cluster_engine.ingest import load_snapshot
from cluster_engine.plan import load_plan
from linter.api.cluster_checks import cluster_check, cluster_simulation
from linter.api.errors import UsageProblem as UsageProblem
from linter.api.finish import finish
from linter.config import Config
from linter.inputs import MalformedInput, load_yaml, read_bytes
from linter.report.result import Result
from linter.report.timeline import timeline_from_simulation
from rules.framework import Finding, Location

if TYPE_CHECKING:
    from linter.topology.model import Description


def check_plan(
    plan: Path,
    config: Config | None = None,
    *,
    snapshot: Path | None = None,
    topologies: Sequence[Path] = (),
) -> Result:
    """Simulate the change ``plan`` on the cluster ``snapshot`` (default: the configuration's
    for the plan) step by step and judge it; the Streams apps (``topologies``, default: the
    configuration's) are named by the steps that affect them."""
    config = config if config is not None else Config()
    settings = config.settings_for(plan)
    if snapshot is None:
        configured = config.for_path(plan).snapshot
        if configured is None:
            raise UsageProblem("give --snapshot (or set snapshot in the configuration)")
        snapshot = Path(configured)
    loaded_plan = load_plan(plan)
    loaded_snapshot = load_snapshot(snapshot)
    apps = streams_apps(config, topologies)
    report, simulation = cluster_simulation(
        loaded_snapshot, loaded_plan, settings, snapshot_path=str(snapshot), apps=apps
    )
    return Result(report, settings, timeline=timeline_from_simulation(simulation))


def streams_apps(config: Config, files: Sequence[Path] = ()) -> list[tuple[str, Description]]:
    """The Streams apps on the cluster: ``files``, else the configuration's ``topologies``
    globs; each app's id is its file's ``[[paths]]`` application-id, else the file name
    without extension."""
    chosen = list(files)
    if not chosen:
        for pattern in config.topologies:
            found = sorted(Path(p) for p in glob.glob(pattern) if Path(p).is_file())
            if not found:
                raise UsageProblem(f"the configured topologies glob {pattern} matches no file")
            chosen += found
    if not chosen:
        return []
    # the describe() parser (and lark) is loaded only when there is an app to read
    from linter.topology.parse import parse_file

    return [(config.for_path(f).application_id or f.stem, parse_file(f)) for f in chosen]


def check_plans(
    plans: Sequence[Path], config: Config | None = None, snapshot: Path | None = None
) -> Result:
    """Every change plan checked against its snapshot (``snapshot``, else the configuration's
    for that plan), as one report: what the ``ksafe-cluster-plan`` pre-commit hook runs. A
    cluster snapshot among the plans is skipped with a notice."""
    config = config if config is not None else Config()
    findings: list[Finding] = []
    inputs: dict[str, str] = {}
    notices: list[str] = []
    apps = streams_apps(config) if plans else []
    for n, plan_path in enumerate(p for p in plans if not _skipped_snapshot(p, notices)):
        chosen = snapshot or _configured_snapshot(config, plan_path)
        # acknowledgements are applied once, over the whole run
        settings = replace(config.settings_for(plan_path), acknowledgements=())
        report = cluster_check(
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
    report = finish("cluster", findings, config.settings, inputs=inputs)
    return Result(report, config.settings, notices=tuple(notices))


def _skipped_snapshot(path: Path, notices: list[str]) -> bool:
    """A cluster snapshot kept beside the plans (the hook's ``files`` pattern matches both) is
    told from a plan by content: a mapping with ``snapshot_version`` or ``cluster_id`` and no
    ``steps``. It is skipped with a notice; anything else is read as a plan, errors and all."""
    try:
        data = load_yaml(read_bytes(path).decode("utf-8"), str(path))
    except (MalformedInput, UnicodeDecodeError):
        return False  # the plan reader says what is wrong, with a location
    if not isinstance(data, dict) or "steps" in data:
        return False
    if "snapshot_version" not in data and "cluster_id" not in data:
        return False
    notices.append(f"{path}: a cluster snapshot, not a change plan: skipped")
    return True


def _configured_snapshot(config: Config, plan: Path) -> Path:
    configured = config.for_path(plan).snapshot
    if configured is None:
        where = config.path or "ksafe.toml / [tool.ksafe]"
        raise UsageProblem(f"no snapshot for {plan}: give --snapshot, or set snapshot in {where}")
    return Path(configured)


def _anchored_plan(finding: Finding, plan: str) -> Finding:
    if any(loc.path for loc in finding.locations):
        return finding
    at = Location(path=plan, line=finding.line, side="plan")
    return finding.model_copy(update={"locations": (*finding.locations, at)})
