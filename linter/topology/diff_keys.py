"""Where the key of the records reaching a stateful processor or a sink was last set, on both
sides: a change there means state under old keys is unreachable (or consumers see new keys)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from linter.topology import naming
from linter.topology.diff_index import Key, Side
from linter.topology.model import Sink, Source


@dataclass(frozen=True, slots=True)
class KeyChange:
    """The key of the records reaching a stateful processor (or a sink) now comes from somewhere
    else: ``before``/``after`` are the nodes that last set it (a key-changing operator, the
    operator feeding a repartition topic, or a source)."""

    topology: str | None
    node: str  # after-side name of the stateful processor or sink
    stores: frozenset[str]  # after-side stores of that processor
    sink_topic: str | None
    subtopology: int
    before: frozenset[str]
    after: frozenset[str]
    line: int | None = None



def _key_origins(side: Side, start: Key) -> frozenset[Key]:
    """The nodes that last set the key of records reaching ``start``.

    Walking upstream: a known key-changing operator is an origin. Repartition plumbing is skipped
    and internal topics are followed to their writers; the DSL only repartitions after a key
    change (or an explicit ``repartition()``), so when the walk reaches a user topic's source
    without meeting a known key changer, the operator that fed the repartition topic set the key;
    with no repartition on the way, the source did.
    """
    out: set[Key] = set()
    seen: set[tuple[Key, Key | None]] = set()
    node0 = side.nodes[start].node
    stack: list[tuple[Key, Key | None]] = (
        [(start, None)] if isinstance(node0, Source) else [(k, None) for k in side.pred[start]]
    )
    while stack:
        key, pending = stack.pop()
        if (key, pending) in seen or key not in side.nodes:
            continue
        seen.add((key, pending))
        info = side.nodes[key]
        node = info.node
        if isinstance(node, Source):
            internal = [t for t in node.topics if naming.is_internal_topic(t)]
            if internal and not info.is_global:
                for t in internal:
                    for w in side.writers_of.get((key[0], t), ()):
                        stack.extend((p, None) for p in side.pred.get(w, ()))
                continue
            out.add(pending if pending is not None else key)
            continue
        if naming.is_key_changing(node.name):
            out.add(key)
            continue
        if _feeds_repartition(side, key):
            if naming.is_repartition_plumbing(node.name) or naming.role_of(node.name) is not None:
                stack.extend((p, pending) for p in side.pred.get(key, ()))
                continue
            pending = key
        stack.extend((p, pending) for p in side.pred.get(key, ()))
    return frozenset(out)


def _feeds_repartition(side: Side, key: Key) -> bool:
    """True when every successor is the plumbing of a repartition topic (filter or sink)."""
    succ = [s for s in side.succ.get(key, ()) if s in side.nodes]
    if not succ:
        return False
    for s in succ:
        node = side.nodes[s].node
        if isinstance(node, Sink):
            if not naming.is_internal_topic(node.topic or ""):
                return False
        elif not (
            naming.is_repartition_plumbing(node.name)
            or (naming.role_of(node.name) == "KSTREAM-FILTER-" and _feeds_repartition(side, s))
        ):
            return False
    return True


def key_changes(b: Side, a: Side, fwd: Mapping[Key, Key]) -> list[KeyChange]:
    out: list[KeyChange] = []
    for kb, ka in sorted(fwd.items()):
        nb, na = b.nodes[kb], a.nodes[ka]
        is_sink = isinstance(na.node, Sink) and not naming.is_internal_topic(na.node.topic or "")
        stateful = bool(na.node.stores) and bool(nb.node.stores)
        if not (stateful or is_sink) or na.is_global:
            continue
        ob = _key_origins(b, kb)
        oa = _key_origins(a, ka)
        mapped = frozenset(fwd.get(k, ("", "?" + k[1])) for k in ob)
        if mapped != oa:
            out.append(
                KeyChange(
                    topology=na.topology,
                    node=na.name,
                    stores=na.node.stores,
                    sink_topic=na.node.topic if isinstance(na.node, Sink) else None,
                    subtopology=na.subtopology,
                    before=frozenset(k[1] for k in ob),
                    after=frozenset(k[1] for k in oa),
                    line=na.line,
                )
            )
    return out
