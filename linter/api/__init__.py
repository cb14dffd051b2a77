"""The one door into the library: the CLI, the fleet job and library users call it.

The ``check_*`` functions take the inputs (paths, read here through the bounded readers) and the
configuration, resolve the settings for what they check, and return one immutable
:class:`~linter.report.result.Result` (the report, plus the topology diff and the cluster
timeline the HTML report draws). Below them, :func:`lint`, :func:`diff`, :func:`cluster_check`
and :func:`release` judge models already read, and :func:`finish` turns raw findings into a
report (acknowledgements, verdict, deployment plan).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# ``finish`` also names a submodule: importing it (every check does) would set the package's
# attribute to the module, so the function is bound here, at once.
from linter.api.finish import finish

if TYPE_CHECKING:
    from linter.acknowledgements import Acknowledgement
    from linter.api.checks import (
        Released,
        Upgrade,
        app_context,
        diff,
        judge_diff,
        judge_release,
        judge_upgrade,
        lint,
        lint_all,
        lint_raw,
        release,
    )
    from linter.api.cluster import check_plan, check_plans, streams_apps
    from linter.api.cluster_checks import cluster_check, cluster_simulation
    from linter.api.errors import INPUT_ERRORS, UsageProblem
    from linter.api.finish import AppScope, not_checked, sort_findings
    from linter.api.gitbase import check_git_base, check_pre_commit
    from linter.api.models import (
        parse_topologies,
        rule,
        rules,
        topology_json,
        topology_text,
    )
    from linter.api.schemas import schema_of
    from linter.api.snapshots import read_snapshot, snapshot_json
    from linter.api.topology import check_diff, check_lint, check_lint_tree, check_release, resolved
    from linter.report.result import Result
    from linter.settings import Settings, selected, severity_overrides
    from rules.framework import Severity

# Where each public name lives. The door imports a module when one of its names is first used, so
# a topology check (``ksafe diff``, a fleet worker) does not load the cluster engine, the git
# helpers or the schemas it never calls.
_HOMES = {
    "Acknowledgement": "linter.acknowledgements",
    "AppScope": "linter.api.finish",
    "INPUT_ERRORS": "linter.api.errors",
    "Released": "linter.api.checks",
    "Result": "linter.report.result",
    "Upgrade": "linter.api.checks",
    "Settings": "linter.settings",
    "Severity": "rules.framework",
    "UsageProblem": "linter.api.errors",
    "app_context": "linter.api.checks",
    "check_diff": "linter.api.topology",
    "check_git_base": "linter.api.gitbase",
    "check_lint": "linter.api.topology",
    "check_lint_tree": "linter.api.topology",
    "check_plan": "linter.api.cluster",
    "check_plans": "linter.api.cluster",
    "check_pre_commit": "linter.api.gitbase",
    "check_release": "linter.api.topology",
    "cluster_check": "linter.api.cluster_checks",
    "cluster_simulation": "linter.api.cluster_checks",
    "diff": "linter.api.checks",
    "judge_diff": "linter.api.checks",
    "judge_release": "linter.api.checks",
    "judge_upgrade": "linter.api.checks",
    "lint": "linter.api.checks",
    "lint_all": "linter.api.checks",
    "lint_raw": "linter.api.checks",
    "not_checked": "linter.api.finish",
    "parse_topologies": "linter.api.models",
    "read_snapshot": "linter.api.snapshots",
    "release": "linter.api.checks",
    "resolved": "linter.api.topology",
    "rule": "linter.api.models",
    "rules": "linter.api.models",
    "schema_of": "linter.api.schemas",
    "selected": "linter.settings",
    "severity_overrides": "linter.settings",
    "snapshot_json": "linter.api.snapshots",
    "sort_findings": "linter.api.finish",
    "streams_apps": "linter.api.cluster",
    "topology_json": "linter.api.models",
    "topology_text": "linter.api.models",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "INPUT_ERRORS",
    "Acknowledgement",
    "AppScope",
    "Released",
    "Result",
    "Settings",
    "Severity",
    "Upgrade",
    "UsageProblem",
    "app_context",
    "check_diff",
    "check_git_base",
    "check_lint",
    "check_lint_tree",
    "check_plan",
    "check_plans",
    "check_pre_commit",
    "check_release",
    "cluster_check",
    "cluster_simulation",
    "diff",
    "finish",
    "judge_diff",
    "judge_release",
    "judge_upgrade",
    "lint",
    "lint_all",
    "lint_raw",
    "not_checked",
    "parse_topologies",
    "read_snapshot",
    "release",
    "resolved",
    "rule",
    "rules",
    "schema_of",
    "selected",
    "severity_overrides",
    "snapshot_json",
    "sort_findings",
    "streams_apps",
    "topology_json",
    "topology_text",
]
