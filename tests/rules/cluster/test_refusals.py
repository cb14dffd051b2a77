"""Every refusal the simulator can produce reaches the report: each :class:`RefusalKind` has a
rule that reports it, some case produces it, and wherever a case produces it one of its rules
reports an error at that step."""

from __future__ import annotations

from collections import defaultdict

import pytest

from cluster_engine.controller import RefusalKind
from cluster_engine.simulate import simulate
from linter import api
from rules.cluster import CLUSTER_RULES, REFUSAL_RULES
from rules.framework import Severity
from tests.rules.case_files import ClusterFile
from tests.rules.case_model import ClusterCase
from tests.rules.case_run import plan_of, snapshot_of
from tests.rules.test_rule_cases import FILES

CASES = [
    (f.rule, c)
    for f in FILES["cluster"]
    if isinstance(f, ClusterFile)
    for c in f.cases
    if c.input_error is None
]


def _refusals() -> dict[RefusalKind, list[tuple[tuple[str, ClusterCase], int]]]:
    found: defaultdict[RefusalKind, list[tuple[tuple[str, ClusterCase], int]]] = defaultdict(list)
    for rule, case in CASES:
        plan = plan_of(case, rule)
        for t in simulate(snapshot_of(case), plan).transitions:
            for r in t.refusals:
                found[RefusalKind(r.kind)].append(((rule, case), t.index))
    return found


FOUND = _refusals()


def test_every_refusal_kind_has_an_error_rule() -> None:
    assert set(REFUSAL_RULES) == set(RefusalKind)
    for kind, rules in REFUSAL_RULES.items():
        assert rules, kind
        for r in rules:
            assert r in CLUSTER_RULES, (kind, r.name)
            assert r.severity is Severity.ERROR, (kind, r.name)


@pytest.mark.parametrize("kind", list(RefusalKind), ids=lambda k: k.value)
def test_some_case_produces_the_refusal(kind: RefusalKind) -> None:
    assert FOUND.get(kind), f"no case in fixtures/rules/cluster/ makes the simulator refuse {kind}"


@pytest.mark.parametrize("kind", list(RefusalKind), ids=lambda k: k.value)
def test_the_refusal_is_reported_as_an_error_at_its_step(kind: RefusalKind) -> None:
    names = {r.name for r in REFUSAL_RULES[kind]}
    for (rule, case), step in FOUND.get(kind, []):
        plan = plan_of(case, rule)
        report = api.cluster_check(snapshot_of(case), plan)
        hits = [
            f
            for f in report.findings
            if f.name in names and f.step == step and f.severity is Severity.ERROR
        ]
        assert hits, f"{rule}: {case.name}: step {step} refused ({kind}); {sorted(names)} silent"
