"""Properties of the cluster engine over generated change plans on a real fixture snapshot.

Whatever the plan (plausible or absurd: unknown brokers, levels out of range, throttles of 1
byte, restarts of every node at once), loading it gives a plan or a located
:class:`ClusterInputError`, and checking it gives a report: never another exception. Each
finding points at a step of the plan and its line, names resources that exist in the snapshot
or the plan, and has the same fingerprint when the plan is moved down the file.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given
from hypothesis import strategies as st

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest import load_snapshot
from cluster_engine.plan import Plan, parse_plan
from cluster_engine.snapshot import Snapshot
from linter import api
from linter.report.model import Report
from tests.hardening.fuzzing import ROOT

SNAPSHOT = ROOT / "fixtures" / "cluster" / "snapshots" / "three-brokers.yaml"


@cache
def snapshot() -> Snapshot:
    return load_snapshot(SNAPSHOT)


NODES = st.sampled_from([1, 2, 3, 101, 102, 103, 4, 999])
NODE_LISTS = st.lists(NODES, min_size=1, max_size=4, unique=True)
TOPICS = st.sampled_from(["orders", "payments", "new-topic", "x"])
VERSIONS = st.sampled_from(["3.9.0", "4.0.0", "4.1.0", "4.2.0", "4.3.0", "9.9.9"])
FEATURES = st.sampled_from([
    "metadata.version", "eligible.leader.replicas.version", "kraft.version",
    "group.version", "transaction.version", "share.version", "no.such.feature",
])  # fmt: skip
LEVELS = st.one_of(st.integers(-1, 40), st.sampled_from(["4.1-IV1", "3.9-IV0", "4.3-IV0"]))
CONFIG_KEYS = st.sampled_from([
    "min.insync.replicas", "unclean.leader.election.enable", "retention.ms",
    "leader.replication.throttled.rate", "follower.replication.throttled.rate",
    "leader.replication.throttled.replicas", "follower.replication.throttled.replicas",
])  # fmt: skip
CONFIG_VALUES = st.sampled_from(["1", "2", "3", "4", "true", "false", "*", "0:1,1:2", "-1"])


def _step() -> st.SearchStrategy[dict[str, Any]]:
    def one(action: str, **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
        return st.fixed_dictionaries({}, optional=fields).map(lambda d: {action: d})

    moves = st.lists(
        st.fixed_dictionaries(
            {"topic": TOPICS, "partition": st.integers(0, 12), "replicas": NODE_LISTS}
        ),
        min_size=1,
        max_size=3,
    )
    return st.one_of(
        one("upgrade-binaries", nodes=NODE_LISTS, version=VERSIONS).filter(
            lambda d: {"nodes", "version"} <= set(d["upgrade-binaries"])
        ),
        st.builds(
            lambda n, w: {"restart": {"nodes": n, "wait-for-urp": w}}, NODE_LISTS, st.booleans()
        ),
        one("rolling-restart", **{"at-once": st.integers(1, 4), "wait-for-urp": st.booleans()}),
        st.builds(
            lambda f, lv, u: {"update-feature": {"feature": f, "level": lv, "unsafe": u}},
            FEATURES, LEVELS, st.booleans(),
        ),
        st.builds(lambda r: {"update-feature": {"release-version": r}}, VERSIONS),
        st.builds(
            lambda scope, entity, key, value: {
                "alter-config": {"scope": scope, "key": key, "value": value}
                | ({"entity": entity} if scope != "cluster" else {})
            },
            st.sampled_from(["cluster", "broker", "topic"]),
            st.one_of(NODES.map(str), TOPICS), CONFIG_KEYS, CONFIG_VALUES,
        ),
        st.builds(
            lambda m, t: {"reassign": {"partitions": m} | ({} if t is None else {"throttle": t})},
            moves, st.one_of(st.none(), st.sampled_from([-1, 1, 500_000, 50_000_000])),
        ),
        st.just({"verify-reassignment": {}}),
        st.just({"cancel-reassignment": {}}),
        st.builds(lambda i: {"add-broker": {"id": i}}, NODES),
        st.builds(lambda b: {"decommission-broker": {"brokers": b}}, NODE_LISTS),
        st.builds(lambda i: {"add-controller": {"id": i}}, NODES),
        st.builds(lambda i: {"remove-controller": {"id": i}}, NODES),
        st.builds(
            lambda t, ts: {"elect-leaders": {"type": t} | ({"topics": ts} if ts else {})},
            st.sampled_from(["preferred", "unclean"]), st.lists(TOPICS, max_size=2),
        ),
        st.builds(
            lambda t, p, rf: {
                "create-topic": {"topic": t, "partitions": p, "replication-factor": rf}
            },
            TOPICS, st.integers(1, 50), st.integers(1, 5),
        ),
        st.builds(
            lambda t, p: {"add-partitions": {"topic": t, "partitions": p}},
            TOPICS, st.integers(1, 60),
        ),
    )  # fmt: skip


PLANS = st.lists(_step(), min_size=1, max_size=6).map(
    lambda steps: yaml.safe_dump(steps, sort_keys=False)
)


def _located(error: ClusterInputError) -> None:
    assert str(error).startswith("plan.yaml:"), error


def _load(text: str) -> Plan | None:
    try:
        return parse_plan(text, "plan.yaml", base_dir=Path("."))
    except ClusterInputError as error:
        _located(error)
        return None


def _check(plan: Plan) -> Report | None:
    """The report, or None when the simulator refuses a step that cannot be applied (a node
    that is not in the cluster...): a located input error, like the loader's."""
    try:
        return api.cluster_check(snapshot(), plan, snapshot_path="snap.yaml")
    except ClusterInputError as error:
        _located(error)
        return None


@given(PLANS)
def test_any_plan_loads_or_is_located_and_checks_without_exception(text: str) -> None:
    plan = _load(text)
    if plan is None:
        return
    report = _check(plan)
    if report is None:
        return
    lines = {step.index: step.line for step in plan.steps}
    nodes = {n.id for n in snapshot().nodes}
    topics = {t.name for t in snapshot().topics}
    for f in report.findings:
        if f.rule.startswith("KC") and f.step is not None:
            assert f.step in lines, f
            assert f.line in (None, lines[f.step]), f
        for r in f.resources:
            if r.kind == "broker":
                assert r.name.isdigit(), f
                assert int(r.name) in nodes or r.name in text, f
            if r.kind == "topic":
                assert r.name in topics or r.name in text, f


@given(PLANS)
def test_fingerprints_do_not_depend_on_plan_lines(text: str) -> None:
    plan = _load(text)
    if plan is None:
        return
    moved = _load("# a comment\n\n# another\n" + text)
    assert moved is not None
    a, b = _check(plan), _check(moved)
    if a is None or b is None:
        assert (a, b) == (None, None)
        return
    assert sorted((f.rule, f.fingerprint, f.message) for f in a.findings) == sorted(
        (f.rule, f.fingerprint, f.message) for f in b.findings
    )
    assert [f.line + 3 if f.line else None for f in a.findings] == [f.line for f in b.findings]
