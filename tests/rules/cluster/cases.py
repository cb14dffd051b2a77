"""Loading the YAML cluster rule cases of ``fixtures/cluster/cases/<rule-name>.yml``.

A case gives a snapshot (``snapshot_file``, a path under the repository, default the 3-broker
fixture; or an inline ``snapshot``; or ``captures``: Kafka tool outputs by file name, read as a
capture directory over the files of ``capture_dir``, default the 3-broker captures, a ``null``
text leaving that file out), an optional ``patch`` deep-merged into it (mappings merge, an empty
mapping empties, anything else replaces), optional ``topologies`` (application id -> describe()
file under the repository, as ``cluster check --topology``), a ``plan`` (YAML text) and
``expect``: the findings of the case's rule as ``{rule, severity, resource}`` plus optional
``step`` (0-based), ``line`` (in the plan) and ``message_contains`` (a list of substrings).
``no_errors: true`` also holds that no rule at all reports an error; ``input_error: {line,
message_contains}`` holds that the plan is refused as input (exit 2) at that line. Other keys
are refused.
"""

from __future__ import annotations

from typing import Any

import yaml

from cluster_engine.ingest import assemble
from cluster_engine.ingest.detect import read_text
from cluster_engine.plan import parse_plan
from cluster_engine.snapshot import Snapshot
from linter import api
from linter.report.model import Report
from linter.topology.parse import parse_file
from tests.conftest import FIXTURES, ROOT
from tests.rules.yaml_cases import Case, load_cases_from

CLUSTER_CASES = FIXTURES / "cluster" / "cases"
DEFAULT_SNAPSHOT = "fixtures/cluster/snapshots/three-brokers.yaml"
DEFAULT_CAPTURES = "fixtures/cluster/snapshots/three-brokers"
KEYS = frozenset(
    {
        "name",
        "snapshot_file",
        "snapshot",
        "captures",
        "capture_dir",
        "patch",
        "topologies",
        "plan",
        "expect",
        "no_errors",
        "input_error",
    }
)
EXPECT_KEYS = frozenset({"rule", "severity", "resource", "step", "line", "message_contains"})


def load_cases() -> list[Case]:
    cases = load_cases_from(CLUSTER_CASES)
    for case in cases:
        unknown = set(case.spec) - KEYS
        unknown |= {k for e in case.expect for k in e if k not in EXPECT_KEYS}
        if unknown:
            raise ValueError(f"{case.path}: case {case.name!r}: unknown key(s) {sorted(unknown)}")
    return cases


def merge(base: Any, patch: Any) -> Any:
    """Deep merge; an empty mapping in ``patch`` empties the mapping it names."""
    if isinstance(base, dict) and isinstance(patch, dict) and patch:
        out = dict(base)
        for key, value in patch.items():
            out[key] = merge(base.get(key), value) if key in base else value
        return out
    return patch


def captured(spec: dict[str, Any]) -> Snapshot:
    """The snapshot of a capture directory: ``capture_dir``'s files, ``captures`` over them."""
    folder = ROOT / spec.get("capture_dir", DEFAULT_CAPTURES)
    texts: dict[str, str | None] = {
        p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()
    }
    texts.update(spec.get("captures") or {})
    sections = [
        s
        for name, text in sorted(texts.items())
        if text is not None
        for s in read_text(f"{folder.name}/{name}", text)
    ]
    return assemble(sections)


def snapshot_of(spec: dict[str, Any]) -> Snapshot:
    if "captures" in spec or "capture_dir" in spec:
        snapshot = captured(spec)
        if not spec.get("patch"):
            return snapshot
        data = merge(snapshot.model_dump(mode="json"), spec["patch"])
        return Snapshot.model_validate(data)
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
    apps = tuple(
        (app, parse_file(ROOT / path)) for app, path in (case.spec.get("topologies") or {}).items()
    )
    return api.cluster_check(snapshot_of(case.spec), plan, apps=apps)
