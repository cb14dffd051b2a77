"""Every YAML cluster rule case in ``fixtures/cluster/cases/`` (one test, parametrised)."""

from __future__ import annotations

import pytest

from cluster_engine.errors import ClusterInputError
from tests.rules.cluster.cases import Case, load_cases, run_case

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_cluster_rule_case(case: Case) -> None:
    if "input_error" in case.spec:
        expected = case.spec["input_error"]
        with pytest.raises(ClusterInputError) as info:
            run_case(case)
        assert str(info.value).startswith(f"{case.rule}.plan.yml:{expected['line']}:"), info.value
        for text in expected.get("message_contains", ()):
            assert text in str(info.value), info.value
        return
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
                and ("step" not in exp or f.step == exp["step"])
                and ("line" not in exp or f.line == exp["line"])
            ),
            None,
        )
        assert hit is not None, (
            f"expected {exp}, got {[(f.message, f.resources, f.step, f.line) for f in got]}"
        )
        for text in exp.get("message_contains", ()):
            assert text in hit.message, hit.message
        unmatched.remove(hit)
    assert not unmatched, f"unexpected findings: {[f.message for f in unmatched]}"
    if case.spec.get("no_errors"):
        errors = [f"{f.rule} {f.message}" for f in report.findings if f.severity.value == "error"]
        assert not errors, errors
