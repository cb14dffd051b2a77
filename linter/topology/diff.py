"""Matching two versions of a topology: which sub-topology, node, store and topic of ``before`` is
which of ``after``. Rules only judge the result; all correlation lives here.

Order of matching, per topology (named topologies are paired by name):

1. nodes by name when the name was chosen by a user (stable by construction);
2. generated nodes by their order in the builder's index sequence: an operator inserted or removed
   earlier shifts every later index, so the two sequences of operator prefixes are aligned
   (longest common subsequence) instead of compared name by name;
3. what is left by position in the graph: an unmatched neighbour of a matched pair on each side,
   with a compatible role, is the same operator;
4. stores by name, then by the processors that own them; sub-topologies by shared content; topics
   by name, then by the nodes that read or write them.

Printing order never matters: the model holds sets, and everything here is sorted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeAlias, TypeVar

from linter.topology import align, naming
from linter.topology.model import Description, Node, Sink, Source

T = TypeVar("T")
How: TypeAlias = Literal["name", "index", "structure", "owner", "content", "nodes"]
TopicRole: TypeAlias = Literal["source", "sink", "repartition", "global"]
Key: TypeAlias = tuple[str, str]  # (topology name or "", node/store/topic name)


@dataclass(frozen=True, slots=True)
class NodeInfo:
    topology: str | None
    subtopology: int
    is_global: bool
    node: Node

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def key(self) -> Key:
        return (self.topology or "", self.node.name)

    @property
    def line(self) -> int | None:
        return self.node.position.line or None


@dataclass(frozen=True, slots=True)
class StoreInfo:
    topology: str | None
    name: str
    subtopology: int
    is_global: bool
    owners: frozenset[str]  # the processors listing the store
    line: int | None = None  # line of the first owner that lists it

    @property
    def key(self) -> Key:
        return (self.topology or "", self.name)


@dataclass(frozen=True, slots=True)
class SubtopologyInfo:
    topology: str | None
    id: int
    is_global: bool
    nodes: frozenset[str]
    stores: frozenset[str]
    source_topics: frozenset[str]  # topics read by its Source nodes (incl. internal ones)
    sink_topics: frozenset[str]
    line: int | None = None

    @property
    def key(self) -> Key:
        return (self.topology or "", str(self.id))

    @property
    def stateful(self) -> bool:
        return bool(self.stores)

    @property
    def external_sources(self) -> frozenset[str]:
        return frozenset(t for t in self.source_topics if not naming.is_internal_topic(t))


@dataclass(frozen=True, slots=True)
class TopicInfo:
    """A topic as one side of the topology uses it: ``role`` is ``source``/``sink`` for user
    topics, ``repartition`` for internal ones, ``global`` for a global store's topic."""

    topology: str | None
    name: str
    role: TopicRole
    writers: frozenset[str]  # sink nodes
    readers: frozenset[str]  # source nodes
    subtopologies: frozenset[int]
    line: int | None = None

    @property
    def key(self) -> Key:
        return (self.topology or "", f"{self.role}:{self.name}")


@dataclass(frozen=True, slots=True)
class Pair(Generic[T]):
    """One item of ``before`` matched to one of ``after``; ``changes`` names what differs
    (``renamed``, ``subtopology``, ``successors``, ``predecessors``, ``stores``, ``topics``,
    ``owners``, ``nodes``, ``sources``, ``sinks``...)."""

    before: T
    after: T
    how: How
    changes: frozenset[str] = frozenset()

    @property
    def changed(self) -> bool:
        return bool(self.changes)


@dataclass(frozen=True, slots=True)
class Matching(Generic[T]):
    pairs: tuple[Pair[T], ...] = ()
    added: tuple[T, ...] = ()
    removed: tuple[T, ...] = ()

    @property
    def changed(self) -> tuple[Pair[T], ...]:
        return tuple(p for p in self.pairs if p.changes)


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


@dataclass(frozen=True, slots=True)
class TopologyDiff:
    """Everything the rules need to judge an upgrade from ``before`` to ``after``."""

    before: Description
    after: Description
    subtopologies: Matching[SubtopologyInfo]
    nodes: Matching[NodeInfo]
    stores: Matching[StoreInfo]
    topics: Matching[TopicInfo]
    key_changes: tuple[KeyChange, ...] = ()
    node_map: Mapping[Key, Key] = field(default_factory=dict)  # before key -> after key

    @property
    def identical(self) -> bool:
        return self.before == self.after

    @property
    def before_path(self) -> str | None:
        return self.before.path

    @property
    def after_path(self) -> str | None:
        return self.after.path


