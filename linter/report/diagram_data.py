"""The topology diagrams of the HTML report: each side laid out and marked, what the diff marked
counted per kind of element, and the data of the page's details panel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from linter.report.diagram import build_diagram
from linter.report.marks import marks_for
from linter.report.scene import Diagram, Marks
from linter.topology.diff import TopologyDiff
from linter.topology.model import Description


def drawn(
    before: Description | None,
    after: Description | None,
    diff: TopologyDiff | None,
    application_id: str | None,
    resources: list[tuple[str, str, str, str]],
) -> list[Diagram]:
    """The diagrams of a report: the before and after sides marked with the diff, or the one
    topology there is."""
    if before is not None and after is not None:
        marks_before, marks_after = marks_for(before, after, diff)
        return [
            build_diagram(before, side="before", marks=marks_before,
                          application_id=application_id, finding_resources=resources),
            build_diagram(after, side="after", marks=marks_after,
                          application_id=application_id, finding_resources=resources),
        ]
    single = after if after is not None else before
    if single is None:
        return []
    return [build_diagram(single, side="topology", marks=Marks(), application_id=application_id,
                          finding_resources=resources)]


_STATUSES = ("added", "removed", "renamed", "moved", "changed")


def changes_of(diagrams: Sequence[Diagram]) -> list[dict[str, Any]]:
    """What the diff marked, counted per kind of element: removed ones on the before side,
    the rest on the after side."""
    if len(diagrams) != 2:
        return []
    before, after = diagrams
    rows = []
    for label, kinds in (("nodes", ("source", "processor", "sink")), ("stores", ("store",)),
                         ("topics", ("topic",))):
        counts = dict.fromkeys(_STATUSES, 0)
        for side in (before, after):
            for n in side.nodes:
                if n.kind in kinds and n.status and (n.status == "removed") == (side is before):
                    counts[n.status] += 1
        rows.append({"label": label, "counts": [counts[s] for s in _STATUSES]})
    boxes = dict.fromkeys(_STATUSES, 0)
    for side in (before, after):
        for b in side.boxes:
            if b.status and (b.status == "removed") == (side is before):
                boxes[b.status] += 1
    rows.append({"label": "sub-topologies", "counts": [boxes[s] for s in _STATUSES]})
    return rows


def node_data(d: Diagram) -> dict[str, Any]:
    """What the page's script shows in the details panel, keyed by element id."""
    data: dict[str, Any] = {}
    for n in d.nodes:
        data[n.id] = {"name": n.name, "kind": n.kind, "status": n.status, "other": n.other,
                      "note": n.note, "internal": n.internal, "details": list(n.details),
                      "rules": list(n.rules), "findings": [list(f) for f in n.findings],
                      "box": n.box}
    for b in d.boxes:
        tasks = (["no tasks: global stores are restored by every instance"] if b.is_global else
                 [f"tasks {b.subtopology}_<partition>, task directories "
                  f"<state.dir>/<application.id>/{b.subtopology}_<partition>"])
        data[b.id] = {"name": b.label, "kind": "subtopology", "status": b.status, "other": None,
                      "note": f"{b.nodes} nodes, {b.stores} stores", "internal": "",
                      "details": tasks, "rules": list(b.rules),
                      "findings": [list(f) for f in b.findings],
                      "box": None}
    return data
