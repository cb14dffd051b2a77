"""Where the data of a store comes from and goes to, on each side: the user topics upstream and
downstream of its owners, following internal topics from writer to reader. Two versions whose
removed and added stores read the same inputs and feed the same outputs replaced state: the new
stores compute what the old ones held, and start empty."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from linter.topology import naming
from linter.topology.diff_index import Key, StoreInfo
from linter.topology.diff_side import Side, keys_of
from linter.topology.model import Sink, Source


@dataclass(frozen=True, slots=True)
class StoreReplacement:
    """Stores only in ``before`` (``removed``) whose work stores only in ``after`` (``added``)
    take over: they share input topics (``inputs``) and output topics (``outputs``, empty when
    neither side's stores feed an output topic)."""

    topology: str | None
    removed: tuple[StoreInfo, ...]
    added: tuple[StoreInfo, ...]
    inputs: frozenset[str]
    outputs: frozenset[str]


# The walks here go by (topology, name) keys, over the neighbour sets ``diff_side.keys_of``
# makes: the order they meet nodes in is the order of those sets, and it orders the sets of
# topics they collect.


def _readers_of(side: Side) -> dict[str, list[Key]]:
    out: dict[str, list[Key]] = {}
    for name, info in side.nodes.items():
        if isinstance(info.node, Source):
            for t in info.node.topics:
                out.setdefault(t, []).append((side.topology, name))
    return out


def _user_topics(node: Source | Sink) -> Iterable[str]:
    if isinstance(node, Source):
        if node.pattern is not None:
            yield f"pattern {node.pattern}"
        yield from (t for t in node.topics if not naming.is_internal_topic(t))
    elif node.topic is not None and not naming.is_internal_topic(node.topic):
        yield node.topic


def _inputs(side: Side, starts: Iterable[Key]) -> frozenset[str]:
    """User topics read upstream of ``starts``, through repartition and other internal topics."""
    out: set[str] = set()
    seen: set[Key] = set()
    stack = list(starts)
    while stack:
        key = stack.pop()
        if key in seen or key[1] not in side.nodes:
            continue
        seen.add(key)
        node = side.nodes[key[1]].node
        if isinstance(node, Source):
            out.update(_user_topics(node))
            for t in node.topics:
                if naming.is_internal_topic(t):
                    stack.extend((key[0], w) for w in side.writers_of.get(t, ()))
        stack.extend(keys_of(side.pred[key[1]], key[0]))
    return frozenset(out)


def _outputs(side: Side, starts: Iterable[Key], readers: dict[str, list[Key]]) -> frozenset[str]:
    """User topics written downstream of ``starts``, through internal topics."""
    out: set[str] = set()
    seen: set[Key] = set()
    stack = list(starts)
    while stack:
        key = stack.pop()
        if key in seen or key[1] not in side.nodes:
            continue
        seen.add(key)
        node = side.nodes[key[1]].node
        if isinstance(node, Sink):
            out.update(_user_topics(node))
            if node.topic is not None and naming.is_internal_topic(node.topic):
                stack.extend(readers.get(node.topic, ()))
        stack.extend(keys_of(side.succ[key[1]], key[0]))
    return frozenset(out)


def _flows(side: Side, stores: Sequence[StoreInfo]) -> list[tuple[frozenset[str], frozenset[str]]]:
    readers = _readers_of(side)
    out = []
    for s in stores:
        owners = [(s.topology or "", o) for o in s.owners]
        out.append((_inputs(side, owners), _outputs(side, owners, readers)))
    return out


def replacements(
    b: Side, a: Side, removed: Sequence[StoreInfo], added: Sequence[StoreInfo]
) -> tuple[StoreReplacement, ...]:
    """Groups of removed and added (non-global) stores of one topology that are linked by
    shared inputs and shared outputs (or no output on either side), sorted by first store."""
    gone = [s for s in removed if not s.is_global]
    new = [s for s in added if not s.is_global]
    if not gone or not new:
        return ()
    flow_b, flow_a = _flows(b, gone), _flows(a, new)
    # Union-find over "r" and "a" indices: an edge joins a removed and an added store.
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(x: tuple[str, int]) -> tuple[str, int]:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    linked: set[tuple[str, int]] = set()
    for i, (sb, (in_b, out_b)) in enumerate(zip(gone, flow_b, strict=True)):
        for j, (sa, (in_a, out_a)) in enumerate(zip(new, flow_a, strict=True)):
            if sb.topology != sa.topology or not in_b & in_a:
                continue
            if (out_b or out_a) and not out_b & out_a:
                continue
            parent[find(("r", i))] = find(("a", j))
            linked |= {("r", i), ("a", j)}
    groups: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for x in sorted(linked):
        groups.setdefault(find(x), []).append(x)
    out = []
    for members in groups.values():
        rs = [i for k, i in members if k == "r"]
        as_ = [j for k, j in members if k == "a"]
        out.append(
            StoreReplacement(
                topology=gone[rs[0]].topology,
                removed=tuple(sorted((gone[i] for i in rs), key=lambda s: s.name)),
                added=tuple(sorted((new[j] for j in as_), key=lambda s: s.name)),
                inputs=frozenset().union(*(flow_b[i][0] for i in rs))
                & frozenset().union(*(flow_a[j][0] for j in as_)),
                outputs=frozenset().union(*(flow_b[i][1] for i in rs))
                & frozenset().union(*(flow_a[j][1] for j in as_)),
            )
        )
    return tuple(sorted(out, key=lambda r: (r.topology or "", r.removed[0].name)))