# --- side indexes ----------------------------------------------------------------------------


@dataclass(slots=True)
class _Side:
    nodes: dict[Key, NodeInfo]
    succ: dict[Key, frozenset[Key]]
    pred: dict[Key, frozenset[Key]]
    stores: dict[Key, StoreInfo]
    subs: dict[Key, SubtopologyInfo]
    topics: dict[Key, TopicInfo]
    writers_of: dict[tuple[str, str], list[Key]]  # (topology, topic) -> sink keys


def _index(desc: Description, names: Mapping[int, str | None]) -> _Side:
    nodes: dict[Key, NodeInfo] = {}
    succ: dict[Key, frozenset[Key]] = {}
    pred: dict[Key, frozenset[Key]] = {}
    owners: dict[Key, list[NodeInfo]] = defaultdict(list)
    subs: dict[Key, SubtopologyInfo] = {}
    topic_nodes: dict[tuple[str, TopicRole, str], list[NodeInfo]] = defaultdict(list)
    writers_of: dict[tuple[str, str], list[Key]] = defaultdict(list)
    for ti, topology in enumerate(desc.topologies):
        tname = names[ti]
        t = tname or ""
        for sub in topology.subtopologies:
            for node in sub.nodes:
                info = NodeInfo(tname, sub.id, sub.is_global, node)
                key = (t, node.name)
                nodes[key] = info
                succ[key] = frozenset((t, s) for s in node.successors)
                pred[key] = frozenset((t, p) for p in node.predecessors)
                for store in node.stores:
                    owners[(t, store)].append(info)
                if isinstance(node, Source):
                    for topic in node.topics:
                        role: TopicRole = "global" if sub.is_global else (
                            "repartition" if naming.is_internal_topic(topic) else "source"
                        )
                        topic_nodes[(t, role, topic)].append(info)
                    if node.pattern is not None:
                        topic_nodes[(t, "source", node.pattern)].append(info)
                elif isinstance(node, Sink) and node.topic is not None:
                    internal = naming.is_internal_topic(node.topic)
                    topic_nodes[(t, "repartition" if internal else "sink", node.topic)].append(info)
                    writers_of[(t, node.topic)].append(key)
            subs[(t, str(sub.id))] = SubtopologyInfo(
                topology=tname,
                id=sub.id,
                is_global=sub.is_global,
                nodes=frozenset(n.name for n in sub.nodes),
                stores=sub.stores,
                source_topics=sub.source_topics
                | frozenset(n.pattern for n in sub.nodes if isinstance(n, Source) and n.pattern),
                sink_topics=sub.sink_topics,
                line=sub.position.line or None,
            )
    stores: dict[Key, StoreInfo] = {}
    for (t, store), infos in owners.items():
        first = min(infos, key=lambda i: (i.subtopology, i.name))
        stores[(t, store)] = StoreInfo(
            topology=first.topology,
            name=store,
            subtopology=first.subtopology,
            is_global=first.is_global,
            owners=frozenset(i.name for i in infos),
            line=first.line,
        )
    topics: dict[Key, TopicInfo] = {}
    for (_t, role, topic), infos in topic_nodes.items():
        first = min(infos, key=lambda i: (i.subtopology, i.name))
        info_t = TopicInfo(
            topology=first.topology,
            name=topic,
            role=role,
            writers=frozenset(i.name for i in infos if isinstance(i.node, Sink)),
            readers=frozenset(i.name for i in infos if isinstance(i.node, Source)),
            subtopologies=frozenset(i.subtopology for i in infos),
            line=first.line,
        )
        topics[info_t.key] = info_t
    return _Side(nodes, succ, pred, stores, subs, topics, writers_of)


def _topology_names(desc: Description) -> dict[int, str | None]:
    """Topologies are paired by name (``Topology: <name>:``); the unnamed one with the unnamed one.
    (describe() prints one unnamed topology; several named ones come concatenated.)"""
    return {i: t.name for i, t in enumerate(desc.topologies)}


# --- node matching ---------------------------------------------------------------------------


def _kind(info: NodeInfo) -> str:
    return info.node.kind


SeqKey: TypeAlias = tuple[str, str, str, str]


def _endpoint(info: NodeInfo) -> str:
    """What a source or sink connects to: the user topic itself (a strong anchor), or just
    ``~internal`` for repartition plumbing (whose names shift with the indices)."""
    node = info.node
    if isinstance(node, Sink):
        topic = node.topic or node.extractor or ""
        return "~internal" if naming.is_internal_topic(topic) else topic
    if isinstance(node, Source):
        topics = sorted(node.topics) or [node.pattern or ""]
        return "~internal" if any(naming.is_internal_topic(t) for t in topics) else ",".join(topics)
    return ""


