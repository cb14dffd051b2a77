"""Running one typed rule case through the library's entry points, and matching its findings.

Each ``run_*`` returns every finding of the run; :func:`mismatch` compares the findings of the
case's rule with its expectations, one to one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from typing import Any

import pytest
import yaml

from cluster_engine.ingest import assemble
from cluster_engine.ingest.detect import read_text
from cluster_engine.plan import Plan, load_plan, parse_plan
from cluster_engine.snapshot import Snapshot
from linter import api
from linter.config import Config
from linter.fleet.lineage import fleet_findings, whole_graph
from linter.fleet.scan import Version, scan_app
from linter.gitbase import FileChange
from linter.lineage import AppFacts, PartitionChange
from linter.report.model import Report
from linter.topology.model import Description
from linter.topology.parse import parse, parse_file
from linter.topology.streams_config import parse_properties
from rules.catalogue import ALL_RULES
from rules.framework import Finding, Hit, Location, Resource
from tests.conftest import CORPUS_MISSING, ROOT, TOPOLOGY_CORPUS, corpus_text
from tests.rules.case_model import (
    AcknowledgementCase,
    ClusterCase,
    DiffCase,
    Expect,
    FleetApp,
    FleetCase,
    GitBaseCase,
    LintCase,
    SnapshotSpec,
)

DEFAULT_SNAPSHOT = "fixtures/cluster/snapshots/three-brokers.yaml"
DEFAULT_CAPTURES = "fixtures/cluster/snapshots/three-brokers"


# -- matching ---------------------------------------------------------------------------------


def _where(loc: Location) -> str:
    return f"{loc.path}:{loc.line}" if loc.line is not None else str(loc.path)


def matches(e: Expect, f: Finding) -> bool:
    return (
        f.name == e.rule
        and f.severity == e.severity
        and (e.resource is None or any(r.name == e.resource for r in f.resources))
        and (e.location is None or any(_where(loc) == e.location for loc in f.locations))
        and (e.step is None or f.step == e.step)
        and (e.line is None or f.line == e.line)
        and (e.message is None or e.message in f.message)
        and all(text in f.message for text in e.message_contains)
        and (e.remediation is None or e.remediation in f.remediation)
        and (e.not_in_remediation is None or e.not_in_remediation not in f.remediation)
        and (e.steps is None or any(e.steps in s for s in f.steps))
        and (e.not_in_steps is None or not any(e.not_in_steps in s for s in f.steps))
    )


def mismatch(expect: Sequence[Expect], findings: Sequence[Finding], rule: str) -> str | None:
    """Why the findings of ``rule`` are not exactly ``expect`` (None when they are)."""
    unmatched = [f for f in findings if f.name == rule]
    for e in expect:
        hit = next((f for f in unmatched if matches(e, f)), None)
        if hit is None:
            got = [(f.severity.value, f.message, [r.name for r in f.resources], f.step, f.line)
                   for f in unmatched]  # fmt: skip
            return f"no finding matches {e!r}; the rule's other findings: {got}"
        unmatched.remove(hit)
    if unmatched:
        return f"unexpected findings: {[f.message for f in unmatched]}"
    return None


@contextmanager
def always_firing(name: str) -> Iterator[None]:
    """The rule ``name`` replaced, in the catalogue itself, by one that fires on any subject."""

    def fire(*_: object) -> Iterator[Hit]:
        yield Hit(message="fires on anything", resources=(Resource(kind="test", name=name),))

    [r] = [r for r in ALL_RULES if r.name == name]
    func = r.func
    object.__setattr__(r, "func", fire)  # the rule objects are shared by every runner
    try:
        yield
    finally:
        object.__setattr__(r, "func", func)


# -- topology ---------------------------------------------------------------------------------


def _read(ref: str) -> tuple[str, str]:
    """A fixture file's text and path, or a corpus file's (skipping without the corpus)."""
    if ref.startswith("corpus:"):
        if not TOPOLOGY_CORPUS.is_dir():
            pytest.skip(CORPUS_MISSING)
        path = TOPOLOGY_CORPUS / ref.removeprefix("corpus:")
        return corpus_text(path), str(path)
    return (ROOT / ref).read_text(encoding="utf-8"), ref


def _model(text: str | None, ref: str | None, label: str) -> Description | None:
    if text is not None:
        return parse(text, label)
    if ref is not None:
        return parse(*_read(ref))
    return None


def run_lint(case: LintCase) -> Report:
    model = _model(case.topology, case.topology_file, "<topology>")
    assert model is not None
    return api.lint(model, api.Settings(application_id=case.application_id))


def run_diff(case: DiffCase) -> Report:
    cfg = case.config
    texts = (cfg.before, cfg.after) if cfg is not None else (None, None)
    props = [
        parse_properties(text, f"{side}.properties") if text is not None else None
        for side, text in zip(("before", "after"), texts, strict=True)
    ]
    return api.diff(
        _model(case.before, case.before_file, "<before>"),
        _model(case.after, case.after_file, "<after>"),
        api.Settings(application_id=case.application_id),
        streams_before=props[0],
        streams_after=props[1],
        streams_version_before=cfg.streams_version_before if cfg else None,
        streams_version_after=cfg.streams_version_after if cfg else None,
    )


# -- cluster ----------------------------------------------------------------------------------


def merge(base: Any, patch: Any) -> Any:
    """Deep merge; an empty mapping in ``patch`` empties the mapping it names."""
    if isinstance(base, dict) and isinstance(patch, dict) and patch:
        out = dict(base)
        for key, value in patch.items():
            out[key] = merge(base.get(key), value) if key in base else value
        return out
    return patch


def _captured(spec: SnapshotSpec) -> Snapshot:
    folder = ROOT / (spec.capture_dir or DEFAULT_CAPTURES)
    texts: dict[str, str | None] = {
        p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()
    }
    texts.update(spec.captures or {})
    sections = [
        s
        for name, text in sorted(texts.items())
        if text is not None
        for s in read_text(f"{folder.name}/{name}", text)
    ]
    return assemble(sections)


def snapshot_of(spec: SnapshotSpec) -> Snapshot:
    if spec.captured:
        snapshot = _captured(spec)
        if not spec.patch:
            return snapshot
        return Snapshot.model_validate(merge(snapshot.model_dump(mode="json"), spec.patch))
    data = spec.snapshot
    if data is None:
        path = ROOT / (spec.snapshot_file or DEFAULT_SNAPSHOT)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return Snapshot.model_validate(merge(data, spec.patch) if spec.patch else data)


def plan_of(case: ClusterCase, rule: str) -> Plan:
    """Raises :class:`~cluster_engine.errors.ClusterInputError` for a plan refused as input."""
    if case.plan_file is not None:
        return load_plan(ROOT / case.plan_file)
    return parse_plan(case.plan or "", f"{rule}.plan.yml")


def run_cluster(case: ClusterCase, rule: str) -> Report:
    plan = plan_of(case, rule)
    apps = tuple((app, parse_file(ROOT / path)) for app, path in case.topologies.items())
    return api.cluster_check(snapshot_of(case), plan, apps=apps)


# -- fleet ------------------------------------------------------------------------------------


def _facts(app: FleetApp) -> AppFacts:
    if app.versions is not None:
        rows = [Version(app.app, f"v{i + 1}", text) for i, text in enumerate(app.versions)]
        scanned = scan_app(app.app, rows, api.Settings(application_id=app.application_id))
        assert scanned.facts is not None, scanned.app.error
        return scanned.facts
    return AppFacts(
        app_id=app.app, application_id=app.application_id or app.app, upgrade=app.upgrade,
        produces=frozenset(app.produces), consumes=frozenset(app.consumes),
        stateful_on=frozenset(app.stateful_on), key_changes=frozenset(app.key_changes),
        internal=frozenset(app.internal),
    )  # fmt: skip


def run_fleet(case: FleetCase) -> list[Finding]:
    graph = whole_graph(
        [_facts(a) for a in case.apps],
        [PartitionChange(**c.model_dump()) for c in case.partition_changes],
    )
    return fleet_findings(graph, api.Settings())


# -- workflow ---------------------------------------------------------------------------------


def run_acknowledgements(case: AcknowledgementCase) -> Report:
    acks = tuple(
        api.Acknowledgement(where=f"ksafe.toml:{i + 1}", **a.model_dump())
        for i, a in enumerate(case.acknowledgements)
    )
    settings = api.Settings(
        application_id=case.application_id, acknowledgements=acks, today=case.today
    )
    if case.topology is not None:
        return api.lint(parse(case.topology, "topology.txt"), settings)
    assert case.before is not None
    assert case.after is not None
    return api.diff(parse(case.before, "before.txt"), parse(case.after, "after.txt"), settings)


def run_git_base(case: GitBaseCase) -> list[Finding]:
    # The findings of ``diff --git-base`` over files git reported, without git: the CLI's own
    # pipeline after its ``git diff``.
    from linter.api.gitbase import _git_base_findings

    found = [
        FileChange(
            status=f.status,
            path=f.path,
            old_path=None if f.status == "added" else (f.old_path or f.path),
            old_text=f.before,
            revision=case.revision,
            new_text=f.after,
        )
        for f in case.files
    ]
    config = Config(settings=api.Settings(application_id=case.application_id, today=date.min))
    return _git_base_findings(case.revision, found, config, application_id=case.application_id)[0]


