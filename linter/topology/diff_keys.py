"""Where the key of the records reaching a stateful processor or a sink was last set, on both
sides: a change there means state under old keys is unreachable (or consumers see new keys).

The walks here go by (topology, name) keys, over the neighbour sets ``diff_side.keys_of``
makes: the order they meet nodes in is the order of those sets, and it orders the sets of
names a ``KeyChange`` holds."""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import repeat
from typing import TypeAlias

from linter.topology import naming
from linter.topology.diff_index import EMPTY_KEYS, Key, StoreInfo
from linter.topology.diff_side import Side, keys_of
from linter.topology.model import Processor, Sink, Source


@dataclass(frozen=True, slots=True)
class KeyChange:
    """The key of the records reaching a stateful processor (or a sink) now comes from somewhere
    else: ``before``/``after`` are the nodes that last set it (a key-changing operator, the
    operator feeding a repartition topic, or a source).

    ``certain`` is False when a side's key was set behind a repartition topic by one of several
    operators whose names do not say whether they change the key (user-named with ``Named.as``,
    or a repartition topic the optimizer merged): the text cannot tell whether the key changed.
    ``unknown`` then names those operators, both sides together."""

    topology: str | None
    node: str  # after-side name of the stateful processor or sink
    stores: frozenset[str]  # after-side stores of that processor
    sink_topic: str | None
    subtopology: int
    before: frozenset[str]
    after: frozenset[str]
    line: int | None = None
    certain: bool = True
    unknown: frozenset[str] = frozenset()


# (node, the operator of unknown role that fed the repartition crossed last, whether a repartition
# topic was crossed, whether another operator of unknown role sits upstream of that one)
State: TypeAlias = tuple[Key, Key | None, bool, bool]
Origin: TypeAlias = tuple[Key, bool]  # (the node that set the key, or a source; certain)
Roles: TypeAlias = Mapping[Key, str]  # a node's role as its matched counterpart's name tells it


def _key_origins(side: Side, start: Key, roles: Roles) -> frozenset[Origin]:
    """The nodes that last set the key of records reaching ``start`` (``_Origins.of``), walking
    afresh; kept for graphs with a cycle, where results cannot be shared between walks."""
    out: set[Origin] = set()
    seen: set[State] = set()
    stack = _initial(side, start)
    kinds: dict[Key, int] = {}
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        found, upstream = _step(side, state, roles, kinds)
        out |= found
        stack.extend(upstream)
    return frozenset(out)


def _preds(side: Side, key: Key) -> frozenset[Key]:
    """The keys of the predecessors of the node ``key`` (none for a name not of a node)."""
    names = side.pred.get(key[1])
    return EMPTY_KEYS if names is None else keys_of(names, side.topology)


def _initial(side: Side, start: Key) -> list[State]:
    if isinstance(side.nodes[start[1]].node, Source):
        return [(start, None, False, False)]
    states: list[State] = []  # a loop, not a comprehension: most nodes have one predecessor
    for k in _preds(side, start):
        states.append((k, None, False, False))
    return states


def _role(key: Key, roles: Roles) -> str | None:
    """What the operator is: its name's prefix or suffix, else its matched counterpart's."""
    role = naming.role_of(key[1])
    if role is None and key in roles:
        role = naming.role_of(roles[key])
    return role


_NO_ORIGINS: frozenset[Origin] = frozenset()
# what ``_step`` needs of an operator's role (``_kind``): none known, one that sets the key, other
_UNKNOWN, _KEY_SETTER, _KNOWN = 0, 1, 2


@functools.lru_cache(maxsize=1 << 16)
def _kind_of(name: str) -> int | None:
    """``_kind`` of an operator as its name alone tells it (None: the name tells nothing).
    Asked of every node a walk meets, on both sides of every diff: the same few names."""
    role = naming.role_of(name)
    if role is None:
        return None
    op = naming.OPERATORS.get(role)
    return _KEY_SETTER if op is not None and op.key_changing else _KNOWN