def _gen_key(info: NodeInfo) -> SeqKey | None:
    gen = naming.generated(info.name)
    if gen is None:
        return None
    return (_kind(info), naming.canonical_role(gen.prefix), gen.rest, _endpoint(info))


def _compatible(a: NodeInfo, b: NodeInfo) -> bool:
    if _kind(a) != _kind(b):
        return False
    ea, eb = _endpoint(a), _endpoint(b)
    if ea != eb and "~internal" in (ea, eb):
        return False  # repartition plumbing is never a user topic's source or sink
    ra, rb = naming.role_of(a.name), naming.role_of(b.name)
    return ra is None or rb is None or naming.canonical_role(ra) == naming.canonical_role(rb)


def _match_nodes(b: _Side, a: _Side) -> tuple[dict[Key, Key], dict[Key, How]]:
    fwd: dict[Key, Key] = {}
    how: dict[Key, How] = {}
    # 1. chosen names
    for key, info in b.nodes.items():
        if (
            key in a.nodes
            and not naming.is_generated(info.name)
            and _kind(a.nodes[key]) == _kind(info)
        ):
            fwd[key], how[key] = key, "name"
    # 2. generated names: align the index sequences per topology
    for t in sorted({k[0] for k in b.nodes} & {k[0] for k in a.nodes}):
        seq_b = _generated_sequence(b, t)
        seq_a = _generated_sequence(a, t)
        for kb, ka in _align(seq_b, seq_a):
            fwd[kb], how[kb] = ka, "index"
    # 3. structure: propagate along matched edges until nothing changes
    _propagate(b, a, fwd, how)
    return fwd, how


def _generated_sequence(side: _Side, topology: str) -> list[tuple[SeqKey, Key]]:
    items: list[tuple[int, str, SeqKey, Key]] = []
    for key, info in side.nodes.items():
        if key[0] != topology:
            continue
        gk = _gen_key(info)
        gen = naming.generated(info.name)
        if gk is not None and gen is not None:
            items.append((gen.index, gen.rest, gk, key))
    items.sort()
    return [(gk, key) for _, _, gk, key in items]


def _align(
    seq_b: list[tuple[SeqKey, Key]], seq_a: list[tuple[SeqKey, Key]]
) -> Iterable[tuple[Key, Key]]:
    """The two index sequences aligned on their operator roles (``align.align``)."""
    for i, j in align.align([k for k, _ in seq_b], [k for k, _ in seq_a]):
        yield seq_b[i][1], seq_a[j][1]


def _propagate(b: _Side, a: _Side, fwd: dict[Key, Key], how: dict[Key, How]) -> None:
    matched_after = set(fwd.values())
    frontier = sorted(fwd)
    while frontier:
        next_frontier: list[Key] = []
        for kb in frontier:
            ka = fwd[kb]
            for nb_b, nb_a in ((b.succ, a.succ), (b.pred, a.pred)):
                free_b = [k for k in nb_b.get(kb, ()) if k not in fwd and k in b.nodes]
                free_a = [k for k in nb_a.get(ka, ()) if k not in matched_after and k in a.nodes]
                if not free_b or not free_a:
                    continue
                for xb in sorted(free_b):
                    cands = [xa for xa in free_a if xa not in matched_after
                             and _compatible(b.nodes[xb], a.nodes[xa])]
                    rivals = [yb for yb in free_b if yb not in fwd
                              and any(_compatible(b.nodes[yb], a.nodes[c]) for c in cands)]
                    if len(cands) == 1 and rivals == [xb]:
                        fwd[xb], how[xb] = cands[0], "structure"
                        matched_after.add(cands[0])
                        next_frontier.append(xb)
        frontier = sorted(next_frontier)


