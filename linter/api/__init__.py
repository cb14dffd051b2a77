"""The one door into the library: the CLI, the fleet job and library users call it.

The ``check_*`` functions take the inputs (paths, read here through the bounded readers) and the
configuration, resolve the settings for what they check, and return one immutable
:class:`~linter.report.result.Result` (the report, plus the topology diff and the cluster
timeline the HTML report draws). Below them, :func:`lint`, :func:`diff`, :func:`cluster_check`
and :func:`release` judge models already read, and :func:`finish` turns raw findings into a
report (acknowledgements, verdict, deployment plan).
"""

from __future__ import annotations

from linter.acknowledgements import Acknowledgement
from linter.api.checks import (
    Released,
    app_context,
    cluster_check,
    cluster_simulation,
    diff,
    judge_diff,
    judge_release,
    lint,
    lint_all,
    release,
)
from linter.api.cluster import UsageProblem, check_plan, check_plans, streams_apps
from linter.api.finish import AppScope, finish, not_checked, sort_findings
from linter.api.gitbase import check_git_base, check_pre_commit
from linter.api.models import (
    INPUT_ERRORS,
    parse_topologies,
    read_snapshot,
    rule,
    rules,
    snapshot_json,
    topology_json,
    topology_text,
)
from linter.api.schemas import schema_of
from linter.api.topology import check_diff, check_lint, check_lint_tree, check_release, resolved
from linter.report.result import Result
from linter.settings import Settings, selected, severity_overrides
from rules.framework import Severity

__all__ = [
    "INPUT_ERRORS",
    "Acknowledgement",
    "AppScope",
    "Released",
    "Result",
    "Settings",
    "Severity",
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
    "lint",
    "lint_all",
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
