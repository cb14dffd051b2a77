"""``internal-topic-collision``: two apps would share repartition or changelog topics."""

from __future__ import annotations

from collections.abc import Iterator

from linter.lineage import FleetGraph
from rules.fleet.subject import FLEET
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KS802",
    name="internal-topic-collision",
    severity=Severity.ERROR,
    impact=Impact.DATA_LOSS,
    subject=FLEET,
)
def internal_topic_collision(graph: FleetGraph) -> Iterator[Hit]:
    """Two apps would use the same internal topic: the same ``application.id``, the same full
    repartition/changelog topic name, or one app writing into another's internal topic.

    Why: internal topics are named ``<application.id>-<name>-repartition`` and
    ``<application.id>-<store>-changelog``. Two deployments with one ``application.id`` are one
    consumer group: they split each other's partitions and write into each other's changelogs,
    so each restores the other's state. The same full name can also arise from different ids
    (``orders`` + ``agg-x`` and ``orders-agg`` + ``x``), and an app that produces to another app's
    changelog or repartition topic corrupts its state directly.

    Example: ``billing-v2`` was copied from ``billing`` and kept ``application.id=billing``; both
    have a store ``totals``, so both write ``billing-totals-changelog``.

    Fix: give every app its own ``application.id`` (changing it is a full reset of that app), and
    never produce to another app's internal topics.
    """
    for application_id, apps in graph.by_application_id():
        if len(apps) > 1:
            names = ", ".join(a.app_id for a in apps)
            yield Hit(
                message=f"{len(apps)} apps share application.id {application_id} ({names}): they "
                "form one consumer group and share every internal topic",
                resources=(
                    Resource(kind="application-id", name=application_id),
                    *(Resource(kind="app", name=a.app_id) for a in apps),
                ),
                remediation="Give each app its own application.id (a new id starts from empty "
                "state: reset or migrate the renamed app).",
                key=f"application.id={application_id}",
                data={"application_id": application_id, "apps": [a.app_id for a in apps]},
            )
    for topic in graph.topics():
        owners = graph.owners(topic)
        writers = [a for a in graph.producers(topic) if topic not in a.internal]
        involved = {a.app_id: a for a in owners + writers}
        ids = {a.application_id for a in involved.values()}
        if not owners or len(involved) < 2 or len(ids) < 2:
            continue  # one app, or one application.id (reported once, above)
        apps = [involved[k] for k in sorted(involved)]
        how = "write to" if writers else "own"
        yield Hit(
            message=f"internal topic {topic} of {', '.join(a.app_id for a in owners)} is also "
            f"used by {', '.join(a.app_id for a in apps if a not in owners)}: the apps {how} "
            "the same repartition/changelog topic",
            resources=(
                Resource(kind="topic", name=topic),
                *(Resource(kind="app", name=a.app_id) for a in apps),
            ),
            remediation="Rename the store or repartition topic (or the application.id) of one "
            "of the apps so their internal topics differ; never produce to an internal topic.",
            key=f"topic={topic}",
            data={"topic": topic, "apps": [a.app_id for a in apps]},
        )
