"""KS103's findings keep the identity the framework gives them (``<topology name>|<node name>``):
the rule takes the key of an unnamed topology's hit from its per-name cache."""

from __future__ import annotations

import hashlib

import pytest

from linter.api import Settings, lint
from linter.topology.model import Description, Node, Processor, Source, Subtopology, Topology


def _expected(key: str) -> str:
    return hashlib.sha256(f"KS103\x00{key}".encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", [None, "", "orders"])
def test_generated_processor_fingerprint(name: str | None) -> None:
    nodes: frozenset[Node] = frozenset(
        {
            Source("orders-source", topics=frozenset({"orders"}),
                   successors=frozenset({"KSTREAM-FILTER-0000000001"})),
            Processor("KSTREAM-FILTER-0000000001", predecessors=frozenset({"orders-source"})),
        }
    )
    topology = Topology((Subtopology(0, nodes),), name=name)
    findings = [f for f in lint(Description((topology,)), Settings()).findings if f.rule == "KS103"]
    assert [f.fingerprint for f in findings] == [
        _expected(f"{name or ''}|KSTREAM-FILTER-0000000001")
    ]
