"""KC026 topic-creation-insufficient-brokers."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import RefusalKind
from cluster_engine.facts import CreateFacts
from cluster_engine.knowledge import MIN_INSYNC_REPLICAS
from cluster_engine.plan import AddPartitions, CreateTopic
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, topic
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC026",
    name="topic-creation-insufficient-brokers",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def topic_creation_insufficient_brokers(t: Transition) -> Iterator[Hit]:
    """A topic (or partitions) is created with a replication factor above the usable brokers.

    Why: the controller places replicas on registered brokers that are not in controlled
    shutdown (fenced ones count) and fails with INVALID_REPLICATION_FACTOR "Unable to replicate
    the partition 3 time(s): The target replication factor of 3 cannot be reached because only
    2 broker(s) are registered." (4.1:metadata/.../StripedReplicaPlacer.java:411-417). On a
    3-broker cluster an RF=3 creation fails while a rolling restart shuts a broker down.
    KIP-409 (a draft, not in Kafka) proposes ``enable.under.replicated.topic.creation`` to
    accept it with only min(min.insync.replicas, RF) live brokers; the finding says whether that
    would help.

    Example:

        - rolling-restart: {}
        - create-topic: {topic: events, partitions: 6, replication-factor: 3,
                         during-restart: true}

    Fix: create topics before or after the roll, not during it; on 3-broker clusters that need
    topic creation at any time, run 4 brokers (6 for a 3-zone stretch cluster).
    """
    step = t.step
    facts = t.facts
    if not isinstance(step, CreateTopic | AddPartitions) or not isinstance(facts, CreateFacts):
        return
    refusal = next((r for r in t.refusals if r.kind == RefusalKind.REPLICATION_FACTOR), None)
    rf, usable, live = facts.rf, facts.usable, facts.live
    name = step.topic
    if refusal is None:
        if rf and len(live) < rf:
            yield at_step(
                t,
                f"{name} is created with RF {rf} while only {len(live)} broker(s) are live: "
                "replicas land on fenced brokers and the partitions start under-replicated.",
                resources=[topic(name)],
                remediation="Create the topic when every broker is up.",
                key=f"{name}:under-replicated",
                data={"rf": rf, "usable": len(usable), "live": len(live)},
            )
        return
    min_isr_value = (
        step.configs.get(MIN_INSYNC_REPLICAS) if isinstance(step, CreateTopic) else None
    ) or t.before.configs.topic_value(name, MIN_INSYNC_REPLICAS)
    min_isr = int(min_isr_value) if min_isr_value and min_isr_value.isdigit() else 1
    needed = min(min_isr, rf)
    verdict = "would succeed" if len(live) >= needed else "would still fail"
    shutting = facts.shutting_down
    during = f" while broker(s) {list(shutting)} shut down" if shutting else ""
    yield at_step(
        t,
        f"Creating {name} with RF {rf}{during} fails: {refusal.message} With KIP-409's "
        f"enable.under.replicated.topic.creation (a draft, not in Kafka) it needs only "
        f"min(min.insync.replicas, RF) = {needed} live broker(s) and {verdict} "
        f"({len(live)} live).",
        resources=[topic(name)],
        remediation="Create the topic outside the restart window, lower its replication "
        "factor only if its durability allows, or add brokers so RF <= brokers - 1.",
        key=name,
        data={"rf": rf, "usable": len(usable), "live": len(live), "kip409_needed": needed},
    )
