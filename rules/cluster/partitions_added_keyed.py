"""KC100 partitions-added-keyed."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cluster_engine.plan import AddPartitions
from rules.cluster._apps import CLUSTER_APPS, ClusterApps
from rules.cluster._common import at_step, names, topic
from rules.framework import Hit, Impact, Resource, Severity, rule


def _stateful_fix() -> str:
    """KS805's own advice, so both halves of the tool give the same migration (the fleet rules
    are loaded only when a finding quotes it: a cluster check needs none of them otherwise)."""
    from rules.fleet.partitions_added_stateful import partitions_added_stateful

    doc = partitions_added_stateful.doc
    return re.sub(r"\s+", " ", doc[doc.index("Fix:") + len("Fix:") :]).strip()


@rule(
    id="KC100",
    name="partitions-added-keyed",
    severity=Severity.WARNING,
    impact=Impact.DOWNSTREAM,
    subject=CLUSTER_APPS,
)
def partitions_added_keyed(apps: ClusterApps) -> Iterator[Hit]:
    """Adding partitions to a topic moves its keys to other partitions.

    Why: the default partitioner sends a key to ``hash(key) % partitions``; after the increase
    most keys go to a different partition than their earlier records, so per-key order across
    the change is lost and every consumer keeping state by key (Kafka Streams aggregations and
    joins, compacted-topic readers) sees a key's history split across two partitions. Streams
    apps keeping state on the topic lose it (the fleet scan's KS805 partitions-added-stateful);
    with ``--topology`` files the check names them. The snapshot cannot tell whether a topic's
    records are keyed, so every increase of a topic that exists before the plan is reported.

    Example:

        - add-partitions: {topic: orders, partitions: 12}

    Fix: for a keyed topic, do not add partitions in place: blue-green onto a new topic with
    the larger count, as KS805 partitions-added-stateful advises. An unkeyed topic (null keys,
    round-robin or sticky partitioning) can grow safely.
    """
    for t in apps.simulation.transitions:
        step = t.step
        if not isinstance(step, AddPartitions) or t.refused:
            continue
        pids = t.before.table.pids_of_topic.get(step.topic, [])
        if not pids or step.partitions <= len(pids):
            continue
        if step.topic not in apps.simulation.initial.table.pids_of_topic:
            continue  # created by this plan: no keyed history to split yet
        readers = apps.stateful.get(step.topic, ())
        change = f"{step.topic} from {len(pids)} to {step.partitions} partitions"
        if readers:
            who = (
                f" Stateful app(s) {names(readers)} keep state on it: keys move to other "
                "tasks, whose stores know nothing of them, so their state is lost."
            )
            fix = _stateful_fix()
        else:
            known = " (no given topology keeps state on it)" if apps.known else ""
            who = f" If its records are keyed, every keyed consumer is affected{known}."
            fix = (
                f"If {step.topic} is keyed, blue-green onto a new topic with {step.partitions} "
                "partitions (KS805 partitions-added-stateful) instead of adding partitions."
            )
        yield at_step(
            t,
            f"This step takes {change}: the default partitioner maps a key to hash(key) % "
            f"partitions, so most keys go to a different partition from now on.{who}",
            resources=[topic(step.topic), *(Resource(kind="app", name=a) for a in readers)],
            remediation=fix,
            key=step.topic,
            data={
                "topic": step.topic,
                "before": len(pids),
                "partitions": step.partitions,
                "stateful_apps": list(readers),
            },
        )
