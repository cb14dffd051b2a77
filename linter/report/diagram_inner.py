"""The inside of one sub-topology box in the diagram: its nodes and stores, sized and laid out
with :func:`~linter.report.layout.layered_layout`, and the flow and store edges between them, each
with its diff mark. :mod:`linter.report.diagram` places the boxes and the topics around them."""

from __future__ import annotations

from dataclasses import dataclass, replace

from linter.report.layout import layered_layout
from linter.report.scene import (
    LINE_H,
    NODE_H,
    PAD_X,
    Mark,
    Marks,
    SceneNode,
    changelog_of,
    short,
    text_width,
)
from linter.topology.model import Node, Processor, Sink, Source, Subtopology


def node_sort_key(node: Node) -> tuple[int, str]:
    return ({"source": 0, "processor": 1, "sink": 2}[node.kind], node.name)


@dataclass(frozen=True, slots=True)
class InnerEdge:
    id: str
    kind: str
    points: tuple[tuple[float, float], ...]
    status: str


@dataclass(frozen=True, slots=True)
class Inner:
    width: float
    height: float
    nodes: tuple[SceneNode, ...]
    edges: tuple[InnerEdge, ...]


def layout_inner(
    sub: Subtopology, marks: Marks, application_id: str | None, box_id: str
) -> Inner:
    nodes = sorted(sub.nodes, key=node_sort_key)
    store_names = sorted(sub.stores)
    ids: dict[tuple[str, bool], str] = {}
    sizes: dict[str, tuple[float, float]] = {}
    protos: list[SceneNode] = []
    for i, n in enumerate(nodes):
        nid = f"{box_id}n{i}"
        ids[(n.name, False)] = nid
        mark = marks.nodes.get(n.name)
        details = _details(n)
        label = short(n.name)
        lines = 1 + (1 if mark is not None and mark.other else 0)
        w = max(text_width(label), other_width(mark)) + 2 * PAD_X
        sizes[nid] = (max(w, 90.0), NODE_H + (lines - 1) * LINE_H)
        protos.append(SceneNode(
            id=nid, kind=n.kind, name=n.name, label=label, x=0, y=0, w=0, h=0, box=box_id,
            status=mark.status if mark else "", other=mark.other if mark else None,
            note=mark.note if mark else "", details=details,
        ))
    for j, s in enumerate(store_names):
        nid = f"{box_id}k{j}"
        ids[(s, True)] = nid
        mark = marks.stores.get(s)
        changelog = (
            "restores from its source topic" if sub.is_global else changelog_of(s, application_id)
        )
        label = short(s)
        lines = 2 + (1 if mark is not None and mark.other else 0)
        w = max(text_width(label), len(changelog) * 5.8, other_width(mark)) + 2 * PAD_X
        sizes[nid] = (max(w, 90.0), NODE_H + (lines - 1) * LINE_H)
        protos.append(SceneNode(
            id=nid, kind="store", name=s, label=label, x=0, y=0, w=0, h=0, box=box_id,
            status=mark.status if mark else "", other=mark.other if mark else None,
            note=mark.note if mark else "", internal=changelog,
        ))
    edges, kinds, statuses = _inner_edges(nodes, ids, marks)
    order = [p.id for p in protos]
    layout = layered_layout(order, sizes, edges, gap_x=20.0, gap_y=30.0)
    placed = tuple(
        replace(p, x=layout.nodes[p.id].x, y=layout.nodes[p.id].y,
                w=layout.nodes[p.id].w, h=layout.nodes[p.id].h)
        for p in protos
    )
    inner_edges = tuple(
        InnerEdge(f"{box_id}e{i}", kind, route, status)
        for i, (route, kind, status) in enumerate(zip(layout.routes, kinds, statuses, strict=True))
    )
    return Inner(max(layout.width, text_width("Sub-topology 000 (global store)")), layout.height,
                  placed, inner_edges)


def _inner_edges(
    nodes: list[Node], ids: dict[tuple[str, bool], str], marks: Marks
) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """The flow and store edges inside a box: their ends, their kinds and their diff marks."""
    edges: list[tuple[str, str]] = []
    kinds: list[str] = []
    statuses: list[str] = []
    for n in nodes:
        for succ in sorted(n.successors):
            if (succ, False) in ids:
                edges.append((ids[(n.name, False)], ids[(succ, False)]))
                kinds.append("flow")
                statuses.append(_pair_status(marks.nodes.get(n.name), marks.nodes.get(succ)))
        for s in sorted(n.stores):
            edges.append((ids[(n.name, False)], ids[(s, True)]))
            kinds.append("store")
            statuses.append(_pair_status(marks.nodes.get(n.name), marks.stores.get(s)))
    return edges, kinds, statuses


def other_width(mark: Mark | None) -> float:
    """Width of the "was <old name>" line (10px italic) of a renamed element."""
    return len(f"was {mark.other}") * 6.1 if mark is not None and mark.other else 0.0


def _details(n: Node) -> tuple[str, ...]:
    out: list[str] = []
    if isinstance(n, Source):
        if n.pattern is not None:
            out.append(f"pattern: {n.pattern}")
        out.extend(f"reads: {t}" for t in sorted(n.topics))
    if isinstance(n, Processor):
        out.extend(f"store: {s}" for s in sorted(n.stores))
    if isinstance(n, Sink):
        if n.topic is not None:
            out.append(f"writes: {n.topic}")
        if n.extractor is not None:
            out.append(f"topic chosen by: {n.extractor}")
    out.extend(f"next: {s}" for s in sorted(n.successors))
    return tuple(out)


def _pair_status(a: Mark | None, b: Mark | None) -> str:
    for mark in (a, b):
        if mark is not None and mark.status in ("added", "removed"):
            return mark.status
    return ""
