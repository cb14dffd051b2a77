"""The verdict and deployment plan: made together, following the chosen strategy."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from linter import api
from linter.report.model import Report
from linter.topology.parse import parse, parse_file
from linter.topology.streams_config import parse_properties
from rules.facts import AppFacts, app_facts, unchecked
from rules.framework import DeployStrategy, Finding, Impact, Resource, Severity
from rules.verdict import NOTHING_REQUIRED, DeploymentPlan, Verdict, assess
from tests.conftest import FIXTURES

FACTS = AppFacts(
    application_id="orders-app",
    input_topics=("orders",),
    repartition_topics=("orders-app-by-customer-repartition",),
    output_topics=("order-totals",),
)


def finding(
    name: str,
    *,
    severity: Severity = Severity.WARNING,
    impact: Impact = Impact.RESTORE,
    requires: DeployStrategy | None = None,
    steps: tuple[str, ...] = (),
    resources: tuple[Resource, ...] = (),
) -> Finding:
    return Finding(
        rule="KS999",
        name=name,
        severity=severity,
        impact=impact,
        message=f"{name} happened",
        fingerprint=name,
        requires=requires,
        steps=steps,
        resources=resources,
    )


RENAME = {
    "severity": Severity.ERROR,
    "impact": Impact.STATE_LOSS,
    "requires": DeployStrategy.RESET,
}
MOVED = finding(
    "store-moved-subtopology",
    requires=DeployStrategy.STOP_AND_RESTART,
    steps=(
        "Store orders restores from orders-app-orders-changelog into <state.dir>/orders-app/1_*.",
        "Delete the stale store directories <state.dir>/orders-app/0_*/orders after the restore.",
    ),
)
DRAIN = finding(
    "repartition-topic-removed",
    impact=Impact.DATA_LOSS,
    requires=DeployStrategy.STOP_AND_RESTART,
    steps=("Drain orders-app-by-customer-repartition before deploying.",),
    resources=(Resource(kind="repartition-topic", name="orders-app-by-customer-repartition"),),
)


def test_three_renames_give_one_reset_without_in_place_steps() -> None:
    renames = [
        finding(f"store-renamed-{i}", steps=(f"Rebuild store s{i}: reset",), **RENAME)  # type: ignore[arg-type]
        for i in range(3)
    ]
    verdict, plan = assess([*renames, MOVED, DRAIN], FACTS)
    assert verdict is Verdict.UNSAFE
    assert plan.strategy is DeployStrategy.RESET
    assert plan.complete
    text = "\n".join(plan.steps)
    assert text.count("kafka-streams-application-reset.sh") == 1
    assert "Rebuild store" not in text
    assert "restores from" not in text
    assert "after the restore" not in text
    assert "Drain" not in text
    assert "before deploying" not in text
    assert plan.steps[0].startswith("Stop every instance of orders-app")
    command = "--bootstrap-server <host:port> --application-id orders-app --input-topics orders "
    assert command in text
    assert "retention.ms, 7 days by default" in text
    assert "KafkaStreams#cleanUp()" in text
    assert "<state.dir>/orders-app" in text


def test_blue_green_has_no_in_place_steps_and_drains_the_old_app() -> None:
    key = finding(
        "key-change-before-stateful",
        severity=Severity.ERROR,
        impact=Impact.STATE_LOSS,
        requires=DeployStrategy.BLUE_GREEN,
        steps=("Rebuild orders under the new key.",),
    )
    downstream = finding(
        "sink-topic-changed",
        impact=Impact.DOWNSTREAM,
        steps=("Tell the consumers of order-totals about the new key.",),
    )
    _, plan = assess([key, MOVED, DRAIN, downstream], FACTS)
    assert plan.strategy is DeployStrategy.BLUE_GREEN
    text = "\n".join(plan.steps)
    assert "new application.id" in text
    assert "order-totals" in text
    assert "restores from" not in text
    assert "0_*" not in text
    assert "1_*" not in text
    assert "still running, drain orders-app-by-customer-repartition: " in text  # before cutover
    assert "retention" in text
    assert "Tell the consumers of order-totals about the new key." in plan.steps


def test_in_place_plan_keeps_the_steps_and_says_how_to_drain() -> None:
    _, plan = assess([MOVED, DRAIN], AppFacts(application_id="a", exactly_once=True))
    assert plan.strategy is DeployStrategy.STOP_AND_RESTART
    assert not plan.complete
    assert MOVED.steps[0] in plan.steps
    how = next(s for s in plan.steps if s.startswith("Drain orders-app-by-customer-repartition:"))
    assert how.index("input topics is 0") < how.index("each repartition topic is 0")
    assert "transaction markers" in how
    assert "deploy the old version once more with its source topics changed to empty " \
        "substitute topics" in how
    assert "the substitutes must exist" in how


def test_stop_and_restart_drains_once_first_and_cleans_up_in_the_one_stop() -> None:
    own_drain = DRAIN.model_copy(
        update={
            "steps": (
                "Drain orders-app-by-customer-repartition before deploying.",
                "Once the new version runs, delete the unused topic x: kafka-topics.sh "
                "--bootstrap-server <host:port> --delete --topic x",
            )
        }
    )
    gone = finding(
        "subtopology-removed",
        requires=DeployStrategy.STOP_AND_RESTART,
        steps=("With all instances stopped, delete <state.dir>/orders-app/2_* on every instance.",),
    )
    moved = MOVED.model_copy(
        update={
            "steps": (
                MOVED.steps[0],
                "With all instances stopped, delete the stale store directories "
                "<state.dir>/orders-app/0_*/orders on every instance.",
            )
        }
    )
    verdict, plan = assess([moved, own_drain, gone], FACTS)
    assert verdict is Verdict.SAFE_WITH_RESTORE  # the drain handles the data loss
    steps = plan.steps
    assert sum(s.startswith("Drain") for s in steps) == 1
    assert steps[0].startswith("Drain orders-app-by-customer-repartition: ")
    assert steps[0].endswith("Then stop every instance of orders-app.")
    assert [s.split(",")[0] for s in steps[1:3]] == ["With all instances stopped"] * 2
    assert steps[3] == MOVED.steps[0]
    assert steps[4].startswith("Once the new version runs, delete the unused topic x: ")
    assert "after the restore" not in "\n".join(steps)


def test_an_error_the_plan_handles_is_not_unsafe() -> None:
    two_bounces = finding(
        "upgrade-from-required",
        severity=Severity.ERROR,
        impact=Impact.AVAILABILITY,
        requires=DeployStrategy.ROLLING_BOUNCE,
        steps=("Bounce 1", "Bounce 2"),
    )
    verdict, plan = assess([two_bounces], None)
    assert verdict is Verdict.SAFE
    assert plan.steps == ("Bounce 1", "Bounce 2")
    assert plan.why != NOTHING_REQUIRED
    drained = DRAIN.model_copy(update={"severity": Severity.ERROR})
    assert assess([drained], FACTS)[0] is Verdict.SAFE
    assert assess([drained, MOVED], FACTS)[0] is Verdict.SAFE_WITH_RESTORE


def test_nothing_restored_is_not_safe_with_restore() -> None:
    new_input = finding(
        "source-topics-changed",
        impact=Impact.DATA_LOSS,
        requires=DeployStrategy.STOP_AND_RESTART,
        steps=("Decide where in-v2 starts.",),
    )
    verdict, plan = assess([new_input], FACTS)
    assert verdict is Verdict.SAFE
    assert plan.strategy is DeployStrategy.STOP_AND_RESTART


@pytest.mark.parametrize("strategy", [DeployStrategy.RESET, DeployStrategy.BLUE_GREEN])
def test_state_lost_stays_unsafe_whatever_the_plan(strategy: DeployStrategy) -> None:
    lost = finding(
        "store-renamed", severity=Severity.ERROR, impact=Impact.STATE_LOSS, requires=strategy
    )
    verdict, plan = assess([lost], FACTS)
    assert verdict is Verdict.UNSAFE
    assert plan.strategy is strategy


@pytest.mark.parametrize(
    "blocking",
    [
        finding("topology-file-deleted", severity=Severity.ERROR, impact=Impact.STATE_LOSS),
        finding(
            "store-renamed",
            severity=Severity.ERROR,
            impact=Impact.STATE_LOSS,
            requires=DeployStrategy.RESET,
            steps=("Reset",),
        ),
    ],
)
def test_an_unsafe_verdict_never_comes_with_nothing_required(blocking: Finding) -> None:
    verdict, plan = assess([blocking], None)
    assert verdict is Verdict.UNSAFE
    assert plan.why != NOTHING_REQUIRED
    assert blocking.name in plan.why
    if blocking.requires is None:
        assert plan.steps[0].startswith("Do not deploy until KS999 topology-file-deleted")


def test_a_report_whose_verdict_and_plan_disagree_cannot_be_built() -> None:
    with pytest.raises(ValidationError, match="verdict unsafe"):
        Report(
            kind="diff",
            verdict=Verdict.UNSAFE,
            plan=DeploymentPlan(strategy=DeployStrategy.ROLLING_BOUNCE, why=NOTHING_REQUIRED),
        )


def test_a_finding_turned_down_to_info_does_not_choose_the_strategy() -> None:
    info = finding("store-renamed", severity=Severity.INFO, requires=DeployStrategy.RESET)
    verdict, plan = assess([info], FACTS)
    assert (verdict, plan.strategy) == (Verdict.SAFE, DeployStrategy.ROLLING_BOUNCE)


TEXT = """\
Topologies:
   Sub-topology: 0
    Source: in (topics: [clicks, views])
      --> by-user-repartition-sink
    Sink: by-user-repartition-sink (topic: by-user-repartition)
      <-- in
   Sub-topology: 1
    Source: by-user-repartition-source (topics: [by-user-repartition])
      --> counts
    Source: pat (topics: audit-.*)
      --> counts
    Processor: counts (stores: [counts-store])
      --> out
      <-- by-user-repartition-source, pat
    Sink: out (topic: totals)
      <-- counts
