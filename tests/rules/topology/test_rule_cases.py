"""Every YAML rule case in ``fixtures/rules/`` (one test, parametrised by case)."""

from __future__ import annotations

import pytest

from tests.rules.topology.cases import Case, load_cases, run_case

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_rule_case(case: Case) -> None:
    report = run_case(case)
    got = [f for f in report.findings if f.name == case.rule]
    unmatched = list(got)
    for exp in case.expect:
        hit = next(
            (
                f
                for f in unmatched
                if f.name == exp["rule"]
                and f.severity.value == exp["severity"]
                and any(r.name == str(exp["resource"]) for r in f.resources)
            ),
            None,
        )
        assert hit is not None, f"expected {exp}, got {[(f.message, f.resources) for f in got]}"
        unmatched.remove(hit)
    assert not unmatched, f"unexpected findings: {[f.message for f in unmatched]}"
