"""One side of a diff, indexed (``diff_index`` has the items): every node, store, sub-topology
and topic of a describe() text under its key, with what the matching looks up (neighbours,
writers of a topic, parsed generated names). The loop here runs for every node of both sides of
every diff."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import repeat
from typing import TypeAlias

from linter.topology import naming
from linter.topology.diff_index import (
    _NODE_INFO,
    _TOPIC_INFO,
    EMPTY,
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
from linter.topology.model import Description, Node, Processor, Sink, Source, Subtopology, Topology


@dataclass(slots=True)
class Side:
    """One topology of a side (all the topologies of that name: named topologies are paired by
    name, and nothing is ever matched across two of them), its items keyed by name alone: a
    node, store or sub-topology (``str(id)``) by its name, a topic by ``role:name``."""

    topology: str  # its name, or "" for the unnamed one
    nodes: dict[str, NodeInfo]
    succ: dict[str, frozenset[str]]  # the model's own sets
    pred: dict[str, frozenset[str]]
    stores: dict[str, StoreInfo]
    subs: dict[str, SubtopologyInfo]
    topics: dict[str, TopicInfo]
    writers_of: dict[str, list[str]]  # topic -> sink names
    # the nodes whose names were chosen (not generated), in the order of ``nodes``
    chosen: list[str]
    # its generated nodes as the node matching aligns them (``SeqItem``), in the order of
    # ``nodes``; left empty by ``index(..., sequence=False)``
    sequence: list[SeqItem]

    def key(self, name: str) -> Key:
        """The diff's key of the item ``name`` (``TopologyDiff.node_map``'s)."""
        return (self.topology, name)


# What the alignment of generated names compares: (kind, canonical role, rest, endpoint)
SeqKey: TypeAlias = tuple[str, str, str, str]
# A generated node as its sequence sorts it: (index, rest, its ``SeqKey``, its name)
SeqItem: TypeAlias = tuple[int, str, SeqKey, str]


def groups(desc: Description) -> dict[str, list[Topology]]:
    """The topologies of ``desc`` by name (the unnamed one under ""), each a ``Side`` of the
    diff (describe() prints one unnamed topology; several named ones come concatenated)."""
    out: dict[str, list[Topology]] = {}
    for topology in desc.topologies:
        out.setdefault(topology.name or "", []).append(topology)
    return out


def index(topologies: list[Topology], t: str, *, sequence: bool = True) -> Side:
    """``topologies`` (all named ``t``) indexed. Without ``sequence``, the generated nodes are
    not collected (a diff of a topology against itself aligns none)."""
    nodes: dict[str, NodeInfo] = {}
    succ: dict[str, frozenset[str]] = {}
    pred: dict[str, frozenset[str]] = {}
    owners: dict[str, list[NodeInfo]] = {}
    subs: dict[str, SubtopologyInfo] = {}
    topic_nodes: dict[tuple[TopicRole, str], list[NodeInfo]] = {}
    writers_of: dict[str, list[str]] = {}
    chosen: list[str] = []
    seq: list[SeqItem] = []
    tables = _Tables(nodes, succ, pred, owners, topic_nodes, writers_of, chosen)
    for topology in topologies:
        tname = topology.name
        for sub in topology.subtopologies:
            subs[str(sub.id)] = _index_subtopology(sub, tname, tables, seq, sequence)
    stores: dict[str, StoreInfo] = {}
    for store, infos in owners.items():
        first = infos[0] if len(infos) == 1 else _first(infos)
        stores[store] = _store_info(
            first.topology,
            store,
            first.subtopology,
            first.is_global,
            frozenset([first.node.name]) if len(infos) == 1 else frozenset(
                [i.node.name for i in infos]
            ),
            first.node.position.line or None,  # its ``line``
        )
    topics: dict[str, TopicInfo] = {}
    made, topic_info = _TOPIC_INFO, TopicInfo
    for (role, topic), infos in topic_nodes.items():
        if len(infos) > 1:
            topics[f"{role}:{topic}"] = _topic_info(role, topic, infos)  # its ``key``
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
        topics[f"{role}:{topic}"] = info
    return Side(t, nodes, succ, pred, stores, subs, topics, writers_of, chosen, seq)


@dataclass(slots=True)
class _Tables:
    """The side's tables that ``_index_subtopology`` fills, node by node."""

    nodes: dict[str, NodeInfo]
    succ: dict[str, frozenset[str]]
    pred: dict[str, frozenset[str]]
    owners: dict[str, list[NodeInfo]]
    topic_nodes: dict[tuple[TopicRole, str], list[NodeInfo]]
    writers_of: dict[str, list[str]]
    chosen: list[str]