def _node_changes(p_b: NodeInfo, p_a: NodeInfo, fwd: Mapping[Key, Key], b: _Side, a: _Side,
                  store_map: Mapping[Key, Key], sub_map: Mapping[Key, Key]) -> frozenset[str]:
    ch: set[str] = set()
    if p_b.name != p_a.name:
        gb, ga = naming.generated(p_b.name), naming.generated(p_a.name)
        same_role = gb is not None and ga is not None and gb.role_key == ga.role_key
        ch.add("reindexed" if same_role else "renamed")
    t_b, t_a = p_b.topology or "", p_a.topology or ""
    if sub_map.get((t_b, str(p_b.subtopology))) != (t_a, str(p_a.subtopology)):
        ch.add("subtopology")
    if p_b.subtopology != p_a.subtopology:
        ch.add("subtopology-id")
    if {fwd.get(k) for k in b.succ[p_b.key]} != set(a.succ[p_a.key]):
        ch.add("successors")
    if {fwd.get(k) for k in b.pred[p_b.key]} != set(a.pred[p_a.key]):
        ch.add("predecessors")
    if {store_map.get((t_b, s)) for s in p_b.node.stores} != {(t_a, s) for s in p_a.node.stores}:
        ch.add("stores")
    nb, na = p_b.node, p_a.node
    if isinstance(nb, Source) and isinstance(na, Source) and (
        nb.topics != na.topics or nb.pattern != na.pattern
    ):
        ch.add("topics")
    if isinstance(nb, Sink) and isinstance(na, Sink) and (
        nb.topic != na.topic or nb.extractor != na.extractor
    ):
        ch.add("topic")
    return frozenset(ch)


# --- stores, sub-topologies, topics ----------------------------------------------------------


def _match_stores(b: _Side, a: _Side, fwd: Mapping[Key, Key]) -> dict[Key, tuple[Key, How]]:
    out: dict[Key, tuple[Key, How]] = {}
    taken: set[Key] = set()
    for key in sorted(b.stores):
        if key in a.stores:
            out[key] = (key, "name")
            taken.add(key)
    # by owner: the after-stores listed by the matched owners, best overlap first
    scored: list[tuple[int, Key, Key]] = []
    for key, info in b.stores.items():
        if key in out:
            continue
        t = key[0]
        mapped = {fwd.get((t, o)) for o in info.owners} - {None}
        cands: dict[Key, int] = defaultdict(int)
        for m in mapped:
            assert m is not None
            node = a.nodes[m].node
            for s in node.stores:
                cands[(m[0], s)] += 1
        for ka, score in cands.items():
            if ka not in taken and ka not in b.stores:
                scored.append((-score, key, ka))
    for _, kb, ka in sorted(scored):
        if kb not in out and ka not in taken:
            out[kb] = (ka, "owner")
            taken.add(ka)
    return out


def _match_subtopologies(
    b: _Side, a: _Side, fwd: Mapping[Key, Key], stores: Mapping[Key, tuple[Key, How]]
) -> dict[Key, Key]:
    score: dict[tuple[Key, Key], int] = defaultdict(int)
    for kb, ka in fwd.items():
        ib, ia = b.nodes[kb], a.nodes[ka]
        if ib.is_global == ia.is_global:
            score[((kb[0], str(ib.subtopology)), (ka[0], str(ia.subtopology)))] += 1
    for kb, (ka, _) in stores.items():
        sb, sa = b.stores[kb], a.stores[ka]
        if sb.is_global == sa.is_global:
            score[((kb[0], str(sb.subtopology)), (ka[0], str(sa.subtopology)))] += 3
    out: dict[Key, Key] = {}
    taken: set[Key] = set()
    ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0][0] != kv[0][1], kv[0]))
    for (sub_b, sub_a), _ in ranked:
        if sub_b not in out and sub_a not in taken:
            out[sub_b] = sub_a
            taken.add(sub_a)
    return out


def _match_topics(b: _Side, a: _Side, fwd: Mapping[Key, Key]) -> dict[Key, tuple[Key, How]]:
    out: dict[Key, tuple[Key, How]] = {}
    taken: set[Key] = set()
    for key in sorted(b.topics):
        if key in a.topics:
            out[key] = (key, "name")
            taken.add(key)
    by_node: dict[tuple[Key, str], Key] = {}  # (after node key, role) -> after topic key
    for ka, ta in a.topics.items():
        for n in ta.writers | ta.readers:
            by_node.setdefault(((ka[0], n), ta.role), ka)
    for kb in sorted(b.topics):
        if kb in out:
            continue
        tb = b.topics[kb]
        for n in sorted(tb.writers | tb.readers):
            m = fwd.get((kb[0], n))
            found = by_node.get((m, tb.role)) if m is not None else None
            if found is not None and found not in taken and found not in b.topics:
                out[kb] = (found, "nodes")
                taken.add(found)
                break
    return out


# --- keys ------------------------------------------------------------------------------------


def _key_origins(side: _Side, start: Key) -> frozenset[Key]:
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


def _feeds_repartition(side: _Side, key: Key) -> bool:
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


def _key_changes(b: _Side, a: _Side, fwd: Mapping[Key, Key]) -> list[KeyChange]:
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


