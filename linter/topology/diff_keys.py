"""Where the key of the records reaching a stateful processor or a sink was last set, on both
sides: a change there means state under old keys is unreachable (or consumers see new keys)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TypeAlias

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



State: TypeAlias = tuple[Key, Key | None]  # (node, the operator that fed a repartition, if any)


def _key_origins(side: Side, start: Key) -> frozenset[Key]:
    """The nodes that last set the key of records reaching ``start`` (``_Origins.of``), walking
    afresh; kept for graphs with a cycle, where results cannot be shared between walks."""
    out: set[Key] = set()
    seen: set[State] = set()
    stack = _initial(side, start)
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        found, upstream = _step(side, state)
        out |= found
        stack.extend(upstream)
    return frozenset(out)


def _initial(side: Side, start: Key) -> list[State]:
    if isinstance(side.nodes[start].node, Source):
        return [(start, None)]
    return [(k, None) for k in side.pred[start]]


def _step(side: Side, state: State) -> tuple[frozenset[Key], list[State]]:
    """One node of the walk upstream: the origins it settles, and the states to visit next.

    A known key-changing operator is an origin. Repartition plumbing is skipped and internal
    topics are followed to their writers; the DSL only repartitions after a key change (or an
    explicit ``repartition()``), so when the walk reaches a user topic's source without meeting a
    known key changer, the operator that fed the repartition topic set the key; with no
    repartition on the way, the source did.
    """
    key, pending = state
    info = side.nodes.get(key)
    if info is None:
        return frozenset(), []
    node = info.node
    if isinstance(node, Source):
        internal = [t for t in node.topics if naming.is_internal_topic(t)]
        if internal and not info.is_global:
            return frozenset(), [
                (p, None)
                for t in internal
                for w in side.writers_of.get((key[0], t), ())
                for p in side.pred.get(w, ())
            ]
        return frozenset({pending if pending is not None else key}), []
    if naming.is_key_changing(node.name):
        return frozenset({key}), []
    if not (
        naming.is_repartition_plumbing(node.name) or naming.role_of(node.name) is not None
    ) and _feeds_repartition(side, key):  # the name tests first: they settle most nodes
        pending = key
    return frozenset(), [(p, pending) for p in side.pred.get(key, ())]


class _Origins:
    """``_key_origins`` for many starts on one side, sharing what the walks have in common:
    each state's origins are computed once (a walk per stateful node would be quadratic along a
    chain of stateful operators). Where a walk meets a cycle, that start walks afresh."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.done: dict[State, frozenset[Key]] = {}
        self.cyclic: set[State] = set()

    def of(self, start: Key) -> frozenset[Key]:
        out: set[Key] = set()
        for state in _initial(self.side, start):
            found = self._resolve(state)
            if found is None:
                return _key_origins(self.side, start)
            out |= found
        return frozenset(out)

    def _resolve(self, root: State) -> frozenset[Key] | None:
        """Origins reachable from ``root``; ``None`` when a cycle makes them incomplete."""
        if root in self.done:
            return self.done[root]
        if root in self.cyclic:
            return None
        frames: list[tuple[State, Iterator[State], set[Key]]] = []
        on_path: set[State] = set()

        def enter(state: State) -> None:
            found, upstream = _step(self.side, state)
            frames.append((state, iter(upstream), set(found)))
            on_path.add(state)

        enter(root)
        while frames:
            state, upstream, found = frames[-1]
            for nxt in upstream:
                if nxt in self.done:
                    found |= self.done[nxt]
                elif nxt in on_path or nxt in self.cyclic:
                    self.cyclic |= on_path
                    return None
                else:
                    enter(nxt)
                    break
            else:
                frames.pop()
                on_path.discard(state)
                self.done[state] = frozenset(found)
                if frames:
                    frames[-1][2].update(found)
        return self.done[root]


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


def _read_from(side: Side, origins: frozenset[Key]) -> tuple[frozenset[Key], frozenset[str]]:
    """Origins split into operators that set the key, and the topics (or patterns) of the
    sources whose key is kept as read."""
    setters: set[Key] = set()
    topics: set[str] = set()
    for k in origins:
        node = side.nodes[k].node
        if isinstance(node, Source):
            topics |= node.topics
            if node.pattern is not None:
                topics.add(f"pattern {node.pattern}")
        else:
            setters.add(k)
    return frozenset(setters), frozenset(topics)


def _same_origins(
    b: Side, a: Side, ob: frozenset[Key], oa: frozenset[Key], fwd: Mapping[Key, Key]
) -> bool:
    """The key reaching a node comes from the same place on both sides: the same (matched)
    key-setting operators, and sources of the same topics. A source is the same origin when it
    reads the same topics, whatever the node matching made of it (a rewritten graph may rename
    or renumber every source), or when it is the matched source (its topic renamed)."""
    if frozenset(fwd.get(k, ("", "?" + k[1])) for k in ob) == oa:
        return True
    setters_b, topics_b = _read_from(b, ob)
    setters_a, topics_a = _read_from(a, oa)
    return (
        frozenset(fwd.get(k, ("", "?" + k[1])) for k in setters_b) == setters_a
        and topics_b == topics_a
    )


def key_changes(b: Side, a: Side, fwd: Mapping[Key, Key]) -> list[KeyChange]:
    out: list[KeyChange] = []
    origins_b, origins_a = _Origins(b), _Origins(a)
    for kb, ka in sorted(fwd.items()):
        nb, na = b.nodes[kb], a.nodes[ka]
        is_sink = isinstance(na.node, Sink) and not naming.is_internal_topic(na.node.topic or "")
        stateful = bool(na.node.stores) and bool(nb.node.stores)
        if not (stateful or is_sink) or na.is_global:
            continue
        ob = origins_b.of(kb)
        oa = origins_a.of(ka)
        if not _same_origins(b, a, ob, oa, fwd):
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
