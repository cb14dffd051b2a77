"""The `-->` and `<--` lines of a sub-topology held to each other.

describe() prints each edge at both ends, so a text where they disagree was cut or spliced (two
pastes joined): reading it would make up a graph. :func:`one_sided` finds the first arrow with no
other end, for the Lark path's located error (the fast path checks the arrows as it reads them,
and leaves a text where they disagree to the Lark path).
"""

from __future__ import annotations

from collections.abc import Sequence

from linter.topology.model import Node

__all__ = ["one_sided"]


def one_sided(nodes: Sequence[Node]) -> tuple[Node, str, str] | None:
    """The first node whose `-->` or `<--` list names a node of its block that does not list it
    back, as ``(node, arrow, name)``; None when every arrow has its other end. describe() prints
    each edge at both ends, so a text where they disagree was cut or spliced (two pastes
    joined): reading it would make up a graph. Names no node declares are not looked at."""
    get = {node.name: node for node in nodes}.get
    forward = backward = 0
    for node in nodes:
        kind = node.kind
        if kind != "sink":
            for other in node.successors:
                target = get(other)
                if target is None:
                    continue
                if target.kind == "source" or node.name not in target.predecessors:
                    return node, "-->", other
                forward += 1
        if kind != "source":
            backward += len(node.predecessors)
    if forward == backward:  # every `-->` has its `<--`, and there are no more `<--`
        return None
    for node in nodes:
        for other in node.predecessors:
            origin = get(other)
            if origin is not None and node.name not in origin.successors:
                return node, "<--", other
    return None  # the extra `<--` names are undeclared ones (a lenient read)

