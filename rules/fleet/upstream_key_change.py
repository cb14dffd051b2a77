"""``upstream-key-change``: an app's upgrade changes the key of a topic a stateful app reads."""

from __future__ import annotations

from collections.abc import Iterator

from linter.lineage import FleetGraph
from rules.fleet.subject import FLEET
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KS801",
    name="upstream-key-change",
    severity=Severity.ERROR,
    impact=Impact.DOWNSTREAM,
    subject=FLEET,
)
def upstream_key_change(graph: FleetGraph) -> Iterator[Hit]:
    """An upstream app's upgrade changes the key of (or drops) a topic that a downstream app
    aggregates, joins or otherwise keeps state on.

    Why: a stateful Streams app assumes that every record of a key arrives on the same partition of
    its input topic, so the key's state lives in one task. When the producing app starts keying
    that topic differently (a new ``selectKey``/``map``/``groupBy`` in front of its sink, found as
    ``key-change-before-stateful`` or ``sink-topic-changed`` on the upstream app), the downstream
    app's existing state is keyed the old way: lookups miss, aggregates restart from zero, joins
    stop matching. Neither app's own diff can see this; only the fleet's topic graph does.

    Example: ``orders-enricher`` v1 writes ``orders-by-id`` keyed by order id; v2 inserts
    ``selectKey`` (customer id) before the same sink. ``customer-totals`` reads ``orders-by-id``
    into ``groupByKey().count()``. Upgrading the enricher silently corrupts the totals.

    Fix: write the re-keyed stream to a new topic and migrate the downstream app to it (blue-green),
    or upgrade the downstream app to repartition by the new key and reset its state at the same
    time; never change the key of a topic in place.
    """
    for topic in graph.topics():
        changed = graph.key_changers(topic)
        readers = graph.stateful_readers(topic)
        for up in changed:
            for down in readers:
                if down.app_id == up.app_id:
                    continue
                upgrade = f" ({up.upgrade})" if up.upgrade else ""
                yield Hit(
                    message=f"{up.app_id}{upgrade} changes the key of topic {topic}, which "
                    f"{down.app_id} keeps state on: its state under the old keys is lost",
                    resources=(
                        Resource(kind="app", name=up.app_id),
                        Resource(kind="topic", name=topic),
                        Resource(kind="app", name=down.app_id),
                    ),
                    remediation=f"Keep the key of {topic} unchanged: write the re-keyed records "
                    f"to a new topic and move {down.app_id} to it, or reset {down.app_id} "
                    "together with the upstream upgrade.",
                    key=f"{up.app_id}|{topic}|{down.app_id}",
                    data={"upstream": up.app_id, "topic": topic, "downstream": down.app_id},
                )