def _kind(key: Key, roles: Roles) -> int:
    """What ``_role`` says of the operator, as ``_step`` needs it."""
    kind = _kind_of(key[1])
    if kind is None and key in roles:
        kind = _kind_of(roles[key])
    return _UNKNOWN if kind is None else kind


def _step(
    side: Side, state: State, roles: Roles, kinds: dict[Key, int]
) -> tuple[frozenset[Origin], list[State]]:
    """One node of the walk upstream: the origins it settles, and the states to visit next.
    ``kinds`` keeps each operator's ``_kind`` for the walk (a node is met in several states).

    A known key-changing operator is an origin. Repartition plumbing is skipped and internal
    topics are followed to their writers. The DSL only repartitions after a key change (or an
    explicit ``repartition()``), so behind a repartition topic some operator set the key: the
    first known key changer met, else the operator of unknown role (a chosen name) nearest the
    repartition topic, which is certain only when no other operator of unknown role sits between
    it and the previous repartition topic or source. With no repartition on the way, or only
    operators of known roles that keep the key, the key is the one the source read.
    """
    key, pending, crossed, unsure = state
    info = side.nodes.get(key[1])
    if info is None:
        return _NO_ORIGINS, []
    node = info.node
    if isinstance(node, Source):
        internal = [t for t in node.topics if naming.is_internal_topic(t)]
        if pending is not None:  # set between this topic (or source) and the repartition
            return frozenset({(pending, not unsure)}), []
        if internal and not info.is_global:
            return _NO_ORIGINS, [
                (p, None, True, False)
                for t in internal
                for w in side.writers_of.get(t, ())
                for p in _preds(side, (key[0], w))
            ]
        return frozenset({(key, True)}), []
    kind = kinds.get(key)
    if kind is None:
        kind = kinds[key] = _kind(key, roles)
    if kind == _KEY_SETTER:
        return frozenset({(key, True)}), []
    if kind == _UNKNOWN and crossed:
        if pending is None:
            pending = key
        else:
            unsure = True
    # a loop, not a comprehension: most operators have one predecessor
    upstream: list[State] = []
    for p in _preds(side, key):
        upstream.append((p, pending, crossed, unsure))
    return _NO_ORIGINS, upstream


class _Origins:
    """``_key_origins`` for many starts on one side, sharing what the walks have in common:
    each state's origins are computed once (a walk per stateful node would be quadratic along a
    chain of stateful operators). Where a walk meets a cycle, that start walks afresh."""

    def __init__(self, side: Side, roles: Roles) -> None:
        self.side = side
        self.roles = roles
        self.done: dict[State, frozenset[Origin]] = {}
        self.cyclic: set[State] = set()
        self.kinds: dict[Key, int] = {}

    def of(self, start: Key) -> frozenset[Origin]:
        out: set[Origin] = set()
        for state in _initial(self.side, start):
            found = self._resolve(state)
            if found is None:
                return _key_origins(self.side, start, self.roles)
            out |= found
        return frozenset(out)

    def _resolve(self, root: State) -> frozenset[Origin] | None:
        """Origins reachable from ``root``; ``None`` when a cycle makes them incomplete."""
        done = self.done
        known = done.get(root)
        if known is not None:
            return known
        if root in self.cyclic:
            return None
        side, roles, cyclic, kinds = self.side, self.roles, self.cyclic, self.kinds
        first, upstream = _step(side, root, roles, kinds)
        frames: list[tuple[State, Iterator[State], set[Origin]]] = [
            (root, iter(upstream), set(first))
        ]
        on_path: set[State] = {root}
        while frames:
            state, upstream_it, found = frames[-1]
            for nxt in upstream_it:
                known = done.get(nxt)
                if known is not None:
                    found |= known
                elif nxt in on_path or nxt in cyclic:
                    cyclic |= on_path
                    return None
                else:  # enter it
                    got, upstream = _step(side, nxt, roles, kinds)
                    frames.append((nxt, iter(upstream), set(got)))
                    on_path.add(nxt)
                    break
            else:
                frames.pop()
                on_path.discard(state)
                done[state] = frozenset(found)
                if frames:
                    frames[-1][2].update(found)
        return done[root]


