"""Every YAML rule case in ``fixtures/rules/`` (one test, parametrised by case)."""

from __future__ import annotations

import pytest

from tests.rules.topology.cases import Expect, check_keys, load_cases, run_case
from tests.rules.yaml_cases import Case

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_rule_case(case: Case) -> None:
    check_keys(case)
    expected = [Expect.model_validate(e) for e in case.expect]
    report = run_case(case)
    got = [f for f in report.findings if f.name == case.rule]
    unmatched = list(got)
    for exp in expected:
        hit = next((f for f in unmatched if exp.matches(f)), None)
        assert hit is not None, (
            f"expected {exp}, got {[(f.message, f.remediation, f.resources) for f in got]}"
        )
        unmatched.remove(hit)
    assert not unmatched, f"unexpected findings: {[f.message for f in unmatched]}"
