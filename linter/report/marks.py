"""Diff marks for the two diagrams of an upgrade: what each drawn element became on the other side.

With a :class:`~linter.topology.diff.TopologyDiff` the marks come from its matching (renames and
moves included). Without one they fall back to comparing names, which sees only added, removed
and moved elements.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from linter.report.diagram import Mark, Marks
from linter.topology.model import Description, Source


def marks_for(before: Description, after: Description, diff: object | None) -> tuple[Marks, Marks]:
    if diff is not None:
        return marks_from_diff(diff)
    return marks_by_name(before, after)


def _homes(desc: Description) -> tuple[dict[str, int], dict[str, int], set[str]]:
    nodes: dict[str, int] = {}
    stores: dict[str, int] = {}
    topics: set[str] = set()
    for _, sub, node in desc.nodes():
        nodes.setdefault(node.name, sub.id)
        for s in node.stores:
            stores.setdefault(s, sub.id)
        if isinstance(node, Source):
            topics |= node.topics
    for topology in desc.topologies:
        for sub in topology.subtopologies:
            topics |= sub.sink_topics
    return nodes, stores, topics


def marks_by_name(before: Description, after: Description) -> tuple[Marks, Marks]:
    b_nodes, b_stores, b_topics = _homes(before)
    a_nodes, a_stores, a_topics = _homes(after)

    def side(mine: dict[str, int], theirs: dict[str, int], gone: str) -> dict[str, Mark]:
        out: dict[str, Mark] = {}
        for name, sub in sorted(mine.items()):
            if name not in theirs:
                out[name] = Mark(gone)
            elif theirs[name] != sub:
                a, b = (sub, theirs[name]) if gone == "removed" else (theirs[name], sub)
                out[name] = Mark("moved", note=f"sub-topology {a} \u2192 {b}")
        return out

    def topic_side(mine: set[str], theirs: set[str], gone: str) -> dict[str, Mark]:
        return {t: Mark(gone) for t in sorted(mine - theirs)}

    return (
        Marks(nodes=side(b_nodes, a_nodes, "removed"), stores=side(b_stores, a_stores, "removed"),
              topics=topic_side(b_topics, a_topics, "removed")),
        Marks(nodes=side(a_nodes, b_nodes, "added"), stores=side(a_stores, b_stores, "added"),
              topics=topic_side(a_topics, b_topics, "added")),
    )


def marks_from_diff(diff: Any) -> tuple[Marks, Marks]:
    """Marks from a topology diff (matched pairs with what changed, added, removed)."""
    before: dict[str, dict[Any, Mark]] = {"nodes": {}, "stores": {}, "topics": {}, "subs": {}}
    after: dict[str, dict[Any, Mark]] = {"nodes": {}, "stores": {}, "topics": {}, "subs": {}}
    for key, attr in (("nodes", "nodes"), ("stores", "stores"), ("topics", "topics"),
                      ("subs", "subtopologies")):
        part = getattr(diff, attr, None)
        if part is None:
            continue
        for item in _items(part, "removed"):
            before[key][_name(item)] = Mark("removed")
        for item in _items(part, "added"):
            after[key][_name(item)] = Mark("added")
        for pair in _items(part, "matched"):
            old, new = _name(_pick(pair, "before", 0)), _name(_pick(pair, "after", 1))
            status, note = _change(pair, old, new)
            if status:
                before[key][old] = Mark(status, other=new if old != new else None, note=note)
                after[key][new] = Mark(status, other=old if old != new else None, note=note)
    return (
        Marks(before["nodes"], before["stores"], before["topics"], before["subs"]),
        Marks(after["nodes"], after["stores"], after["topics"], after["subs"]),
    )


def _items(part: Any, name: str) -> Iterable[Any]:
    value = getattr(part, name, None)
    if value is None and isinstance(part, dict):
        value = part.get(name)
    return sorted(value or (), key=repr)


def _pick(pair: Any, attr: str, index: int) -> Any:
    if hasattr(pair, attr):
        return getattr(pair, attr)
    return pair[index]


def _name(item: Any) -> Any:
    for attr in ("name", "id"):
        if hasattr(item, attr):
            return getattr(item, attr)
    return item


def _change(pair: Any, old: Any, new: Any) -> tuple[str, str]:
    """(status, note) of a matched pair: renamed, moved, changed, or "" when the same."""
    moved = bool(getattr(pair, "moved", False))
    changes = getattr(pair, "changes", None) or getattr(pair, "changed", None) or ()
    if isinstance(changes, bool):
        changes = ("changed",) if changes else ()
    note = ", ".join(sorted(str(c) for c in changes))
    if old != new:
        return "renamed", note
    if moved:
        return "moved", note
    if changes:
        return "changed", note
    return "", ""
