"""A layered DAG layout (Sugiyama style), computed in Python, producing SVG coordinates.

Why this and not a JavaScript layout library: the report must be one self-contained, deterministic
file. Doing the layout here keeps the HTML free of a vendored library, makes the coordinates part
of what the golden tests pin (same input -> same bytes), and costs the reader's browser nothing.

Why this algorithm: Kafka Streams graphs are nearly trees that flow one way (source -> processors
-> sink, topic -> sub-topology -> topic). For such graphs the classic steps are enough:

1. break cycles (a depth-first search reverses back edges, so the rest can assume a DAG);
2. longest-path layering (a node sits one layer below its deepest predecessor): linear time and
   it gives the familiar top-to-bottom reading order;
3. dummy nodes on edges that span several layers, so long edges are routed between nodes;
4. barycenter ordering within layers (a few down and up sweeps), which removes most crossings in
   near-trees; network-simplex layering or exact crossing minimisation would cost far more code
   for little visible gain;
5. x coordinates by packing each layer, then pulling nodes toward their neighbours' mean and
   packing again (a light version of priority placement).

Everything is ordered by the input order and stable sorts, never by hash order: the same graph
always gets the same coordinates. 300 nodes lay out in a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Placed:
    """A node's rectangle: ``x``/``y`` is the top-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True, slots=True)
class Layout:
    """Positions of the nodes, the route of every edge (in input order), and the total size."""

    nodes: Mapping[str, Placed]
    routes: tuple[tuple[Point, ...], ...]
    width: float
    height: float
    layers: Mapping[str, int]


_SWEEPS = 6
_PULL_PASSES = 4


def layered_layout(
    nodes: Sequence[str],
    sizes: Mapping[str, tuple[float, float]],
    edges: Sequence[tuple[str, str]],
    *,
    gap_x: float = 24.0,
    gap_y: float = 40.0,
) -> Layout:
    """Lay ``nodes`` (sizes ``(w, h)``) out top to bottom along ``edges``.

    Edges to unknown nodes and self-loops are ignored; duplicate edges are routed once each.
    """
    index = {n: i for i, n in enumerate(nodes)}
    kept = [(u, v) for u, v in edges if u in index and v in index and u != v]
    dag = _acyclic(nodes, kept)
    layer = _longest_path_layers(nodes, dag)

    # Chains of dummy nodes for edges that span more than one layer.
    order_of: dict[str, int] = dict(index)
    width_of: dict[str, float] = {n: sizes[n][0] for n in nodes}
    chains: list[list[str]] = []
    for i, (u, v) in enumerate(dag):
        chain = [u]
        for step in range(layer[u] + 1, layer[v]):
            dummy = f"\x00{i}:{step}"
            layer[dummy] = step
            width_of[dummy] = 0.0
            order_of[dummy] = len(order_of)
            chain.append(dummy)
        chain.append(v)
        chains.append(chain)

    layers = _order_layers(layer, order_of, chains)
    heights = [max((sizes[n][1] for n in row if n in index), default=0.0) for row in layers]
    xs = _x_coordinates(layers, width_of, chains, gap_x)

    ys: list[float] = []
    y = 0.0
    for h in heights:
        ys.append(y)
        y += h + gap_y
    height = max(y - gap_y, 0.0)

    placed: dict[str, Placed] = {}
    dummy_at: dict[str, Point] = {}
    for row_index, row in enumerate(layers):
        for n in row:
            if n in index:
                w, h = sizes[n]
                # Centre smaller nodes vertically in their layer.
                placed[n] = Placed(xs[n], ys[row_index] + (heights[row_index] - h) / 2, w, h)
            else:
                dummy_at[n] = (xs[n], ys[row_index] + heights[row_index] / 2)
    width = max((p.x + p.w for p in placed.values()), default=0.0)
    width = max([width, *(x for x, _ in dummy_at.values())])

    routes = _routes(kept, dag, chains, placed, dummy_at)
    real_layers = {n: layer[n] for n in nodes}
    return Layout(placed, routes, width, height, real_layers)


