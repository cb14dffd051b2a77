"""What the lint rules read of a topology (context.walk): an internal topic a source reads is one
of its persistent generated names even when no sink of the topology writes it."""

from __future__ import annotations

from linter.api import Settings, lint
from linter.topology.model import Description, Node, Processor, Source, Subtopology, Topology
from rules.topology.context import walk

READ_ONLY = "KSTREAM-AGGREGATE-STATE-STORE-0000000009-repartition"


def _topology() -> Topology:
    nodes: frozenset[Node] = frozenset(
        {
            Source("in", topics=frozenset({READ_ONLY, "orders"}),
                   successors=frozenset({"KSTREAM-PROCESSOR-0000000001"})),
            Processor("KSTREAM-PROCESSOR-0000000001", predecessors=frozenset({"in"})),
        }
    )
    return Topology((Subtopology(0, nodes),))


def test_a_topic_only_read_is_persistent() -> None:
    assert walk(_topology()).persistent == ((9, READ_ONLY),)


def test_naming_an_unburned_operator_before_it_is_unsafe() -> None:
    findings = [
        f for f in lint(Description((_topology(),)), Settings()).findings if f.rule == "KS103"
    ]
    assert [f.resources[0].name for f in findings] == ["KSTREAM-PROCESSOR-0000000001"]
    assert f"{READ_ONLY} would be renamed" in findings[0].message
