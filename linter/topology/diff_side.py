"""One side of a diff, indexed (``diff_index`` has the items): every node, store, sub-topology
and topic of a describe() text under its key, with what the matching looks up (neighbours,
writers of a topic, parsed generated names). The loop here runs for every node of both sides of
every diff."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import repeat
from typing import TypeAlias

from linter.topology import naming
from linter.topology.diff_index import (
    _NODE_INFO,
    _TOPIC_INFO,
    EMPTY,
    EMPTY_KEYS,
    Key,
    NodeInfo,
    StoreInfo,
    SubtopologyInfo,
    TopicInfo,
    TopicRole,
    _store_info,
    _sub_info,
    _topic_info_of,
)
from linter.topology.model import Description, Node, Processor, Sink, Source, Subtopology


@dataclass(slots=True)
class Side:
    nodes: dict[Key, NodeInfo]
    succ: dict[Key, frozenset[Key]]
    pred: dict[Key, frozenset[Key]]
    stores: dict[Key, StoreInfo]
    subs: dict[Key, SubtopologyInfo]
    topics: dict[Key, TopicInfo]
    writers_of: dict[tuple[str, str], list[Key]]  # (topology, topic) -> sink keys
    # the nodes whose names were chosen (not generated), in the order of ``nodes``
    chosen: list[Key]
    # per topology, its generated nodes as the node matching aligns them (``SeqItem``), in the
    # order of ``nodes``; left empty on ``index``'s lean side
    sequences: dict[str, list[SeqItem]]


# What the alignment of generated names compares: (kind, canonical role, rest, endpoint)
SeqKey: TypeAlias = tuple[str, str, str, str]
# A generated node as its sequence sorts it: (index, rest, its ``SeqKey``, its key)
SeqItem: TypeAlias = tuple[int, str, SeqKey, Key]


# neighbour name sets as key sets, per topology name: made once (``_index_subtopology``), shared
# by the two sides of a diff
KeyedSets: TypeAlias = dict[str, dict[frozenset[str], frozenset[Key]]]
# the neighbour name sets met, per topology name (``index``'s lean side)
Neighbours: TypeAlias = dict[str, set[frozenset[str]]]


def index(
    desc: Description,
    names: Mapping[int, str | None],
    keyed_sets: KeyedSets | None = None,
    *,
    neighbours: Neighbours | None = None,
) -> Side:
    """``desc`` indexed. The two versions of a diff mostly have the same neighbour sets: given
    the same ``keyed_sets``, the second side reuses the keys the first one made.

    Given ``neighbours``, the side is made without ``succ`` and ``pred`` (left empty): the
    neighbour name sets of each topology are collected there instead, for a diff of a topology
    against itself, which only asks whether they name nodes (``diff._regular_names``)."""
    keyed_sets = {} if keyed_sets is None else keyed_sets
    nodes: dict[Key, NodeInfo] = {}
    succ: dict[Key, frozenset[Key]] = {}
    pred: dict[Key, frozenset[Key]] = {}
    owners: dict[Key, list[NodeInfo]] = {}
    subs: dict[Key, SubtopologyInfo] = {}
    topic_nodes: dict[tuple[str, TopicRole, str], list[NodeInfo]] = {}
    writers_of: dict[tuple[str, str], list[Key]] = {}
    chosen: list[Key] = []
    sequences: dict[str, list[SeqItem]] = {}
    tables = _Tables(nodes, succ, pred, owners, topic_nodes, writers_of, chosen)
    for ti, topology in enumerate(desc.topologies):
        tname = names[ti]
        t = tname or ""
        # The parser shares one set between a node's successors and the next node's
        # predecessors (and between nodes with the same neighbours): key each set once.
        if neighbours is None:
            keyed: dict[frozenset[str], frozenset[Key]] | None = keyed_sets.setdefault(
                t, {EMPTY: EMPTY_KEYS}
            )
            sets = None
        else:
            keyed, sets = None, neighbours.setdefault(t, set())
        seq = sequences.setdefault(t, [])
        for sub in topology.subtopologies:
            subs[(t, str(sub.id))] = _index_subtopology(sub, t, tname, tables, keyed, seq, sets)
    stores: dict[Key, StoreInfo] = {}
    for (t, store), infos in owners.items():
        first = infos[0] if len(infos) == 1 else _first(infos)
        stores[(t, store)] = _store_info(
            first.topology,
            store,
            first.subtopology,
            first.is_global,
            frozenset([first.node.name]) if len(infos) == 1 else frozenset(
                [i.node.name for i in infos]
            ),
            first.node.position.line or None,  # its ``line``
        )
    topics: dict[Key, TopicInfo] = {}
    made, topic_info = _TOPIC_INFO, TopicInfo
    for (t, role, topic), infos in topic_nodes.items():
        if len(infos) > 1:
            topics[(t, f"{role}:{topic}")] = _topic_info(role, topic, infos)  # its ``key``
            continue
        # the usual topic, one node reads or writes it: its TopicInfo made inline, through
        # the twin (a call or two per topic otherwise)
        first = infos[0]
        node = first.node
        named = frozenset([node.name])
        info = made()
        info.topology = first.topology
        info.name = topic
        info.role = role
        if type(node) is Sink:
            info.writers, info.readers = named, EMPTY
        else:
            info.writers, info.readers = EMPTY, named
        info.subtopologies = frozenset([first.subtopology])
        info.line = node.position.line or None
        info.__class__ = topic_info
        topics[(t, f"{role}:{topic}")] = info
    return Side(nodes, succ, pred, stores, subs, topics, writers_of, chosen, sequences)


@dataclass(slots=True)
class _Tables:
    """The side's tables that ``_index_subtopology`` fills, node by node."""

    nodes: dict[Key, NodeInfo]
    succ: dict[Key, frozenset[Key]]
    pred: dict[Key, frozenset[Key]]
    owners: dict[Key, list[NodeInfo]]
    topic_nodes: dict[tuple[str, TopicRole, str], list[NodeInfo]]
    writers_of: dict[tuple[str, str], list[Key]]
    chosen: list[Key]


