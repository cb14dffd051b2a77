"""The model back to text: canonical describe() text, and a deterministic JSON-ready dict.

``render`` prints what ``TopologyDescription#toString()`` would print for the model (AK 2.1+
layout, whatever layout was parsed), with every set sorted, so two equal models render to the
same text and ``parse(render(m)) == m``. Nodes come in Kafka's own order (larger downstream
sub-graph first, then by name), which is deterministic for a given graph.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from linter.topology.model import (
    Description,
    Node,
    Position,
    Processor,
    Source,
    Subtopology,
    Topology,
)

__all__ = ["render", "to_jsonable"]

_GLOBAL = " for global store (will not generate tasks)"


def render(description: Description) -> str:
    """Canonical describe() text of every topology, concatenated as Kafka concatenates them."""
    return "".join(_topology(topology) for topology in description.topologies)


def _topology(topology: Topology) -> str:
    header = "Topologies:\n " if topology.name is None else f"Topology: {topology.name}:\n "
    return header + "".join("  " + _block(sub) for sub in topology.subtopologies)


def _block(sub: Subtopology) -> str:
    nodes = "".join(f"    {_node(node)}\n" for node in _kafka_order(sub.nodes))
    if sub.is_global:
        return f"Sub-topology: {sub.id}{_GLOBAL}\n{nodes}"
    return f"Sub-topology: {sub.id}\n{nodes}\n"


def _names(names: Iterable[str]) -> str:
    return ", ".join(sorted(names)) or "none"


def _node(node: Node) -> str:
    if isinstance(node, Source):
        topics = node.pattern if node.pattern is not None else f"[{', '.join(sorted(node.topics))}]"
        return f"Source: {node.name} (topics: {topics})\n      --> {_names(node.successors)}"
    if isinstance(node, Processor):
        return (
            f"Processor: {node.name} (stores: [{', '.join(sorted(node.stores))}])\n"
            f"      --> {_names(node.successors)}\n      <-- {_names(node.predecessors)}"
        )
    if node.extractor is not None:
        payload = f"extractor class: {node.extractor}"
    else:
        payload = f"topic: {'null' if node.topic is None else node.topic}"
    return f"Sink: {node.name} ({payload})\n      <-- {_names(node.predecessors)}"


def _kafka_order(nodes: frozenset[Node]) -> list[Node]:
    """Kafka's ``NodeComparator``: size (1 + sizes of successors, summed over all paths)
    descending, then name. Iterative, so long chains do not hit the recursion limit."""
    by_name = {node.name: node for node in nodes}
    size: dict[str, int] = {}
    for root in sorted(by_name):
        stack: list[tuple[str, bool]] = [(root, False)]
        on_stack: set[str] = set()
        while stack:
            name, done = stack.pop()
            if name in size:
                continue
            if done:
                on_stack.discard(name)
                children = (s for s in by_name[name].successors if s in by_name)
                size[name] = 1 + sum(size.get(child, 0) for child in children)
                continue
            on_stack.add(name)
            stack.append((name, True))
            for child in sorted(by_name[name].successors):
                # a cycle cannot come from Kafka; count its back edge as 0 instead of looping
                if child in by_name and child not in size and child not in on_stack:
                    stack.append((child, False))
    return sorted(nodes, key=lambda node: (-size[node.name], node.name))


def to_jsonable(description: Description) -> dict[str, Any]:
    """The model as plain JSON data: sets sorted, nodes sorted by name, positions included."""
    return {
        "path": description.path,
        "topologies": [_jsonable_topology(topology) for topology in description.topologies],
    }


def _jsonable_topology(topology: Topology) -> dict[str, Any]:
    return {
        "name": topology.name,
        "layout": topology.layout,
        "position": _position(topology.position),
        "subtopologies": [
            {
                "id": sub.id,
                "is_global": sub.is_global,
                "position": _position(sub.position),
                "nodes": [_jsonable_node(n) for n in sorted(sub.nodes, key=lambda n: n.name)],
            }
            for sub in topology.subtopologies
        ],
    }


def _jsonable_node(node: Node) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for field in dataclasses.fields(node):
        value = getattr(node, field.name)
        if isinstance(value, frozenset):
            value = sorted(value)
        elif isinstance(value, Position):
            value = _position(value)
        data[field.name] = value
    return data


def _position(position: Position) -> dict[str, int]:
    return {"line": position.line, "column": position.column}
