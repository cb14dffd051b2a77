"""``topic-without-consumer``: a topic the fleet writes but no app of the fleet reads."""

from __future__ import annotations

from collections.abc import Iterator

from linter.lineage import FleetGraph
from rules.fleet.subject import FLEET
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KS804",
    name="topic-without-consumer",
    severity=Severity.INFO,
    impact=Impact.HYGIENE,
    subject=FLEET,
)
def topic_without_consumer(graph: FleetGraph) -> Iterator[Hit]:
    """A topic some apps produce that no app of the fleet consumes.

    Why: often fine (a sink connector or a service outside the fleet reads it), but it is also
    what a downstream app looks like after it was moved to a renamed topic, leaving the old one
    written to and paid for.

    Example: ``orders-enricher`` writes ``orders-enriched`` and ``orders-enriched-v2``; only the
    latter has readers.

    Fix: nothing if an outside consumer reads the topic; otherwise stop producing it and delete it.
    """
    for topic in graph.topics():
        writers = [a for a in graph.producers(topic) if topic not in a.internal]
        if not writers or graph.consumers(topic) or graph.owners(topic):
            continue
        yield Hit(
            message=f"topic {topic} is produced by {', '.join(a.app_id for a in writers)} but "
            "read by no app of the fleet",
            resources=(
                Resource(kind="topic", name=topic),
                *(Resource(kind="app", name=a.app_id) for a in writers),
            ),
            remediation="Check that a consumer outside the fleet reads this topic.",
            key=f"topic={topic}",
        )
