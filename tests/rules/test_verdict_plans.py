"""What the verdict's deployment plan does with many findings."""

from __future__ import annotations


def test_regression_deployment_plan_deduplicated_steps_in_quadratic_time() -> None:
    # `step not in steps` on a list: 100,000 steps took minutes; the limit is a hang guard.
    from rules.framework import DeployStrategy, Finding, Impact, Severity
    from rules.verdict import plan_of
    from tests.hardening.fuzzing import time_limit

    findings = [
        Finding(
            rule="KS201",
            name="store-renamed",
            severity=Severity.ERROR,
            impact=Impact.STATE_LOSS,
            message="m",
            fingerprint=f"{i:016x}",
            requires=DeployStrategy.RESET,
            steps=(*(f"delete task directory {i}_{j}" for j in range(10)), "drain t"),
        )
        for i in range(10_000)
    ]
    with time_limit(20):
        plan = plan_of(findings)
    assert len(plan.steps) == 100_001
    assert plan.steps[:2] == ("delete task directory 0_0", "delete task directory 0_1")
    assert plan.steps[10] == "drain t"