# --- the diff --------------------------------------------------------------------------------


def diff(before: Description, after: Description) -> TopologyDiff:
    """Match ``before`` to ``after``. Pure; the result is frozen and sorted."""
    b, a = _index(before, _topology_names(before)), _index(after, _topology_names(after))
    fwd, how = _match_nodes(b, a)
    store_match = _match_stores(b, a, fwd)
    sub_map = _match_subtopologies(b, a, fwd, store_match)
    topic_match = _match_topics(b, a, fwd)
    store_map = {kb: ka for kb, (ka, _) in store_match.items()}

    node_pairs = tuple(
        Pair(b.nodes[kb], a.nodes[ka], how[kb],
             _node_changes(b.nodes[kb], a.nodes[ka], fwd, b, a, store_map, sub_map))
        for kb, ka in sorted(fwd.items())
    )
    nodes = Matching(
        pairs=node_pairs,
        added=_sorted(a.nodes, set(fwd.values()), a.nodes),
        removed=_sorted(b.nodes, set(fwd), b.nodes),
    )

    def store_changes(sb: StoreInfo, sa: StoreInfo) -> frozenset[str]:
        ch = set()
        if sb.name != sa.name:
            ch.add("renamed")
        if sb.subtopology != sa.subtopology:
            ch.add("subtopology")
        if {fwd.get((sb.topology or "", o)) for o in sb.owners} != {
            (sa.topology or "", o) for o in sa.owners
        }:
            ch.add("owners")
        if sb.is_global != sa.is_global:
            ch.add("global")
        return frozenset(ch)

    stores = Matching(
        pairs=tuple(
            Pair(b.stores[kb], a.stores[ka], h, store_changes(b.stores[kb], a.stores[ka]))
            for kb, (ka, h) in sorted(store_match.items())
        ),
        added=_sorted(a.stores, set(store_map.values()), a.stores),
        removed=_sorted(b.stores, set(store_map), b.stores),
    )

    def sub_changes(sb: SubtopologyInfo, sa: SubtopologyInfo) -> frozenset[str]:
        ch = set()
        if sb.id != sa.id:
            ch.add("renumbered")
        t_b, t_a = sb.topology or "", sa.topology or ""
        if {fwd.get((t_b, n)) for n in sb.nodes} != {(t_a, n) for n in sa.nodes}:
            ch.add("nodes")
        if {store_map.get((t_b, s)) for s in sb.stores} != {(t_a, s) for s in sa.stores}:
            ch.add("stores")
        if sb.source_topics != sa.source_topics:
            ch.add("sources")
        if sb.sink_topics != sa.sink_topics:
            ch.add("sinks")
        return frozenset(ch)

    subtopologies = Matching(
        pairs=tuple(
            Pair(b.subs[kb], a.subs[ka], "content", sub_changes(b.subs[kb], a.subs[ka]))
            for kb, ka in sorted(sub_map.items())
        ),
        added=_sorted(a.subs, set(sub_map.values()), a.subs),
        removed=_sorted(b.subs, set(sub_map), b.subs),
    )

    def topic_changes(tb: TopicInfo, ta: TopicInfo) -> frozenset[str]:
        ch = set()
        if tb.name != ta.name:
            ch.add("renamed")
        t_b, t_a = tb.topology or "", ta.topology or ""
        if {fwd.get((t_b, n)) for n in tb.writers} != {(t_a, n) for n in ta.writers}:
            ch.add("writers")
        if {fwd.get((t_b, n)) for n in tb.readers} != {(t_a, n) for n in ta.readers}:
            ch.add("readers")
        return frozenset(ch)

    topic_map = {kb: ka for kb, (ka, _) in topic_match.items()}
    topics = Matching(
        pairs=tuple(
            Pair(b.topics[kb], a.topics[ka], h, topic_changes(b.topics[kb], a.topics[ka]))
            for kb, (ka, h) in sorted(topic_match.items())
        ),
        added=_sorted(a.topics, set(topic_map.values()), a.topics),
        removed=_sorted(b.topics, set(topic_map), b.topics),
    )
    return TopologyDiff(
        before=before,
        after=after,
        subtopologies=subtopologies,
        nodes=nodes,
        stores=stores,
        topics=topics,
        key_changes=tuple(_key_changes(b, a, fwd)),
        node_map=dict(sorted(fwd.items())),
    )


def _sorted(keys: Iterable[Key], exclude: set[Key], table: Mapping[Key, T]) -> tuple[T, ...]:
    return tuple(table[k] for k in sorted(set(keys) - exclude))
