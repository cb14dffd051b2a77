"""Hand-built reports the renderer tests share (no parser or rules needed)."""

from __future__ import annotations

from linter.report.model import Report, Summary
from rules.framework import DeployStrategy, Finding, Impact, Location, Resource, Severity
from rules.verdict import plan_of, verdict_of


def diff_report() -> Report:
    findings = (
        Finding(
            rule="KS201",
            name="store-renamed",
            severity=Severity.ERROR,
            impact=Impact.STATE_LOSS,
            message="store KSTREAM-AGGREGATE-STATE-STORE-0000000001 is now "
            "KSTREAM-AGGREGATE-STATE-STORE-0000000002 (index shift | filter inserted)",
            resources=(
                Resource(kind="store", name="KSTREAM-AGGREGATE-STATE-STORE-0000000001"),
                Resource(
                    kind="changelog-topic",
                    name="wc-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog",
                ),
            ),
            locations=(
                Location(path="topology/word-count.txt", line=9, side="before"),
                Location(path="topology/word-count.txt", line=10, column=5, side="after"),
            ),
            remediation='Name the store: Materialized.as("counts")',
            fingerprint="a1b2c3d4e5f60718",
            requires=DeployStrategy.RESET,
            steps=("Stop every instance", "Reset the application: kafka-streams-application-reset"),
        ),
        Finding(
            rule="KS102",
            name="generated-repartition-topic",
            severity=Severity.WARNING,
            impact=Impact.HYGIENE,
            message="repartition topic KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition has "
            "a generated name\nit shifts when an operator is inserted upstream",
            locations=(Location(path="topology/word-count.txt", line=7, side="after"),),
            fingerprint="0f1e2d3c4b5a6978",
        ),
        Finding(
            rule="KS103",
            name="generated-processor-name",
            severity=Severity.INFO,
            impact=Impact.HYGIENE,
            message="processor KSTREAM-FILTER-0000000001 has a generated name: 100% harmless, "
            "a:b,c",
            locations=(Location(path="topology/word-count.txt", line=4, side="after"),),
            fingerprint="9988776655443322",
            acknowledged="stateless; named in the next release",
        ),
    )
    return Report(
        kind="diff",
        inputs={"before": "topology/word-count.txt@HEAD", "after": "topology/word-count.txt"},
        findings=findings,
        verdict=verdict_of(findings),
        plan=plan_of(findings),
        summary=Summary.of(findings),
    )


def cluster_report() -> Report:
    findings = (
        Finding(
            rule="KC301",
            name="restart-breaks-min-isr",
            severity=Severity.ERROR,
            impact=Impact.AVAILABILITY,
            message="restarting brokers 1 and 2 at once leaves 12 partitions of orders below "
            "min.insync.replicas=2",
            fingerprint="c0ffee0000000001",
            step=1,
            line=8,
        ),
    )
    return Report(
        kind="cluster",
        inputs={"snapshot": "cluster/prod.json", "plan": "plans/roll.yaml"},
        findings=findings,
        verdict=verdict_of(findings),
        plan=plan_of(findings),
        summary=Summary.of(findings),
    )


def empty_lint_report() -> Report:
    return Report(kind="lint", inputs={"file": "topology/app.txt"})
