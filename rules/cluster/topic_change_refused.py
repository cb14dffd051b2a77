"""KC043 topic-change-refused."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import RefusalKind
from cluster_engine.plan import AddPartitions, CreateTopic
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, topic
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC043",
    name="topic-change-refused",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def topic_change_refused(t: Transition) -> Iterator[Hit]:
    """A topic is created that exists, or its partition count is not increased: refused.

    Why: CreateTopics answers TOPIC_ALREADY_EXISTS "Topic 'orders' already exists.", and
    CreatePartitions answers INVALID_PARTITIONS "The topic orders currently has 6
    partition(s); 3 would not be an increase." or "Topic already has 6 partition(s)."
    (4.1:MC/ReplicationControlManager.java createTopics/createPartitions); partitions can never
    be removed. ``kafka-topics.sh`` prints "Error while executing topic command : <message>" and
    exits 1 (4.1:tools/.../TopicCommand.java:130-133).

    Example:

        - add-partitions: {topic: orders, partitions: 3}   # orders has 6

    Fix: give the new total, above the current count; to shrink a topic, create a new one
    and migrate its producers and consumers; skip creating a topic that exists (or use
    ``--if-not-exists`` on purpose).
    """
    step = t.step
    if not isinstance(step, CreateTopic | AddPartitions):
        return
    for r in t.refusals:
        if r.kind not in (RefusalKind.TOPIC_EXISTS, RefusalKind.PARTITION_COUNT):
            continue
        verb = "Creating" if isinstance(step, CreateTopic) else "Setting the partition count of"
        yield at_step(
            t,
            f"{verb} {step.topic} is refused: Error while executing topic command : {r.message}",
            resources=[topic(step.topic)],
            remediation="Partitions can only be added: give a total above the current count, "
            "or create a new topic and migrate to it."
            if r.kind is RefusalKind.PARTITION_COUNT
            else "The topic exists: drop the step, or create a topic with a new name.",
            key=f"{step.topic}:{r.kind.value}",
        )
