"""A topology as a drawable scene: sub-topology boxes, nodes, stores and topics with coordinates,
plus the diff marks (added, removed, renamed, moved, changed) of one side of an upgrade.

Two levels of :func:`~linter.report.layout.layered_layout`: inside each sub-topology (its nodes and
stores), then the sub-topology boxes and the topics between them (a repartition topic sits between
the box that writes it and the box that reads it). Kafka prints sets in hash order and Python
iterates frozensets in hash order too, so everything is sorted before it is laid out.

Every name here is untrusted text; the scene only carries it as data, the template escapes it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from linter.report.diagram_inner import Inner, layout_inner, node_sort_key, other_width
from linter.report.layout import Layout, Placed, layered_layout, path_d
from linter.report.scene import (
    BOX_COLLAPSED,
    BOX_HEAD,
    BOX_PAD,
    LINE_H,
    NODE_H,
    PAD_X,
    Diagram,
    Mark,
    Marks,
    SceneBox,
    SceneEdge,
    SceneNode,
    short,
    text_width,
    topic_role,
)
from linter.topology.model import Description, Sink, Source, Subtopology

Hits = set[tuple[str, str]]  # (rule id, finding anchor)


def _rules_by_resource(
    findings: Iterable[tuple[str, str, str, str]],
) -> dict[tuple[str, str], Hits]:
    """(resource kind, name, rule id, finding anchor) -> the hits per (drawn kind, name)."""
    out: dict[tuple[str, str], Hits] = {}
    aliases = {
        "store": "store",
        "node": "node",
        "processor": "node",
        "source": "node",
        "sink": "node",
        "topic": "topic",
        "repartition-topic": "topic",
        "source-topic": "topic",
        "sink-topic": "topic",
        "changelog-topic": "changelog",
        "subtopology": "subtopology",
    }
    for kind, name, rule_id, anchor in findings:
        drawn = aliases.get(kind)
        if drawn is not None:
            out.setdefault((drawn, name), set()).add((rule_id, anchor))
    return out


def _split(
    hits: Iterable[tuple[str, str]],
) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """Sorted distinct rule ids, and the (rule id, anchor) of each finding."""
    pairs = tuple(sorted(set(hits)))
    return tuple(sorted({r for r, _ in pairs})), pairs


def build_diagram(
    description: Description,
    *,
    side: str = "topology",
    marks: Marks | None = None,
    application_id: str | None = None,
    finding_resources: Iterable[tuple[str, str, str, str]] = (),
    collapse_over: int = 150,
) -> Diagram:
    """Lay ``description`` out. Boxes start collapsed when the topology has more than
    ``collapse_over`` nodes and the box carries no diff mark and no finding."""
    marks = marks or Marks()
    by_resource = _rules_by_resource(finding_resources)
    many = sum(1 for _ in description.nodes()) > collapse_over
    prefix = {"before": "b", "after": "a"}.get(side, "t")

    boxes = _boxes(description, marks, application_id, prefix)
    topic_ids, outer, compact = _outer_layouts(boxes, marks, prefix)

    scene_boxes: list[SceneBox] = []
    scene_nodes: list[SceneNode] = []
    scene_edges: list[SceneEdge] = []
    anchor: dict[str, Placed] = {}  # absolute rectangles of inner nodes, by name within its box
    for box in boxes:
        scene_boxes.append(_place_box(
            box, outer, compact, marks, by_resource, many, scene_nodes, scene_edges, anchor))

    for t, tid in topic_ids.items():
        p = outer.nodes[tid]
        mark = topics_mark(marks, t)
        role = "pattern" if t.startswith("pattern: ") else topic_role(t)
        scene_nodes.append(SceneNode(
            id=tid, kind="topic", name=t, label=short(t), x=p.x, y=p.y, w=p.w, h=p.h, box=None,
            status=mark.status if mark else "", other=mark.other if mark else None,
            note=mark.note if mark else "", internal=role,
            rules=_split(by_resource.get(("topic", t), ()))[0],
            findings=_split(by_resource.get(("topic", t), ()))[1],
            compact=(compact.nodes[tid].x, compact.nodes[tid].y),
        ))

    box_at = {b.id: b for b in scene_boxes}
    for box_id, _, sub, _ in boxes:
        _link_topics(box_at[box_id], sub, topic_ids, outer, compact, marks, anchor, scene_edges)

    return Diagram(side, round(outer.width, 1), round(outer.height, 1),
                   tuple(scene_boxes), tuple(scene_nodes), tuple(scene_edges),
                   round(compact.width, 1), round(compact.height, 1))


def _boxes(
    description: Description, marks: Marks, application_id: str | None, prefix: str
) -> list[_Box]:
    """Every sub-topology with its header and its inner layout, in order."""
    boxes: list[_Box] = []
    for t_index, topology in enumerate(description.topologies):
        for sub in sorted(topology.subtopologies, key=lambda s: s.id):
            box_id = f"{prefix}s{t_index}_{sub.id}"
            head = f"Sub-topology {sub.id}" + (" (global store)" if sub.is_global else "")
            if topology.name is not None:
                head = f"{topology.name} / {head}"
            boxes.append((box_id, head, sub, layout_inner(sub, marks, application_id, box_id)))
    return boxes


def _outer_layouts(
    boxes: list[_Box], marks: Marks, prefix: str
) -> tuple[dict[str, str], Layout, Layout]:
    """The topics' ids, and the boxes and topics laid out expanded and folded."""
    topics = sorted(
        {t for _, _, sub, _ in boxes for t in sub.source_topics | sub.sink_topics}
        | {f"pattern: {n.pattern}" for _, _, sub, _ in boxes for n in sub.nodes
           if isinstance(n, Source) and n.pattern is not None}
    )
    topic_ids = {t: f"{prefix}t{i}" for i, t in enumerate(topics)}
    outer_edges: list[tuple[str, str]] = []
    for box_id, _, sub, _ in boxes:
        for t in sorted(_reads(sub)):
            outer_edges.append((topic_ids[t], box_id))
        for t in sorted(sub.sink_topics):
            outer_edges.append((box_id, topic_ids[t]))
    sizes: dict[str, tuple[float, float]] = {
        box_id: (inner.width + 2 * BOX_PAD, inner.height + BOX_HEAD + BOX_PAD)
        for box_id, _, _, inner in boxes
    }
    for t, tid in topic_ids.items():
        mark = topics_mark(marks, t)
        extra = LINE_H if mark is not None and mark.other else 0.0
        sizes[tid] = (max(text_width(short(t)), other_width(mark)) + 2 * PAD_X + 8,
                      NODE_H + extra)
    order = [b[0] for b in boxes] + list(topic_ids.values())
    outer = layered_layout(order, sizes, outer_edges, gap_x=40.0, gap_y=56.0)
    # The same graph with every box folded to its header: the overview of a big topology, where
    # the expanded layout would leave the folded boxes' space empty.
    folded = dict(sizes)
    for box_id, head, _, _ in boxes:
        folded[box_id] = (max(text_width(head) + 50, 200.0), BOX_COLLAPSED)
    compact = layered_layout(order, folded, outer_edges, gap_x=30.0, gap_y=40.0)
    return topic_ids, outer, compact


