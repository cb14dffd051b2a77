"""The topology section of a very large HTML report: sub-topology summaries, expanded on demand.

Drawn in full, a 50,000-node diff is a 130 MB page no browser opens comfortably. Above
:data:`FOLD_OVER` elements (both sides together) the report draws no diagram: each side lists
its sub-topologies as one summary row each (nodes, stores, diff status, findings), and a row
opens (``<details>``, no script) to the elements in it with their diff marks. Sub-topologies
with a change or a finding come first and are the only ones open at first. Past
:data:`LISTED` elements, further sub-topologies keep their summary only, which says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from linter.report.marks import marks_for
from linter.report.scene import Mark, Marks
from linter.topology.diff import TopologyDiff
from linter.topology.model import Description, Sink, Source, Subtopology

FOLD_OVER = 5_000
"""Nodes of the described topologies (both sides of a diff together) above which the report
folds: the drawn diagram's size grows with them, about 1.3 kB a node."""

LISTED = 10_000
"""Elements listed in all (about 200 bytes each): past it, sub-topologies are summarised only
and the page says so (the JSON report has everything)."""

_STATUSES = ("added", "removed", "renamed", "moved", "changed")


def node_count(*descriptions: Description | None) -> int:
    return sum(sum(1 for _ in d.nodes()) for d in descriptions if d is not None)


def folded_sides(
    before: Description | None,
    after: Description | None,
    diff: TopologyDiff | None,
    resources: Iterable[tuple[str, str, str, str]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``(sides, changes)``: each side's sub-topology summaries, and the change counts table
    (removed elements counted on the before side, the rest on the after side)."""
    hits: dict[str, set[str]] = {}
    for _, name, rule, _ in resources:
        hits.setdefault(name, set()).add(rule)
    if before is not None and after is not None:
        marks_before, marks_after = marks_for(before, after, diff)
        sides = [("before", before, marks_before), ("after", after, marks_after)]
    else:
        single = after if after is not None else before
        sides = [("topology", single, Marks())] if single is not None else []
    folded: list[dict[str, Any]] = [
        {"side": side, "subtopologies": _subtopologies(d, marks, hits)} for side, d, marks in sides
    ]
    budget = LISTED
    for side in folded:
        for row in side["subtopologies"]:
            if len(row["elements"]) > budget:
                row["unlisted"], row["elements"] = len(row["elements"]), []
                budget = 0
            else:
                budget -= len(row["elements"])
    changes = _changes(sides[0][2], sides[1][2]) if len(sides) == 2 else []
    return folded, changes


def _subtopologies(
    description: Description, marks: Marks, hits: dict[str, set[str]]
) -> list[dict[str, Any]]:
    rows = []
    for t_index, topology in enumerate(description.topologies):
        for sub in sorted(topology.subtopologies, key=lambda s: s.id):
            rows.append(_row(t_index, topology.name, sub, marks, hits))
    # what needs reading first: changed or flagged sub-topologies, then the rest in order
    rows.sort(key=lambda r: (not r["open"], r["order"]))
    return rows


def _row(
    t_index: int, topology: str | None, sub: Subtopology, marks: Marks, hits: dict[str, set[str]]
) -> dict[str, Any]:
    head = f"Sub-topology {sub.id}" + (" (global store)" if sub.is_global else "")
    if topology is not None:
        head = f"{topology} / {head}"
    elements: list[dict[str, str]] = []
    rules: set[str] = set()
    stores: set[str] = set()
    for node in sorted(sub.nodes, key=lambda n: n.name):
        mark = marks.nodes.get(node.name)
        rules |= hits.get(node.name, set())
        elements.append({"kind": node.kind, "name": node.name,
                         "status": mark.status if mark else "",
                         "other": (mark.other or "") if mark else ""})  # fmt: skip
        stores |= node.stores
    for store in sorted(stores):
        mark = marks.stores.get(store)
        rules |= hits.get(store, set())
        elements.append({"kind": "store", "name": store, "status": mark.status if mark else "",
                         "other": (mark.other or "") if mark else ""})  # fmt: skip
    topics = sorted({t for n in sub.nodes if isinstance(n, Source) for t in n.topics}
                    | {n.topic for n in sub.nodes if isinstance(n, Sink) and n.topic})
    for topic in topics:
        mark = marks.topics.get(topic)
        rules |= hits.get(topic, set())
        elements.append({"kind": "topic", "name": topic, "status": mark.status if mark else "",
                         "other": (mark.other or "") if mark else ""})  # fmt: skip
    box = marks.subtopologies.get(sub.id)
    changed = Counter(e["status"] for e in elements if e["status"])
    status = box.status if box else ("changed" if changed else "")
    return {
        "label": head, "order": (t_index, sub.id), "nodes": len(sub.nodes),
        "stores": len(stores), "topics": len(topics), "status": status,
        "changed": [[s, changed[s]] for s in _STATUSES if changed[s]],
        "rules": sorted(rules), "open": bool(status or rules), "elements": elements,
        "unlisted": 0,
    }  # fmt: skip


def _changes(before: Marks, after: Marks) -> list[dict[str, Any]]:
    rows = []
    for label, field in (("nodes", "nodes"), ("stores", "stores"), ("topics", "topics"),
                         ("sub-topologies", "subtopologies")):  # fmt: skip
        counts = dict.fromkeys(_STATUSES, 0)
        for side, marks in (("before", before), ("after", after)):
            found: Mapping[Any, Mark] = getattr(marks, field)
            for mark in found.values():
                if (mark.status == "removed") == (side == "before"):
                    counts[mark.status] += 1
        rows.append({"label": label, "counts": [counts[s] for s in _STATUSES]})
    return rows


SHOWN = 300
"""In a folded report, the findings shown per impact group, checklist items per kind and plan
steps; each list that is cut says how many it leaves out."""
REFS = 20  # the findings a runbook step links to


def fold_lists(context: dict[str, Any]) -> None:
    """Cut the long lists of a folded report's context (in place), recording what was cut: the
    verdict, the counts and the other formats keep every finding."""
    plan = context.get("plan")
    if plan is not None:
        plan["more_steps"] = max(0, len(plan["steps"]) - SHOWN)
        plan["steps"] = plan["steps"][:SHOWN]
        for step in plan["steps"]:
            step["more"] = max(0, len(step["from"]) - REFS)
            step["from"] = step["from"][:REFS]
    for item in context["checklist"]:
        item["more"] = max(0, len(item["items"]) - SHOWN)
        item["items"] = item["items"][:SHOWN]
    for group in context["groups"]:
        group["total"] = len(group["findings"])
        group["findings"] = group["findings"][:SHOWN]
