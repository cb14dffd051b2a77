"""The `-->` and `<--` lines of a sub-topology held to each other.

describe() prints each edge at both ends, so a text where they disagree was cut or spliced (two
pastes joined): reading it would make up a graph. :func:`one_sided` finds the first arrow with no
other end, for the Lark path's located error; :func:`agree` only says whether there is one (and
whether every name is declared), with one lookup per edge: the fast path runs it on every block.
"""

from __future__ import annotations

from collections.abc import Sequence

from linter.topology.model import Node

__all__ = ["agree", "one_sided"]


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


def agree(
    afters: dict[str, str], befores: dict[str, frozenset[str]], sets: dict[str, frozenset[str]]
) -> bool:
    """Whether the `-->` lines (``afters``: each node's `-->` list as printed, by name) and the
    `<--` lines (``befores``: each node's `<--` set) of a block print the same edges and name
    only its nodes: :func:`one_sided` finds nothing, and every name is declared (the fast path
    leaves out the edges it has seen at both ends already: the rest agree if all do). ``sets``
    maps each list as printed to its set (``none`` to the empty one). Each `-->` edge has its `<--`
    (a `-->` to a name with no `<--` line, an undeclared one or a Source, fails the lookup),
    and there are as many `<--` edges, so every `<--` edge has its `-->` and names a node too.
    A loop of lookups: this runs on every block the fast path reads. A list of one name (most
    of them) is that name: iterating its set (an iterator made and freed per node) cost more
    than the rest of the check; the lookup comes first, as the name of a node with a `<--`
    line holds no `, ` (the fast path reads no other), which spares most lists that test."""
    edges = 0
    get = befores.get
    try:
        for name, printed in afters.items():
            before = get(printed)  # a node's name (no `, ` in it) with a `<--` line, mostly
            if before is not None and printed != "none":
                if name not in before:
                    return False
                edges += 1
            elif ", " in printed:
                for other in sets[printed]:
                    if name not in befores[other]:
                        return False
                    edges += 1
            elif printed != "none":
                return False  # one name, of no node with a `<--` line
    except KeyError:
        return False
    return edges == sum(map(len, befores.values()))