def _read_from(side: Side, origins: frozenset[Key]) -> tuple[frozenset[Key], frozenset[str]]:
    """Origins split into operators that set the key, and the topics (or patterns) of the
    sources whose key is kept as read."""
    setters: set[Key] = set()
    topics: set[str] = set()
    for k in origins:
        node = side.nodes[k[1]].node
        if isinstance(node, Source):
            topics |= node.topics
            if node.pattern is not None:
                topics.add(f"pattern {node.pattern}")
        else:
            setters.add(k)
    return frozenset(setters), frozenset(topics)


def _same_origins(
    b: Side, a: Side, ob: frozenset[Key], oa: frozenset[Key], fwd: Mapping[str, str]
) -> bool:
    """The key reaching a node comes from the same place on both sides: the same (matched)
    key-setting operators, and sources of the same topics. A source is the same origin when it
    reads the same topics, whatever the node matching made of it (a rewritten graph may rename
    or renumber every source), or when it is the matched source (its topic renamed)."""
    if frozenset(_image(k, fwd) for k in ob) == oa:
        return True
    setters_b, topics_b = _read_from(b, ob)
    setters_a, topics_a = _read_from(a, oa)
    return frozenset(_image(k, fwd) for k in setters_b) == setters_a and topics_b == topics_a


def _image(key: Key, fwd: Mapping[str, str]) -> Key:
    """The after key of the before node ``key``, or one no after key is (it is not matched)."""
    name = fwd.get(key[1])
    return ("", "?" + key[1]) if name is None else (key[0], name)


def _unknown_upstream(side: Side, origins: frozenset[Origin], roles: Roles) -> set[str]:
    """The operators of unknown role any of which may have set the key of an uncertain origin:
    the origin and those above it, up to the source or repartition topic before them."""
    out: set[str] = set()
    stack = [k for k, certain in origins if not certain]
    seen: set[Key] = set()
    while stack:
        key = stack.pop()
        info = side.nodes.get(key[1])
        if key in seen or info is None or isinstance(info.node, Source):
            continue
        seen.add(key)
        if _role(key, roles) is None:
            out.add(key[1])
        stack.extend(_preds(side, key))
    return out


def key_changes(
    b: Side,
    a: Side,
    fwd: Mapping[str, str],
    stores: Iterable[tuple[StoreInfo, StoreInfo]] = (),
    starts: AbstractSet[str] | None = None,
) -> tuple[list[KeyChange], list[KeyChange]]:
    """Every matched stateful processor or output sink whose key comes from elsewhere now; and
    every kept store whose single writer was not matched (renamed along with the operators
    around it), compared writer to writer, so that no kept store goes unchecked (the second
    list). Given ``starts`` (``diff_reach.walked``), a matched node not among them is not
    walked: its key comes from the same place on both sides."""
    # a chosen name says nothing of the operator; its generated counterpart on the other side may
    t = b.topology
    roles_a, roles_b = _Counterparts(fwd, t, inverse=True), _Counterparts(fwd, t, inverse=False)
    walk = _Walk(b, a, fwd, _Origins(b, roles_b), _Origins(a, roles_a))
    out: list[KeyChange] = []
    b_nodes, a_nodes, internal = b.nodes, a.nodes, naming.is_internal_topic
    # the matched nodes in before-name order (the walked ones only, given ``starts``)
    names = sorted(fwd) if starts is None else sorted(k for k in starts if k in fwd)
    for name in names:
        kb, ka = (t, name), (t, fwd[name])
        na = a_nodes[ka[1]]
        node = na.node
        if isinstance(node, Processor):
            if not node.stores or not b_nodes[name].node.stores:
                continue  # stateful: stores on both sides
        elif not isinstance(node, Sink) or internal(node.topic or ""):
            continue  # a source, or a sink to a repartition topic
        if na.is_global:
            continue
        change = walk.compare(kb, ka, node.stores)
        if change is not None:
            out.append(change)
    by_store: list[KeyChange] = []
    for sb, sa in stores:
        if sb.is_global or sa.is_global or len(sb.owners) != 1 or len(sa.owners) != 1:
            continue  # a join lists both sides' stores: which side writes is not known here
        kb, ka = (t, next(iter(sb.owners))), (t, next(iter(sa.owners)))
        if fwd.get(kb[1]) == ka[1] or kb[1] not in b.nodes or ka[1] not in a.nodes:
            continue  # compared above
        # a writer whose name does not say what it is (a Processor API processor, or a DSL one
        # named with Named.as) may key the store other than by the record key
        known = naming.role_of(kb[1]) is not None and naming.role_of(ka[1]) is not None
        change = walk.compare(kb, ka, frozenset({sa.name}), known_writers=known)
        if change is not None:
            by_store.append(change)
    return out, by_store