def _ignored(names: frozenset[str]) -> None:
    """Where ``_index_subtopology`` puts neighbour sets when it does not collect them."""


def _keyed(
    names: frozenset[str], t: str, keyed: dict[frozenset[str], frozenset[Key]]
) -> frozenset[Key]:
    """``names`` as keys of topology ``t``, made once per set (``keyed``)."""
    found = keyed[names] = _keys_of(names, t)
    return found


@functools.lru_cache(maxsize=1 << 14)
def _keys_of(names: frozenset[str], t: str) -> frozenset[Key]:
    """(t, n) for n in names, made in C. Cached: the same neighbour sets recur from app to
    app (a fleet's topologies share their shapes), and a hit costs a third of the making."""
    return frozenset(zip(repeat(t), names))


def _index_subtopology(
    sub: Subtopology,
    t: str,
    tname: str | None,
    tables: _Tables,
    keyed: dict[frozenset[str], frozenset[Key]] | None,
    seq: list[SeqItem],
    sets: set[frozenset[str]] | None = None,
) -> SubtopologyInfo:
    """Index the nodes of ``sub`` into the side's tables; return its own summary. One pass
    over the nodes collects what the summary needs as well.

    This loop runs for every node of both sides of every diff: it dispatches on the node's exact
    class once (the model's three), keys neighbour sets inline (a source has no predecessors, a
    sink no successors) and appends to the tables without a helper per node. Without ``keyed``,
    it collects the neighbour name sets in ``sets`` instead (``index``'s lean side), and no
    generated nodes in ``seq``."""
    is_global, sub_id = sub.is_global, sub.id
    nodes, succ, pred, chosen = tables.nodes, tables.succ, tables.pred, tables.chosen
    owners, topic_nodes, writers_of = tables.owners, tables.topic_nodes, tables.writers_of
    # Listed in the order the model's own properties meet them, so that the sets come out as
    # those would (set iteration order follows insertion order).
    node_names: list[str] = []
    stores: list[str] = []
    read: list[str] = []
    written: list[str] = []
    patterns = False
    recognise, internal, topic_name = naming.generated, naming.is_internal_topic, _is_topic_name
    made, node_info, canonical = _NODE_INFO, NodeInfo, naming.CANONICAL_ROLES.get
    lean = keyed is None
    keys: dict[frozenset[str], frozenset[Key]] = {} if keyed is None else keyed
    get = keys.get
    add = _ignored if sets is None else sets.add
    for node in sub.nodes:
        info = made()  # NodeInfo(tname, sub_id, is_global, node), through its twin
        info.topology = tname
        info.subtopology = sub_id
        info.is_global = is_global
        info.node = node
        info.__class__ = node_info
        name = node.name
        node_names.append(name)
        key = (t, name)
        nodes[key] = info
        gen = recognise(name)
        if gen is None:
            chosen.append(key)
        if isinstance(node, Processor):  # most nodes
            if lean:
                add(node.successors)
                add(node.predecessors)
            else:
                found = get(node.successors)
                succ[key] = _keyed(node.successors, t, keys) if found is None else found
                found = get(node.predecessors)
                pred[key] = _keyed(node.predecessors, t, keys) if found is None else found
                if gen is not None:  # its ``SeqItem``: a processor has no endpoint
                    prefix, rest = gen.prefix, gen.rest
                    seq.append(
                        (gen.index, rest, ("processor", canonical(prefix, prefix), rest, ""), key)
                    )
            for store in node.stores:
                stores.append(store)
                listed = owners.get((t, store))
                if listed is None:
                    owners[(t, store)] = [info]
                else:
                    listed.append(info)
        elif isinstance(node, Source):
            if lean:
                add(node.successors)
            else:
                found = get(node.successors)
                succ[key] = _keyed(node.successors, t, keys) if found is None else found
                pred[key] = EMPTY_KEYS
                if gen is not None:
                    seq.append(_seq_item(node, gen, key))
            for topic in node.topics:
                read.append(topic)
                role: TopicRole = (
                    "global" if is_global else "repartition" if internal(topic) else "source"
                )
                if not topic_name(topic):
                    patterns = True
                    if role == "source":
                        role = "pattern"
                _add(topic_nodes, (t, role, topic), info)
            if node.pattern is not None:
                patterns = True
                _add(topic_nodes, (t, "pattern", node.pattern), info)
        else:
            if lean:
                add(node.predecessors)
            else:
                succ[key] = EMPTY_KEYS
                found = get(node.predecessors)
                pred[key] = _keyed(node.predecessors, t, keys) if found is None else found
                if gen is not None:
                    seq.append(_seq_item(node, gen, key))
            sink_topic = node.topic
            if sink_topic is not None:
                written.append(sink_topic)
                role = "repartition" if internal(sink_topic) else "sink"
                _add(topic_nodes, (t, role, sink_topic), info)
                listed_keys = writers_of.get((t, sink_topic))
                if listed_keys is None:
                    writers_of[(t, sink_topic)] = [key]
                else:
                    listed_keys.append(key)
    return _sub_info(
        tname,
        sub_id,
        is_global,
        frozenset(node_names),
        frozenset(stores),
        # source topics: without patterns, every topic read is a topic name
        frozenset([t for t in frozenset(read) if topic_name(t)] if patterns else read),
        frozenset(written),
        sub.position.line or None,
        _patterns(sub) if patterns else EMPTY,
    )


