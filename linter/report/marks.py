"""Diff marks for the two diagrams of an upgrade: what each drawn element became on the other side.

With a :class:`~linter.topology.diff.TopologyDiff` the marks come from its matching (renames and
moves included). Without one they fall back to comparing names, which sees only added, removed
and moved elements.
"""

from __future__ import annotations

from typing import Any

from linter.report.scene import Mark, Marks
from linter.topology.diff import Change, Matching, Pair, SubtopologyInfo, TopologyDiff
from linter.topology.model import Description, Source


def marks_for(
    before: Description, after: Description, diff: TopologyDiff | None
) -> tuple[Marks, Marks]:
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


def marks_from_diff(diff: TopologyDiff) -> tuple[Marks, Marks]:
    """Marks from the diff's matching: its pairs (with what changed), added and removed."""
    before: dict[str, dict[Any, Mark]] = {"n": {}, "s": {}, "t": {}, "b": {}}
    after: dict[str, dict[Any, Mark]] = {"n": {}, "s": {}, "t": {}, "b": {}}
    parts: tuple[tuple[str, Matching[Any]], ...] = (
        ("n", diff.nodes), ("s", diff.stores), ("t", diff.topics), ("b", diff.subtopologies),
    )
    for key, matching in parts:
        for item in matching.removed:
            before[key][_name(item)] = Mark("removed")
        for item in matching.added:
            after[key][_name(item)] = Mark("added")
        for pair in matching.pairs:
            old, new = _name(pair.before), _name(pair.after)
            status, note = _change(pair, old, new)
            if status:
                before[key][old] = Mark(status, other=str(new) if old != new else None, note=note)
                after[key][new] = Mark(status, other=str(old) if old != new else None, note=note)
    return (
        Marks(before["n"], before["s"], before["t"], before["b"]),
        Marks(after["n"], after["s"], after["t"], after["b"]),
    )


def _name(item: Any) -> Any:
    if isinstance(item, SubtopologyInfo):
        return item.id
    return item.name


def _change(pair: Pair[Any], old: Any, new: Any) -> tuple[str, str]:
    """(status, note) of a matched pair: renamed, moved, changed, or "" when nothing differs."""
    changes = set(pair.changes)
    sub_before = getattr(pair.before, "subtopology", None)
    sub_after = getattr(pair.after, "subtopology", None)
    notes = []
    if Change.SUBTOPOLOGY in changes and sub_before != sub_after:
        notes.append(f"sub-topology {sub_before} \u2192 {sub_after}")
    notes.extend(sorted(changes - {Change.RENAMED, Change.SUBTOPOLOGY}))
    note = "; ".join(notes)
    if old != new or Change.RENAMED in changes:
        return ("moved" if isinstance(old, int) else "renamed"), note
    if Change.SUBTOPOLOGY in changes:
        return "moved", note
    if changes:
        return "changed", note
    return "", ""
