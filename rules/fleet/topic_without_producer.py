"""``topic-without-producer``: a topic the fleet reads but no app of the fleet writes."""

from __future__ import annotations

from collections.abc import Iterator

from linter.lineage import FleetGraph
from rules.fleet.subject import FLEET
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KS803",
    name="topic-without-producer",
    severity=Severity.INFO,
    impact=Impact.HYGIENE,
    subject=FLEET,
)
def topic_without_producer(graph: FleetGraph) -> Iterator[Hit]:
    """A topic some apps consume that no app of the fleet produces.

    Why: often fine (the topic is fed by a connector or a plain producer outside the fleet), but it
    is also what a renamed or retired upstream sink looks like: the consumers silently stop
    receiving records. Listing these topics makes the fleet's edges explicit.

    Example: ``payments-fraud`` reads ``payments-v1``; the app that wrote it now writes
    ``payments-v2``.

    Fix: nothing if an outside producer owns the topic; otherwise point the consumers at the topic
    the upstream app writes now.
    """
    for topic in graph.topics():
        readers = graph.consumers(topic)
        if not readers or graph.producers(topic) or graph.owners(topic):
            continue
        yield Hit(
            message=f"topic {topic} is read by {', '.join(a.app_id for a in readers)} but "
            "produced by no app of the fleet",
            resources=(
                Resource(kind="topic", name=topic),
                *(Resource(kind="app", name=a.app_id) for a in readers),
            ),
            remediation="Check that a producer outside the fleet owns this topic.",
            key=f"topic={topic}",
        )