def _place_box(
    box: _Box,
    outer: Layout,
    compact: Layout,
    marks: Marks,
    by_resource: dict[tuple[str, str], Hits],
    many: bool,
    scene_nodes: list[SceneNode],
    scene_edges: list[SceneEdge],
    anchor: dict[str, Placed],
) -> SceneBox:
    """One box at its place: its nodes and edges appended to the scene, their rectangles to
    ``anchor``."""
    box_id, head, sub, inner = box
    at = outer.nodes[box_id]
    ox, oy = at.x + BOX_PAD, at.y + BOX_HEAD
    box_mark = marks.subtopologies.get(sub.id)
    box_rules, box_findings = _split(by_resource.get(("subtopology", str(sub.id)), ()))
    placed_nodes = []
    for n in inner.nodes:
        hits = set(by_resource.get(("node" if n.kind != "store" else "store", n.name), ()))
        if n.kind == "store":
            hits |= by_resource.get(("changelog", n.internal), set())
        rules, found = _split(hits)
        placed = replace(n, x=n.x + ox, y=n.y + oy, rules=rules, findings=found)
        placed_nodes.append(placed)
        anchor[f"{box_id}\x00{n.name}\x00{n.kind == 'store'}"] = Placed(
            placed.x, placed.y, placed.w, placed.h)
    marked = any(n.status or n.rules for n in placed_nodes)
    changed = box_mark is not None or bool(box_rules) or marked
    stores = sum(1 for n in inner.nodes if n.kind == "store")
    scene_nodes.extend(placed_nodes)
    for e in inner.edges:
        d = _shift(e.points, ox, oy)
        scene_edges.append(SceneEdge(e.id, e.kind, d, "", box_id, e.status))
    return SceneBox(
        id=box_id, label=head, x=at.x, y=at.y, w=at.w, h=at.h,
        status=box_mark.status if box_mark else "", nodes=len(inner.nodes) - stores,
        stores=stores, collapsed=many and not changed, rules=box_rules,
        findings=box_findings, subtopology=sub.id, is_global=sub.is_global,
        compact=(compact.nodes[box_id].x, compact.nodes[box_id].y, compact.nodes[box_id].w),
    )


