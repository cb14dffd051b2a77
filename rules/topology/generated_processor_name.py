"""KS103 generated-processor-name."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping

from linter.topology import naming
from linter.topology.model import Node, Sink, Source
from rules.framework import Hit, Impact, Location, Resource, Severity, rule
from rules.topology.context import LintSubject, node


@rule(
    id="KS103",
    name="generated-processor-name",
    severity=Severity.INFO,
    impact=Impact.HYGIENE,
    subject="topology",
)
def generated_processor_name(subject: LintSubject) -> Iterator[Hit]:
    """An operator has a generated name (``KSTREAM-FILTER-0000000003``).

    Why: a stateless operator's name does not name any topic or store, so an index shift is
    harmless by itself. But generated names make two versions hard to compare, metrics and logs
    change names between releases, and the operator usually sits next to stateful ones that are
    unnamed too. Naming every operator is the cheapest insurance for future upgrades.
    (Repartition plumbing around a generated repartition topic is reported by KS102 instead.)

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: orders-source (topics: [orders])
                  --> KSTREAM-FILTER-0000000001
                Processor: KSTREAM-FILTER-0000000001 (stores: [])
                  --> none
                  <-- orders-source

        After:
            Topologies:
               Sub-topology: 0
                Source: orders-source (topics: [orders])
                  --> drop-test-orders
                Processor: drop-test-orders (stores: [])
                  --> none
                  <-- orders-source

    Fix: pass a name to the operator: ``Named.as("...")`` for most operators, ``Consumed.as`` for
    sources, ``Produced.as`` for sinks, ``Branched.as`` for branches, ``Grouped.as`` for the key
    selector of ``groupBy``. Adding names to stateless operators is safe on a running app.
    """
    desc = subject.description
    for topology in desc.topologies:
        by_name = {n.name: n for sub in topology.subtopologies for n in sub.nodes}
        for sub in topology.subtopologies:
            for n in sorted(sub.nodes, key=lambda x: x.name):
                about = _about(n.name)
                if about is None or _plumbing(n, by_name):
                    continue
                message, resource, remediation = about
                yield Hit(
                    message=message,
                    resources=(resource,),
                    locations=(Location(path=desc.path, line=n.position.line or None),),
                    remediation=remediation,
                    key=f"{topology.name or ''}|{n.name}",
                )


@functools.lru_cache(maxsize=1 << 14)
def _about(name: str) -> tuple[str, Resource, str] | None:
    """The message, resource and remediation of a hit on a generated name, which depend on the
    name alone (None for a chosen name). Made once per name: names such as
    ``KSTREAM-FILTER-0000000003`` recur in every app of a fleet, and a Resource is frozen."""
    gen = naming.generated(name)
    if gen is None:
        return None
    op = gen.operator
    what = op.operator if op else "operator"
    return f"{what} {name} has a generated name.", node(name), f"Name it: {gen.fix}."


def _plumbing(n: Node, by_name: Mapping[str, Node]) -> bool:
    """Sink/source/filter of a generated repartition topic (reported by KS102)."""
    if isinstance(n, Sink):
        return n.topic is not None and naming.generated_topic(n.topic) is not None
    if isinstance(n, Source):
        return any(naming.generated_topic(t) is not None for t in n.topics)
    succ = n.successors
    return bool(succ) and naming.role_of(n.name) == "KSTREAM-FILTER-" and all(
        isinstance(by_name.get(s), Sink) and _plumbing(by_name[s], by_name) for s in succ
    )