"""


def test_facts_come_from_describe() -> None:
    d = parse(TEXT, "t.txt")
    facts = app_facts(d, d, application_id="app")
    assert facts.input_topics == ("clicks", "views")
    assert facts.input_patterns == ("audit-.*",)
    assert facts.repartition_topics == ("app-by-user-repartition",)
    assert facts.output_topics == ("totals",)
    reset = "\n".join(assess([finding("r", **RENAME)], facts)[1].steps)  # type: ignore[arg-type]
    assert "--input-topics clicks,views " in reset
    assert "pattern(s) audit-.*" in reset


JOINS = """\
Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [left])
      --> KSTREAM-WINDOWED-0000000002
    Source: KSTREAM-SOURCE-0000000001 (topics: [right])
      --> KSTREAM-WINDOWED-0000000003
    Processor: KSTREAM-WINDOWED-0000000002 (stores: [KSTREAM-JOINTHIS-0000000004-store])
      --> KSTREAM-JOINTHIS-0000000004
      <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-WINDOWED-0000000003 (stores: [KSTREAM-JOINOTHER-0000000005-store])
      --> KSTREAM-JOINOTHER-0000000005
      <-- KSTREAM-SOURCE-0000000001
    Processor: KSTREAM-JOINTHIS-0000000004 (stores: [KSTREAM-JOINOTHER-0000000005-store])
      --> KSTREAM-MERGE-0000000006
      <-- KSTREAM-WINDOWED-0000000002
    Processor: KSTREAM-JOINOTHER-0000000005 (stores: [KSTREAM-JOINTHIS-0000000004-store])
      --> KSTREAM-MERGE-0000000006
      <-- KSTREAM-WINDOWED-0000000003
    Processor: KSTREAM-MERGE-0000000006 (stores: [])
      --> KSTREAM-SINK-0000000007
      <-- KSTREAM-JOINTHIS-0000000004, KSTREAM-JOINOTHER-0000000005
    Sink: KSTREAM-SINK-0000000007 (topic: joined)
      <-- KSTREAM-MERGE-0000000006