def _acyclic(nodes: Sequence[str], edges: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Reverse the back edges found by an iterative depth-first search in input order."""
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    for u, v in edges:
        succ[u].append(v)
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    back: set[tuple[str, str]] = set()
    for root in nodes:
        if root in state:
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        state[root] = 1
        while stack:
            node, i = stack[-1]
            if i < len(succ[node]):
                stack[-1] = (node, i + 1)
                nxt = succ[node][i]
                if state.get(nxt) == 1:
                    back.add((node, nxt))
                elif nxt not in state:
                    state[nxt] = 1
                    stack.append((nxt, 0))
            else:
                state[node] = 2
                stack.pop()
    return [(v, u) if (u, v) in back else (u, v) for u, v in edges]


def _longest_path_layers(nodes: Sequence[str], dag: list[tuple[str, str]]) -> dict[str, int]:
    preds: dict[str, list[str]] = {n: [] for n in nodes}
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    for u, v in dag:
        preds[v].append(u)
        succ[u].append(v)
    indegree = {n: len(preds[n]) for n in nodes}
    ready = [n for n in nodes if indegree[n] == 0]
    layer = dict.fromkeys(nodes, 0)
    while ready:
        nxt: list[str] = []
        for u in ready:
            for v in succ[u]:
                layer[v] = max(layer[v], layer[u] + 1)
                indegree[v] -= 1
                if indegree[v] == 0:
                    nxt.append(v)
        ready = nxt
    return layer


def _order_layers(
    layer: Mapping[str, int], order_of: Mapping[str, int], chains: list[list[str]]
) -> list[list[str]]:
    count = max(layer.values(), default=-1) + 1
    layers: list[list[str]] = [[] for _ in range(count)]
    for n in sorted(layer, key=order_of.__getitem__):
        layers[layer[n]].append(n)
    up: dict[str, list[str]] = {n: [] for n in layer}
    down: dict[str, list[str]] = {n: [] for n in layer}
    for chain in chains:
        for a, b in pairwise(chain):
            down[a].append(b)
            up[b].append(a)

    def sweep(rows: range, neighbours: Mapping[str, list[str]], ref_offset: int) -> None:
        for r in rows:
            ref = {n: i for i, n in enumerate(layers[r + ref_offset])}
            layers[r] = _by_barycenter(layers[r], neighbours, ref)

    for _ in range(_SWEEPS):
        sweep(range(1, count), up, -1)
        sweep(range(count - 2, -1, -1), down, +1)
    return layers


def _by_barycenter(
    row: list[str], neighbours: Mapping[str, list[str]], ref: Mapping[str, int]
) -> list[str]:
    """``row`` sorted by the mean position of each node's neighbours in the reference row;
    a node without neighbours there keeps its place; ties keep the current order."""

    def key(item: tuple[int, str]) -> tuple[float, int]:
        i, n = item
        positions = [ref[m] for m in neighbours[n] if m in ref]
        return (sum(positions) / len(positions) if positions else float(i), i)

    return [n for _, n in sorted(enumerate(row), key=key)]


def _x_coordinates(
    layers: list[list[str]],
    width_of: Mapping[str, float],
    chains: list[list[str]],
    gap_x: float,
) -> dict[str, float]:
    """Left x of each node (the centre for dummies)."""
    neighbours: dict[str, list[str]] = {n: [] for row in layers for n in row}
    for chain in chains:
        for a, b in pairwise(chain):
            neighbours[a].append(b)
            neighbours[b].append(a)

    x: dict[str, float] = {}
    for row in layers:
        cursor = 0.0
        for n in row:
            x[n] = cursor
            cursor += width_of[n] + gap_x

    def centre(n: str) -> float:
        return x[n] + width_of[n] / 2

    for _ in range(_PULL_PASSES):
        for row in layers:
            wanted = {}
            for n in row:
                linked = [centre(m) for m in neighbours[n]]
                wanted[n] = (sum(linked) / len(linked) if linked else centre(n)) - width_of[n] / 2
            # Pack left to right (nodes pushed right of their wish), then right to left (pushed
            # left); both are overlap-free, and so is their mean, which is not biased to a side.
            lefts: dict[str, float] = {}
            limit = float("-inf")
            for n in row:
                lefts[n] = max(wanted[n], limit)
                limit = lefts[n] + width_of[n] + gap_x
            rights: dict[str, float] = {}
            limit = float("inf")
            for n in reversed(row):
                rights[n] = min(wanted[n], limit - width_of[n])
                limit = rights[n] - gap_x
            placed_x = {n: (lefts[n] + rights[n]) / 2 for n in row}
            x.update(placed_x)

    left = min((x[n] for n in x), default=0.0)
    out = {n: x[n] - left for n in x}
    return {n: (v + width_of[n] / 2 if n.startswith("\x00") else v) for n, v in out.items()}


def _routes(
    kept: list[tuple[str, str]],
    dag: list[tuple[str, str]],
    chains: list[list[str]],
    placed: Mapping[str, Placed],
    dummy_at: Mapping[str, Point],
) -> tuple[tuple[Point, ...], ...]:
    routes: list[tuple[Point, ...]] = []
    for (u, _), (du, _), chain in zip(kept, dag, chains, strict=True):
        reversed_edge = du != u
        path = chain[::-1] if reversed_edge else chain
        points: list[Point] = []
        for i, n in enumerate(path):
            if n in placed:
                p = placed[n]
                below = (i == 0) != reversed_edge
                # Leave from the bottom, arrive at the top (reversed edges: the other way round).
                points.append((p.cx, p.bottom if below else p.y))
            else:
                points.append(dummy_at[n])
        routes.append(tuple((round(px, 1), round(py, 1)) for px, py in points))
    return tuple(routes)


def path_d(points: Sequence[Point]) -> str:
    """An SVG path through ``points``: one cubic segment per pair, vertical at both ends, so
    a layered edge leaves and enters nodes straight and bends smoothly at its dummy nodes."""
    if not points:
        return ""
    x0, y0 = points[0]
    parts = [f"M{_n(x0)},{_n(y0)}"]
    for x1, y1 in points[1:]:
        mid = (y0 + y1) / 2
        parts.append(f"C{_n(x0)},{_n(mid)} {_n(x1)},{_n(mid)} {_n(x1)},{_n(y1)}")
        x0, y0 = x1, y1
    return " ".join(parts)


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text