def endpoint(node: Node) -> str:
    """What a source or sink connects to: the user topic itself (a strong anchor), or just
    ``~internal`` for repartition plumbing (whose names shift with the indices)."""
    if isinstance(node, Sink):
        topic = node.topic or node.extractor or ""
        return "~internal" if naming.is_internal_topic(topic) else topic
    if isinstance(node, Source):
        if len(node.topics) == 1:  # most sources: what the lines below make of it, unsorted
            (topic,) = node.topics
            return "~internal" if naming.is_internal_topic(topic) else topic
        topics = sorted(node.topics) or [node.pattern or ""]
        for t in topics:  # a loop, not any() over a generator: asked of every source
            if naming.is_internal_topic(t):
                return "~internal"
        return ",".join(topics)
    return ""


def _seq_item(node: Source | Sink, gen: naming.GeneratedName, key: Key) -> SeqItem:
    """The ``SeqItem`` of a generated source or sink."""
    prefix, rest = gen.prefix, gen.rest
    return (
        gen.index, rest, (node.kind, naming.CANONICAL_ROLES.get(prefix, prefix), rest,
                          endpoint(node)), key,
    )


def _add(table: dict[tuple[str, TopicRole, str], list[NodeInfo]],
         key: tuple[str, TopicRole, str], info: NodeInfo) -> None:
    listed = table.get(key)
    if listed is None:
        table[key] = [info]
    else:
        listed.append(info)


# Asked of every topic a source reads, on both sides of every diff: a regex match each time
# otherwise, for the same few names.
_is_topic_name = functools.lru_cache(maxsize=1 << 16)(naming.is_topic_name)


def _patterns(sub: Subtopology) -> frozenset[str]:
    """Source patterns: printed bare, or a bracketed "topic" no topic name can be."""
    out: set[str] = set()
    for n in sub.nodes:
        if isinstance(n, Source):
            if n.pattern is not None:
                out.add(n.pattern)
            out |= {t for t in n.topics if not naming.is_topic_name(t)}
    return frozenset(out)


def _topic_info(role: TopicRole, topic: str, infos: list[NodeInfo]) -> TopicInfo:
    if len(infos) == 1:  # the usual case (one node reads or writes the topic): no filtering
        first = infos[0]
        node = first.node
        names = frozenset([node.name])
        writers, readers = (names, EMPTY) if type(node) is Sink else (EMPTY, names)
        subtopologies = frozenset([first.subtopology])
    else:
        first = _first(infos)
        writers = frozenset([i.node.name for i in infos if isinstance(i.node, Sink)])
        readers = frozenset([i.node.name for i in infos if isinstance(i.node, Source)])
        subtopologies = frozenset([i.subtopology for i in infos])
    return _topic_info_of(
        first.topology, topic, role, writers, readers, subtopologies,
        first.node.position.line or None,
    )


def _first(infos: list[NodeInfo]) -> NodeInfo:
    """The node that places a store or topic: in the lowest sub-topology, then by name."""
    first = infos[0]
    # a loop, not min() with a key function: a call per info, for a few infos (the writer and
    # the reader of a repartition topic); the first of the lowest, as min() takes
    for info in infos:
        if info.subtopology < first.subtopology or (
            info.subtopology == first.subtopology and info.node.name < first.node.name
        ):
            first = info
    return first


def topology_names(desc: Description) -> dict[int, str | None]:
    """Topologies are paired by name (``Topology: <name>:``); the unnamed one with the unnamed one.
    (describe() prints one unnamed topology; several named ones come concatenated.)"""
    return {i: t.name for i, t in enumerate(desc.topologies)}
