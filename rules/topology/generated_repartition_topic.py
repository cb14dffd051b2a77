# ruff: noqa: E501  (the docstring example is real describe() output)
"""KS102 generated-repartition-topic."""

from __future__ import annotations

from collections.abc import Iterator

from linter.topology import naming
from rules.framework import Hit, Impact, Severity, location, rule
from rules.topology.context import TOPOLOGY, LintSubject, node, repartition, topic


@rule(
    id="KS102",
    name="generated-repartition-topic",
    severity=Severity.WARNING,
    impact=Impact.HYGIENE,
    subject=TOPOLOGY,
)
def generated_repartition_topic(subject: LintSubject) -> Iterator[Hit]:
    """A repartition topic has a generated name, so it changes when an operator is added.

    Why: an unnamed grouping or join repartitions through ``<generated name>-repartition`` (the
    store name or the upstream node name, both with an index). When the index shifts, the new
    version writes to and reads from a new topic; records still in the old one are never read.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: KSTREAM-SOURCE-0000000000 (topics: [orders])
                  --> KSTREAM-KEY-SELECT-0000000001
                Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])
                  --> KSTREAM-SINK-0000000003
                  <-- KSTREAM-SOURCE-0000000000
                Sink: KSTREAM-SINK-0000000003 (topic: KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition)
                  <-- KSTREAM-KEY-SELECT-0000000001

        After:
            Topologies:
               Sub-topology: 0
                Source: KSTREAM-SOURCE-0000000000 (topics: [orders])
                  --> KSTREAM-KEY-SELECT-0000000001
                Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])
                  --> by-customer-repartition-sink
                  <-- KSTREAM-SOURCE-0000000000
                Sink: by-customer-repartition-sink (topic: by-customer-repartition)
                  <-- KSTREAM-KEY-SELECT-0000000001

    Fix: name the topic: ``groupBy(..., Grouped.as("by-customer"))``, ``repartition(
    Repartitioned.as("..."))``, ``StreamJoined.withName("...")`` / ``Joined.as("...")`` for
    joins, ``TableJoined.as("...")`` for foreign-key joins. On a running app, drain the old topic
    before the renaming deploy (see KS205).
    """
    for walked in subject.topologies:
        topology = walked.topology
        for t, (sink, line) in sorted(walked.sinks.items()):
            gen = naming.generated_topic(t)
            if gen is None:
                continue
            full = naming.internal_topic(subject.application_id, t, topology.name)
            yield Hit(
                message=(
                    f"Repartition topic {t} ({full}) has a generated name; adding an operator "
                    "upstream renames it and strands the records in flight."
                ),
                resources=(
                    repartition(subject.application_id, t, topology.name),
                    topic(t),
                    node(sink),
                ),
                locations=(location(subject.description.path, line or None),),
                remediation=_remediation(t, gen, walked.persistent),
                key=f"{topology.name or ''}|{t}",
            )


_REPARTITION = "KSTREAM-REPARTITION-"


def _remediation(
    t: str, gen: naming.GeneratedName, persistent: tuple[tuple[int, str], ...]
) -> str:
    """Naming the topic renames it; naming ``repartition()`` also stops it consuming an index,
    so every later generated store and internal topic is renamed as well."""
    fix = (
        f"Name it: {naming.repartition_fix(t)}. On a running app that renames the topic: drain "
        "it in the same deploy (see repartition-topic-removed)"
    )
    if gen.prefix != _REPARTITION:
        return f"{fix}."
    later = [p for i, p in persistent if i > gen.index and p != t]
    if not later:
        return f"{fix}."
    shown = ", ".join(later[:5]) + (f" and {len(later) - 5} more" if len(later) > 5 else "")
    return (
        f"{fix}; a named repartition() also stops consuming an index, so {shown} would be "
        "renamed too: on a running app name it only together with an application reset."
    )
