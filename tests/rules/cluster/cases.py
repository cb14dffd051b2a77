"""Loading the YAML cluster rule cases of ``fixtures/cluster/cases/<rule-name>.yml``.

A case gives a snapshot (``snapshot_file``, a path under the repository, default the 3-broker
fixture; or an inline ``snapshot``), an optional ``patch`` deep-merged into it (mappings merge,
an empty mapping empties, anything else replaces), a ``plan`` (YAML text) and ``expect``: the
findings of the case's rule as ``{rule, severity, resource}`` plus optional ``step`` (0-based),
``line`` (in the plan) and ``message_contains`` (a list of substrings).
"""

from __future__ import annotations

from typing import Any

import yaml

from cluster_engine.plan import parse_plan
from cluster_engine.snapshot import Snapshot
from linter import api
from linter.report.model import Report
from tests.conftest import FIXTURES, ROOT
from tests.rules.yaml_cases import Case, load_cases_from

CLUSTER_CASES = FIXTURES / "cluster" / "cases"
DEFAULT_SNAPSHOT = "fixtures/cluster/snapshots/three-brokers.yaml"


def load_cases() -> list[Case]:
    return load_cases_from(CLUSTER_CASES)


def merge(base: Any, patch: Any) -> Any:
    """Deep merge; an empty mapping in ``patch`` empties the mapping it names."""
    if isinstance(base, dict) and isinstance(patch, dict) and patch:
        out = dict(base)
        for key, value in patch.items():
            out[key] = merge(base.get(key), value) if key in base else value
        return out
    return patch


def snapshot_of(spec: dict[str, Any]) -> Snapshot:
    if "snapshot" in spec:
        data = spec["snapshot"]
    else:
        path = ROOT / spec.get("snapshot_file", DEFAULT_SNAPSHOT)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if spec.get("patch"):
        data = merge(data, spec["patch"])
    return Snapshot.model_validate(data)


def run_case(case: Case) -> Report:
    plan = parse_plan(str(case.spec.get("plan") or "[]"), f"{case.rule}.plan.yml")
    return api.cluster_check(snapshot_of(case.spec), plan)
