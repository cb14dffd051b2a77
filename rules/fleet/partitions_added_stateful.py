"""``partitions-added-stateful``: a plan adds partitions to a topic a stateful app reads."""

from __future__ import annotations

from collections.abc import Iterator

from linter.lineage import AppFacts, FleetGraph, PartitionChange
from rules.fleet.subject import FLEET
from rules.framework import DeployStrategy, Hit, Impact, Location, Resource, Severity, rule


@rule(
    id="KS805",
    name="partitions-added-stateful",
    severity=Severity.ERROR,
    impact=Impact.STATE_LOSS,
    subject=FLEET,
)
def partitions_added_stateful(graph: FleetGraph) -> Iterator[Hit]:
    """A cluster change plan adds partitions to a topic that a Streams app keeps state on (or to
    one of its internal topics).

    Why: the default partitioner maps a key to ``hash(key) % partitions``. Adding partitions does
    not move the records already written: new records of a key go to a different partition, hence
    a different task, whose local store and changelog partition know nothing of the key's past:
    aggregates restart, joins miss, and co-partitioned inputs stop being co-partitioned. A reset
    in place does not help: the replay reads the same topic, where the old records stay in their
    old partitions and the new ones follow the new count, so a key is still split across tasks.
    A stateless app (or one that can lose its history) can take more partitions, provided every
    topic grows with it: its input topics and all its internal topics (repartition and changelog),
    sub-topology by sub-topology.

    Example: the plan has ``add-partitions: {topic: orders, partitions: 24}`` while
    ``order-totals`` runs ``groupByKey().count()`` on ``orders`` (12 partitions).

    Fix: for a stateful app, blue-green: leave the topic as it is, create a new input topic with
    the new partition count and copy the original into it (a control topic in front of the app
    makes this and the cutover easier), run the new version under a new ``application.id``
    reading it, and cut over once it has caught up. For a stateless app, increase the input topics
    and every internal topic, sub-topology by sub-topology (each sub-topology's source and
    changelog topics before the next); an instance that fails on a partition-count mismatch
    during the change can be restarted.
    """
    for change in graph.partition_changes:
        where = (
            (Location(path=change.plan, line=change.line, side="plan"),) if change.plan else ()
        )
        count = (
            f"from {change.before} to {change.partitions}"
            if change.before is not None
            else f"to {change.partitions}"
        )
        use = graph.use(change.topic)
        for app in sorted({a.app_id: a for a in use.stateful + use.owners}.values(),
                          key=lambda a: a.app_id):  # fmt: skip
            internal = change.topic in app.internal
            what = f"an internal topic of {app.app_id}" if internal else (
                f"{app.app_id} keeps state on it"
            )
            stateless = internal and _stateless(app)
            effect = (
                "unless its input topics and every other internal topic grow with it, its "
                "sub-topologies no longer line up"
                if stateless
                else "keys move partitions and their state is lost"
            )
            remediation, steps, requires = (
                _stateless_plan(app, change) if stateless else _blue_green(app, change)
            )
            yield Hit(
                message=f"plan step {change.step + 1} adds partitions to {change.topic} ({count}); "
                f"{what}: {effect}",
                resources=(
                    Resource(kind="topic", name=change.topic),
                    Resource(kind="app", name=app.app_id),
                ),
                locations=where,
                remediation=remediation,
                key=f"{change.topic}|{app.app_id}",
                requires=requires,
                steps=steps,
                step=change.step,
                data={"topic": change.topic, "app": app.app_id, "partitions": change.partitions},
            )


def _stateless(app: AppFacts) -> bool:
    """No state kept on any input and no changelog: the app loses nothing when keys move."""
    return not app.stateful_on and not any(t.endswith("-changelog") for t in app.internal)


def _blue_green(
    app: AppFacts, change: PartitionChange
) -> tuple[str, tuple[str, ...], DeployStrategy]:
    n, topic = change.partitions, change.topic
    remediation = (
        f"Do not add partitions to {topic} under {app.app_id}: create a new topic with {n} "
        f"partitions, copy {topic} into it, and run {app.app_id} blue-green on it under a new "
        "application.id (a reset in place replays the same topic and still splits keys across "
        "tasks)."
    )
    steps = (
        f"Leave {topic} at its current partition count; create a new input topic with {n} "
        f"partitions and copy {topic} into it from the beginning, keeping the copy running until "
        "cutover (or put a control topic in front of the app).",
        f"Deploy the new version of {app.app_id} under a new application.id reading the new "
        "topic, with its own internal topics and separate output topics (or a cutover plan for "
        "their consumers); wait until it has caught up.",
        f"Cut over: stop the old {app.app_id} ({app.application_id}) once its repartition topics "
        "are drained, move consumers to the new outputs, then delete the old application's "
        "internal topics.",
    )
    return remediation, steps, DeployStrategy.BLUE_GREEN


def _stateless_plan(
    app: AppFacts, change: PartitionChange
) -> tuple[str, tuple[str, ...], DeployStrategy]:
    internal = ", ".join(sorted(app.internal))
    remediation = (
        f"{app.app_id} keeps no state: grow its input topics and every internal topic to "
        f"{change.partitions} partitions together, sub-topology by sub-topology."
    )
    steps = (
        f"Increase the partitions of {app.app_id}'s input topics and of every internal topic "
        f"({internal}) to {change.partitions}, one sub-topology at a time (its source topics "
        "first); restart an instance that fails on a partition-count mismatch meanwhile.",
    )
    return remediation, steps, DeployStrategy.ROLLING_BOUNCE