_NODE = operator.itemgetter(0)  # an origin's node


class _Counterparts(Mapping[Key, str]):
    """The name of each node's matched counterpart (a walk's ``roles``), read from the node
    matching of topology ``t``; the after side's inverse of it is made only when a walk asks
    (a chosen name)."""

    __slots__ = ("_fwd", "_pairs", "_t")

    def __init__(self, fwd: Mapping[str, str], t: str, *, inverse: bool) -> None:
        self._fwd = fwd
        self._t = t
        self._pairs: Mapping[str, str] | None = None if inverse else fwd

    def _map(self) -> Mapping[str, str]:
        if self._pairs is None:
            self._pairs = {ka: kb for kb, ka in self._fwd.items()}
        return self._pairs

    def __getitem__(self, key: Key) -> str:
        if key[0] != self._t:
            raise KeyError(key)
        return self._map()[key[1]]

    def __contains__(self, key: object) -> bool:
        return (
            isinstance(key, tuple) and len(key) == 2 and key[0] == self._t
            and key[1] in self._map()
        )

    def __iter__(self) -> Iterator[Key]:
        return zip(repeat(self._t), self._map())

    def __len__(self) -> int:
        return len(self._map())


@dataclass(slots=True)  # made once a diff: not frozen, so that its __init__ sets plain slots
class _Walk:
    b: Side
    a: Side
    fwd: Mapping[str, str]
    origins_b: _Origins
    origins_a: _Origins

    def compare(
        self, kb: Key, ka: Key, stores: frozenset[str], *, known_writers: bool = True
    ) -> KeyChange | None:
        """The key change between ``kb`` (before) and ``ka`` (after), or None when the key
        reaching them comes from the same place."""
        ob, oa = self.origins_b.of(kb), self.origins_a.of(ka)
        keys_b = frozenset(map(_NODE, ob))
        keys_a = frozenset(map(_NODE, oa))
        if _same_origins(self.b, self.a, keys_b, keys_a, self.fwd):
            return None
        na = self.a.nodes[ka[1]]
        unknown = _unknown_upstream(self.b, ob, self.origins_b.roles) | _unknown_upstream(
            self.a, oa, self.origins_a.roles
        )
        if not known_writers:
            unknown |= {k[1] for k in (kb, ka) if naming.role_of(k[1]) is None}
        return KeyChange(
            topology=na.topology,
            node=na.name,
            stores=stores,
            sink_topic=na.node.topic if isinstance(na.node, Sink) else None,
            subtopology=na.subtopology,
            before=frozenset(k[1] for k in keys_b),
            after=frozenset(k[1] for k in keys_a),
            line=na.line,
            certain=known_writers and all(c for _, c in ob | oa),
            unknown=frozenset(unknown),
        )
