"""``partitions-added-stateful``: a plan adds partitions to a topic a stateful app reads."""

from __future__ import annotations

from collections.abc import Iterator

from rules.fleet.graph import FleetGraph
from rules.framework import DeployStrategy, Hit, Impact, Location, Resource, Severity, rule


@rule(
    id="KS805",
    name="partitions-added-stateful",
    severity=Severity.ERROR,
    impact=Impact.STATE_LOSS,
    subject="fleet",
)
def partitions_added_stateful(graph: FleetGraph) -> Iterator[Hit]:
    """A cluster change plan adds partitions to a topic that a Streams app keeps state on (or to
    one of its internal topics).

    Why: the default partitioner maps a key to ``hash(key) % partitions``. With more partitions
    most keys land on a different partition, hence a different task, whose local store and
    changelog partition know nothing of them: aggregates restart, joins miss, and co-partitioned
    inputs stop being co-partitioned (Streams refuses to start when the partition counts of joined
    topics differ). Internal topics must keep the partition count Streams created them with.

    Example: the plan has ``add-partitions: {topic: orders, partitions: 24}`` while
    ``order-totals`` runs ``groupByKey().count()`` on ``orders`` (12 partitions).

    Fix: create a new topic with the new partition count and migrate producers and the app to it
    (reset the app, or rebuild its state from a replay); never add partitions in place under a
    stateful consumer.
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
            yield Hit(
                message=f"plan step {change.step + 1} adds partitions to {change.topic} ({count}); "
                f"{what}: keys move partitions and their state is lost",
                resources=(
                    Resource(kind="topic", name=change.topic),
                    Resource(kind="app", name=app.app_id),
                ),
                locations=where,
                remediation=f"Do not add partitions to {change.topic}: create a new topic with "
                f"{change.partitions} partitions and migrate {app.app_id} to it with a reset.",
                key=f"{change.topic}|{app.app_id}",
                requires=DeployStrategy.RESET,
                steps=(
                    f"Stop {app.app_id} and reset it (kafka-streams-application-reset "
                    f"--application-id {app.application_id}) after {change.topic} changes",
                ),
                step=change.step,
                data={"topic": change.topic, "app": app.app_id, "partitions": change.partitions},
            )