def _link_topics(
    b: SceneBox,
    sub: Subtopology,
    topic_ids: dict[str, str],
    outer: Layout,
    compact: Layout,
    marks: Marks,
    anchor: dict[str, Placed],
    scene_edges: list[SceneEdge],
) -> None:
    """The edges from the topics a box reads and to the topics it writes, appended."""
    box_id = b.id
    header = Placed(b.x, b.y, b.w, BOX_COLLAPSED)
    folded_box = compact.nodes[box_id]
    for node in sorted(sub.nodes, key=node_sort_key):
        node_at = anchor[f"{box_id}\x00{node.name}\x00False"]
        if isinstance(node, Source):
            for t in sorted(_source_topics(node)):
                tp = outer.nodes[topic_ids[t]]
                scene_edges.append(SceneEdge(
                    f"{box_id}r{len(scene_edges)}", "read",
                    _link(tp, node_at), _link(tp, header), box_id,
                    _edge_status(marks, t, node.name),
                    _link(compact.nodes[topic_ids[t]], folded_box)))
        elif isinstance(node, Sink) and node.topic is not None:
            tp = outer.nodes[topic_ids[node.topic]]
            scene_edges.append(SceneEdge(
                f"{box_id}w{len(scene_edges)}", "write",
                _link(node_at, tp),
                _link(header, tp),
                box_id, _edge_status(marks, node.topic, node.name),
                _link(folded_box, compact.nodes[topic_ids[node.topic]])))


def topics_mark(marks: Marks, topic: str) -> Mark | None:
    return marks.topics.get(topic)


def _edge_status(marks: Marks, topic: str, node: str) -> str:
    for mark in (marks.topics.get(topic), marks.nodes.get(node)):
        if mark is not None and mark.status in ("added", "removed"):
            return mark.status
    return ""


def _reads(sub: Subtopology) -> set[str]:
    return {t for n in sub.nodes if isinstance(n, Source) for t in _source_topics(n)}


def _source_topics(node: Source) -> set[str]:
    return set(node.topics) | ({f"pattern: {node.pattern}"} if node.pattern is not None else set())


_Box = tuple[str, str, Subtopology, Inner]  # id, header, the sub-topology, its layout


def _shift(points: tuple[tuple[float, float], ...], dx: float, dy: float) -> str:
    return path_d([(x + dx, y + dy) for x, y in points])


def _link(frm: Placed, to: Placed) -> str:
    """An edge between a topic and a node or box. Downwards (the layout's direction) from
    bottom to top; upwards (a cycle through a topic) as a loop on the right-hand side, so it
    never runs through the nodes it connects."""
    if frm.bottom <= to.y:
        return path_d([(frm.cx, frm.bottom), (to.cx, to.y)])
    sx, sy = frm.x + frm.w, frm.y + frm.h / 2
    ex, ey = to.x + to.w, to.y + to.h / 2
    bulge = max(sx, ex) + 40 + abs(sy - ey) * 0.08
    return (f"M{_num(sx)},{_num(sy)} C{_num(bulge)},{_num(sy)} {_num(bulge)},{_num(ey)} "
            f"{_num(ex)},{_num(ey)}")


def _num(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text
