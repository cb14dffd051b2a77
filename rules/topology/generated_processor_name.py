"""KS103 generated-processor-name."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from linter.topology import naming
from linter.topology.model import Node, Sink, Source
from rules.framework import Hit, Impact, Location, Severity, rule
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
                gen = naming.generated(n.name)
                if gen is None or _plumbing(n, by_name):
                    continue
                op = gen.operator
                what = op.operator if op else "operator"
                yield Hit(
                    message=f"{what} {n.name} has a generated name.",
                    resources=(node(n.name),),
                    locations=(Location(path=desc.path, line=n.position.line or None),),
                    remediation=f"Name it: {gen.fix}.",
                    key=f"{topology.name or ''}|{n.name}",
                )


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
