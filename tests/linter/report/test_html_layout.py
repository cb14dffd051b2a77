"""The diagram layout: layered, overlap-free, deterministic, and a scene that fits its boxes."""

from __future__ import annotations

from pathlib import Path

from linter.report.diagram import build_diagram
from linter.report.layout import layered_layout, path_d
from linter.topology.parse import TopologyParseError, parse
from tests.conftest import corpus_text
from tests.linter.report.html_samples import big_description, word_count


def _overlaps(layout_nodes: dict[str, tuple[float, float, float, float]]) -> list[tuple[str, str]]:
    items = sorted(layout_nodes.items(), key=lambda kv: (kv[1][1], kv[1][0]))
    bad = []
    for i, (a, (ax, ay, aw, ah)) in enumerate(items):
        for b, (bx, by, bw, bh) in items[i + 1:]:
            if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
                bad.append((a, b))
    return bad


def test_layers_follow_the_edges() -> None:
    nodes = ["a", "b", "c", "d"]
    layout = layered_layout(nodes, dict.fromkeys(nodes, (40.0, 20.0)),
                            [("a", "b"), ("b", "d"), ("a", "c"), ("c", "d"), ("a", "d")])
    assert layout.layers == {"a": 0, "b": 1, "c": 1, "d": 2}
    assert layout.nodes["a"].y < layout.nodes["b"].y < layout.nodes["d"].y
    # The long edge a -> d is routed through a point in the middle layer.
    assert len(layout.routes[4]) == 3


def test_cycles_and_unknown_nodes_do_not_break_it() -> None:
    nodes = ["a", "b", "c"]
    layout = layered_layout(nodes, dict.fromkeys(nodes, (30.0, 20.0)),
                            [("a", "b"), ("b", "c"), ("c", "a"), ("a", "a"), ("a", "zz")])
    assert set(layout.nodes) == {"a", "b", "c"}
    assert len(layout.routes) == 3


def test_no_two_nodes_overlap_in_a_big_topology() -> None:
    diagram = build_diagram(big_description(), side="after")
    inner = {n.id: (n.x, n.y, n.w, n.h) for n in diagram.nodes}
    assert _overlaps(inner) == []
    boxes = {b.id: (b.x, b.y, b.w, b.h) for b in diagram.boxes}
    assert _overlaps(boxes) == []


def test_every_node_sits_inside_its_box() -> None:
    diagram = build_diagram(big_description(), side="after")
    boxes = {b.id: b for b in diagram.boxes}
    for n in diagram.nodes:
        if n.box is None:
            continue
        b = boxes[n.box]
        assert b.x <= n.x <= n.x + n.w <= b.x + b.w + 0.01, n.name
        assert b.y <= n.y <= n.y + n.h <= b.y + b.h + 0.01, n.name


def test_a_300_node_topology_is_drawn_whole_and_starts_collapsed() -> None:
    desc = big_description()
    diagram = build_diagram(desc, side="topology")
    kinds = [n.kind for n in diagram.nodes]
    assert kinds.count("source") + kinds.count("processor") + kinds.count("sink") == 300
    assert kinds.count("store") == 30 * 3
    assert len(diagram.boxes) == 30
    # Repartition topics between consecutive sub-topologies, plus the input and output topics.
    assert kinds.count("topic") == 31
    assert all(b.collapsed for b in diagram.boxes)  # nothing marked: start folded
    # Sub-topology n + 1 reads what n writes, so it is laid out below it.
    ys = [b.y for b in sorted(diagram.boxes, key=lambda b: int(b.id.split("_")[1]))]
    assert ys == sorted(ys)


def test_marked_boxes_stay_open_in_a_big_topology() -> None:
    diagram = build_diagram(big_description(), side="topology",
                            finding_resources=[("store", "app-03-store-04", "KS201", "f-1")])
    open_boxes = [b.label for b in diagram.boxes if not b.collapsed]
    assert open_boxes == ["Sub-topology 3"]


def test_edges_enter_and_leave_the_boxes() -> None:
    diagram = build_diagram(word_count(True), side="after")
    kinds = sorted(e.kind for e in diagram.edges)
    assert kinds.count("read") == 1
    assert kinds.count("write") == 1
    assert kinds.count("store") == 1
    cross = [e for e in diagram.edges if e.kind in ("read", "write")]
    assert all(e.d_collapsed and e.d_collapsed != e.d for e in cross)


def test_path_d() -> None:
    assert path_d([(0, 0), (10, 20)]) == "M0,0 C0,10 10,10 10,20"
    assert path_d([(0, 0), (5, 5), (10.25, 20)]) == (
        "M0,0 C0,2.5 5,2.5 5,5 C5,12.5 10.2,12.5 10.2,20"
    )


def test_every_real_topology_is_drawn_once_per_node(topology_corpus: Path) -> None:
    """All corpus texts the parser reads (named topologies, global stores, 1.0 layouts...)."""
    drawn = 0
    for path in sorted(topology_corpus.rglob("*.txt")):
        try:
            desc = parse(corpus_text(path), str(path))
        except TopologyParseError:
            continue  # variants the parser rejects are its tests' business
        diagram = build_diagram(desc, side="topology")
        names = [n.name for n in diagram.nodes if n.kind in ("source", "processor", "sink")]
        assert len(names) == sum(1 for _ in desc.nodes()), path
        drawn += 1
    assert drawn > 150