"""
STATELESS = """\
Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [in])
      --> KSTREAM-FILTER-0000000001
    Processor: KSTREAM-FILTER-0000000001 (stores: [])
      --> KSTREAM-SINK-0000000002
      <-- KSTREAM-SOURCE-0000000000
    Sink: KSTREAM-SINK-0000000002 (topic: out)
      <-- KSTREAM-FILTER-0000000001
"""


def test_unchecked_is_tailored_to_the_topology() -> None:
    joins = "\n".join(unchecked(parse(JOINS, "j.txt")))
    assert "Join windows and grace periods of the stream-stream joins" in joins
    assert "serdes and schemas of the state stores" in joins
    assert "Whether" not in joins  # join stores are windowed by JoinWindows, not maybe-windowed
    stateless = unchecked(parse(STATELESS, "s.txt"))
    assert len(stateless) == 1
    assert stateless[0].startswith("Processing logic")
    table = "\n".join(unchecked(parse(TEXT, "t.txt")))
    assert "Whether counts-store is windowed" in table


def test_safe_diff_carries_the_note_and_unsafe_does_not() -> None:
    d = parse(JOINS, "j.txt")
    safe = api.diff(d, d)
    assert safe.verdict is Verdict.SAFE
    assert safe.unchecked
    before = parse(STATELESS, "s.txt")
    assert api.diff(before, before).unchecked == unchecked(before)
    clicks = FIXTURES / "examples"
    unsafe = api.diff(parse_file(clicks / "clicks-v1.txt"), parse_file(clicks / "clicks-v2.txt"))
    assert unsafe.verdict is Verdict.UNSAFE
    assert unsafe.unchecked == ()  # "unsafe" already says do not deploy as is


def test_a_reset_keeps_the_steps_about_new_inputs_and_the_old_application_id() -> None:
    new_input = finding(
        "source-topics-changed",
        impact=Impact.DATA_LOSS,
        requires=DeployStrategy.STOP_AND_RESTART,
        steps=("Check that payments has as many partitions as orders.",),
    )
    app_id = finding(
        "application-id-changed",
        severity=Severity.ERROR,
        impact=Impact.STATE_LOSS,
        requires=DeployStrategy.RESET,
        steps=("When old-app is retired, delete its internal topics.",),
    )
    _, plan = assess([new_input, app_id, MOVED], FACTS)
    assert plan.complete
    assert "Check that payments has as many partitions as orders." in plan.steps
    assert "When old-app is retired, delete its internal topics." in plan.steps
    assert MOVED.steps[0] not in plan.steps


def test_a_new_application_id_stops_the_old_app_starts_the_new_and_retires_the_old() -> None:
    app_id = finding(
        "application-id-changed",
        severity=Severity.ERROR,
        impact=Impact.STATE_LOSS,
        requires=DeployStrategy.RESET,
        steps=("Stop every instance of a.",),
    )
    facts = AppFacts(application_id="b", state_dir="/var/ks", previous_application_id="a")
    verdict, plan = assess([app_id], facts)
    assert verdict is Verdict.UNSAFE
    text = "\n".join(plan.steps)
    assert text.index("Stop every instance of a.") < text.index("Start every instance of b")
    assert text.index("Start every instance of b") < text.index("Retire a")
    assert "--application-id a " in text
    assert "--delete --group a " in text
    assert "delete /var/ks/a on every instance" in text
    assert "--application-id b" not in text
    assert "/var/ks/b" not in text
    assert text.count("Stop every instance of a.") == 1


def test_app_context_knows_the_application_id_the_upgrade_retires() -> None:
    before = parse_properties("application.id=a\n", "before.properties")
    after = parse_properties("application.id=b\n", "after.properties")
    facts, _ = api.app_context(None, None, "b", configs=(before, after))
    assert facts.app == "b"
    assert facts.previous_application_id == "a"
    same, _ = api.app_context(None, None, "a", configs=(before, before))
    assert same.previous_application_id is None


@pytest.mark.parametrize("app", ["word-count", "clicks", "orders"])
def test_decide_is_what_assess_decides(app: str) -> None:
    """The fleet scan's verdict and strategy without the plan's steps are the report's."""
    from rules.verdict import decide

    before, after = (parse_file(FIXTURES / "examples" / f"{app}-{v}.txt") for v in ("v1", "v2"))
    report = api.diff(before, after)
    assert report.verdict is not None
    assert report.plan is not None
    assert decide(report.findings) == (report.verdict, report.plan.strategy, report.plan.why)
    unsafe = (*report.findings, finding("broken", severity=Severity.ERROR))
    verdict, plan = assess(unsafe)
    assert decide(unsafe) == (verdict, plan.strategy, plan.why)