@functools.lru_cache(maxsize=1 << 14)
def keys_of(names: frozenset[str], t: str) -> frozenset[Key]:
    """(t, n) for n in names, made in C. The key walks (``diff_keys``, ``diff_flow``) walk
    these: the order they meet a node's neighbours in is the order of this set. Cached: the
    same neighbour sets recur from app to app."""
    return frozenset(zip(repeat(t), names))


def _index_subtopology(
    sub: Subtopology, tname: str | None, tables: _Tables, seq: list[SeqItem], sequence: bool
) -> SubtopologyInfo:
    """Index the nodes of ``sub`` into the side's tables; return its own summary. One pass
    over the nodes collects what the summary needs as well.

    This loop runs for every node of both sides of every diff: it dispatches on the node's exact
    class once (the model's three) and appends to the tables without a helper per node (a
    source has no predecessors, a sink no successors). Without ``sequence``, it collects no
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
    lean = not sequence
    for node in sub.nodes:
        info = made()  # NodeInfo(tname, sub_id, is_global, node), through its twin
        info.topology = tname
        info.subtopology = sub_id
        info.is_global = is_global
        info.node = node
        info.__class__ = node_info
        name = node.name
        node_names.append(name)
        nodes[name] = info
        gen = recognise(name)
        if gen is None:
            chosen.append(name)
        if isinstance(node, Processor):  # most nodes
            succ[name] = node.successors
            pred[name] = node.predecessors
            if gen is not None and not lean:  # its ``SeqItem``: a processor has no endpoint
                prefix, rest = gen.prefix, gen.rest
                seq.append(
                    (gen.index, rest, ("processor", canonical(prefix, prefix), rest, ""), name)
                )
            for store in node.stores:
                stores.append(store)
                listed = owners.get(store)
                if listed is None:
                    owners[store] = [info]
                else:
                    listed.append(info)
        elif isinstance(node, Source):
            succ[name] = node.successors
            pred[name] = EMPTY
            if gen is not None and not lean:
                seq.append(_seq_item(node, gen, name))
            for topic in node.topics:
                read.append(topic)
                role: TopicRole = (
                    "global" if is_global else "repartition" if internal(topic) else "source"
                )
                if not topic_name(topic):
                    patterns = True
                    if role == "source":
                        role = "pattern"
                listed = topic_nodes.get((role, topic))
                if listed is None:
                    topic_nodes[(role, topic)] = [info]
                else:
                    listed.append(info)
            if node.pattern is not None:
                patterns = True
                _add(topic_nodes, ("pattern", node.pattern), info)
        else:
            succ[name] = EMPTY
            pred[name] = node.predecessors
            if gen is not None and not lean:
                seq.append(_seq_item(node, gen, name))
            sink_topic = node.topic
            if sink_topic is not None:
                written.append(sink_topic)
                role = "repartition" if internal(sink_topic) else "sink"
                listed = topic_nodes.get((role, sink_topic))
                if listed is None:
                    topic_nodes[(role, sink_topic)] = [info]
                else:
                    listed.append(info)
                listed_names = writers_of.get(sink_topic)
                if listed_names is None:
                    writers_of[sink_topic] = [name]
                else:
                    listed_names.append(name)
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


def _seq_item(node: Source | Sink, gen: naming.GeneratedName, name: str) -> SeqItem:
    """The ``SeqItem`` of a generated source or sink."""
    prefix, rest = gen.prefix, gen.rest
    return (
        gen.index, rest, (node.kind, naming.CANONICAL_ROLES.get(prefix, prefix), rest,
                          endpoint(node)), name,
    )


def _add(table: dict[tuple[TopicRole, str], list[NodeInfo]],
         key: tuple[TopicRole, str], info: NodeInfo) -> None:
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
