"""One side of a diff, indexed: every node, store, sub-topology and topic of a describe() text
under a key that is stable across versions (topology name, item name), with what the matching
needs to look up quickly (neighbours, owners, writers of a topic, parsed generated names)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypeAlias

from linter.topology import naming
from linter.topology.model import Description, Node, Processor, Sink, Source, Subtopology

How: TypeAlias = Literal["name", "index", "structure", "owner", "content", "nodes"]
TopicRole: TypeAlias = Literal["source", "pattern", "sink", "repartition", "global"]
Key: TypeAlias = tuple[str, str]  # (topology name or "", node/store/topic name)
EMPTY: frozenset[str] = frozenset()
EMPTY_KEYS: frozenset[Key] = frozenset()


class Change(StrEnum):
    """What differs between the two items of a matched pair (``Pair.changes``)."""

    RENAMED = "renamed"  # any item: another name
    REINDEXED = "reindexed"  # node: generated name, same operator, another index
    SUBTOPOLOGY = "subtopology"  # node, store: in another (matched) sub-topology
    SUBTOPOLOGY_ID = "subtopology-id"  # node: its sub-topology's number changed
    SUCCESSORS = "successors"  # node
    PREDECESSORS = "predecessors"  # node
    STORES = "stores"  # node, sub-topology
    TOPICS = "topics"  # source node: its topics or pattern
    TOPIC = "topic"  # sink node: its topic or topic extractor
    OWNERS = "owners"  # store: the processors that own it
    GLOBAL = "global"  # store: became global or stopped being
    RENUMBERED = "renumbered"  # sub-topology: another id
    NODES = "nodes"  # sub-topology
    SOURCES = "sources"  # sub-topology: source topics or patterns
    SINKS = "sinks"  # sub-topology
    WRITERS = "writers"  # topic
    READERS = "readers"  # topic


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


Setter: TypeAlias = Callable[[object, object], None]


def setters(cls: type, *fields: str) -> tuple[Setter, ...]:
    """The slot setters of a frozen dataclass's ``fields``: a trusted constructor that calls them
    on ``object.__new__(cls)`` makes the same object as ``cls(...)`` in about half the time (the
    generated ``__init__`` of a frozen class goes through ``object.__setattr__`` per field). For
    the objects a diff makes once per node; every field must be set."""
    return tuple(cls.__dict__[f].__set__ for f in fields)


_NEW = object.__new__
_SET_T, _SET_SUB, _SET_GLOBAL, _SET_NODE = setters(
    NodeInfo, "topology", "subtopology", "is_global", "node"
)


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
    patterns: frozenset[str] = frozenset()  # subscription patterns of its Source nodes

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
    topics, ``repartition`` for internal ones, ``global`` for a global store's topic, and
    ``pattern`` for a source's subscription pattern (``name`` is the regex: the topics it
    matches are not in the text)."""

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


_STORE_SET = setters(StoreInfo, "topology", "name", "subtopology", "is_global", "owners", "line")
_SUB_SET = setters(
    SubtopologyInfo, "topology", "id", "is_global", "nodes", "stores", "source_topics",
    "sink_topics", "line", "patterns",
)
_TOPIC_SET = setters(
    TopicInfo, "topology", "name", "role", "writers", "readers", "subtopologies", "line"
)


def _store_info(
    topology: str | None, name: str, subtopology: int, is_global: bool, owners: frozenset[str],
    line: int | None,
) -> StoreInfo:
    """``StoreInfo(...)`` with every field, made as ``setters`` says."""
    info: StoreInfo = _NEW(StoreInfo)
    s0, s1, s2, s3, s4, s5 = _STORE_SET
    s0(info, topology), s1(info, name), s2(info, subtopology), s3(info, is_global)
    s4(info, owners), s5(info, line)
    return info


def _sub_info(
    topology: str | None, id: int, is_global: bool, nodes: frozenset[str],
    stores: frozenset[str], source_topics: frozenset[str], sink_topics: frozenset[str],
    line: int | None, patterns: frozenset[str],
) -> SubtopologyInfo:
    """``SubtopologyInfo(...)`` with every field, made as ``setters`` says."""
    info: SubtopologyInfo = _NEW(SubtopologyInfo)
    s0, s1, s2, s3, s4, s5, s6, s7, s8 = _SUB_SET
    s0(info, topology), s1(info, id), s2(info, is_global), s3(info, nodes), s4(info, stores)
    s5(info, source_topics), s6(info, sink_topics), s7(info, line), s8(info, patterns)
    return info


def _topic_info_of(
    topology: str | None, name: str, role: TopicRole, writers: frozenset[str],
    readers: frozenset[str], subtopologies: frozenset[int], line: int | None,
) -> TopicInfo:
    """``TopicInfo(...)`` with every field, made as ``setters`` says."""
    info: TopicInfo = _NEW(TopicInfo)
    s0, s1, s2, s3, s4, s5, s6 = _TOPIC_SET
    s0(info, topology), s1(info, name), s2(info, role), s3(info, writers), s4(info, readers)
    s5(info, subtopologies), s6(info, line)
    return info


@dataclass(slots=True)
class Side:
    nodes: dict[Key, NodeInfo]
    succ: dict[Key, frozenset[Key]]
    pred: dict[Key, frozenset[Key]]
    stores: dict[Key, StoreInfo]
    subs: dict[Key, SubtopologyInfo]
    topics: dict[Key, TopicInfo]
    writers_of: dict[tuple[str, str], list[Key]]  # (topology, topic) -> sink keys
    generated: dict[Key, naming.GeneratedName | None]  # parsed once: names are read often


# neighbour name sets as key sets, per topology name: made once (``_index_subtopology``), shared
# by the two sides of a diff
KeyedSets: TypeAlias = dict[str, dict[frozenset[str], frozenset[Key]]]


def index(
    desc: Description, names: Mapping[int, str | None], keyed_sets: KeyedSets | None = None
) -> Side:
    """``desc`` indexed. The two versions of a diff mostly have the same neighbour sets: given
    the same ``keyed_sets``, the second side reuses the keys the first one made."""
    keyed_sets = {} if keyed_sets is None else keyed_sets
    nodes: dict[Key, NodeInfo] = {}
    succ: dict[Key, frozenset[Key]] = {}
    pred: dict[Key, frozenset[Key]] = {}
    owners: dict[Key, list[NodeInfo]] = {}
    subs: dict[Key, SubtopologyInfo] = {}
    topic_nodes: dict[tuple[str, TopicRole, str], list[NodeInfo]] = {}
    writers_of: dict[tuple[str, str], list[Key]] = {}
    generated: dict[Key, naming.GeneratedName | None] = {}
    tables = _Tables(nodes, succ, pred, owners, topic_nodes, writers_of, generated)
    for ti, topology in enumerate(desc.topologies):
        tname = names[ti]
        t = tname or ""
        # The parser shares one set between a node's successors and the next node's
        # predecessors (and between nodes with the same neighbours): key each set once.
        keyed = keyed_sets.setdefault(t, {EMPTY: EMPTY_KEYS})
        for sub in topology.subtopologies:
            subs[(t, str(sub.id))] = _index_subtopology(sub, t, tname, tables, keyed)
    stores: dict[Key, StoreInfo] = {}
    for (t, store), infos in owners.items():
        first = infos[0] if len(infos) == 1 else _first(infos)
        stores[(t, store)] = _store_info(
            first.topology,
            store,
            first.subtopology,
            first.is_global,
            frozenset([i.node.name for i in infos]),
            first.node.position.line or None,  # its ``line``
        )
    topics: dict[Key, TopicInfo] = {}
    for (t, role, topic), infos in topic_nodes.items():
        topics[(t, f"{role}:{topic}")] = _topic_info(role, topic, infos)  # its ``key``
    return Side(nodes, succ, pred, stores, subs, topics, writers_of, generated)


@dataclass(slots=True)
class _Tables:
    """The side's tables that ``_index_subtopology`` fills, node by node."""

    nodes: dict[Key, NodeInfo]
    succ: dict[Key, frozenset[Key]]
    pred: dict[Key, frozenset[Key]]
    owners: dict[Key, list[NodeInfo]]
    topic_nodes: dict[tuple[str, TopicRole, str], list[NodeInfo]]
    writers_of: dict[tuple[str, str], list[Key]]
    generated: dict[Key, naming.GeneratedName | None]


def _keyed(
    names: frozenset[str], t: str, keyed: dict[frozenset[str], frozenset[Key]]
) -> frozenset[Key]:
    """``names`` as keys of topology ``t``, made once per set (``keyed``)."""
    found = keyed[names] = frozenset([(t, n) for n in names])
    return found


def _index_subtopology(
    sub: Subtopology,
    t: str,
    tname: str | None,
    tables: _Tables,
    keyed: dict[frozenset[str], frozenset[Key]],
) -> SubtopologyInfo:
    """Index the nodes of ``sub`` into the side's tables; return its own summary. One pass
    over the nodes collects what the summary needs as well.

    This loop runs for every node of both sides of every diff: it dispatches on the node's exact
    class once (the model's three), keys neighbour sets inline (a source has no predecessors, a
    sink no successors) and appends to the tables without a helper per node."""
    is_global, sub_id = sub.is_global, sub.id
    nodes, succ, pred, generated = tables.nodes, tables.succ, tables.pred, tables.generated
    owners, topic_nodes, writers_of = tables.owners, tables.topic_nodes, tables.writers_of
    # Listed in the order the model's own properties meet them, so that the sets come out as
    # those would (set iteration order follows insertion order).
    node_names: list[str] = []
    stores: list[str] = []
    read: list[str] = []
    written: list[str] = []
    patterns = False
    recognise, internal, topic_name = naming.generated, naming.is_internal_topic, _is_topic_name
    new, set_t, set_sub, set_global, set_node = _NEW, _SET_T, _SET_SUB, _SET_GLOBAL, _SET_NODE
    get = keyed.get
    for node in sub.nodes:
        info = new(NodeInfo)  # NodeInfo(tname, sub_id, is_global, node), as ``setters`` says
        set_t(info, tname)
        set_sub(info, sub_id)
        set_global(info, is_global)
        set_node(info, node)
        name = node.name
        node_names.append(name)
        key = (t, name)
        nodes[key] = info
        generated[key] = recognise(name)
        if isinstance(node, Processor):  # most nodes
            found = get(node.successors)
            succ[key] = _keyed(node.successors, t, keyed) if found is None else found
            found = get(node.predecessors)
            pred[key] = _keyed(node.predecessors, t, keyed) if found is None else found
            for store in node.stores:
                stores.append(store)
                listed = owners.get((t, store))
                if listed is None:
                    owners[(t, store)] = [info]
                else:
                    listed.append(info)
        elif isinstance(node, Source):
            found = get(node.successors)
            succ[key] = _keyed(node.successors, t, keyed) if found is None else found
            pred[key] = EMPTY_KEYS
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
            succ[key] = EMPTY_KEYS
            found = get(node.predecessors)
            pred[key] = _keyed(node.predecessors, t, keyed) if found is None else found
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
        writers = frozenset([i.name for i in infos if isinstance(i.node, Sink)])
        readers = frozenset([i.name for i in infos if isinstance(i.node, Source)])
        subtopologies = frozenset([i.subtopology for i in infos])
    return _topic_info_of(
        first.topology, topic, role, writers, readers, subtopologies,
        first.node.position.line or None,
    )


def _first(infos: list[NodeInfo]) -> NodeInfo:
    """The node that places a store or topic: in the lowest sub-topology, then by name."""
    if len(infos) == 1:  # the usual case: no sort keys to build
        return infos[0]
    return min(infos, key=lambda i: (i.subtopology, i.name))


def topology_names(desc: Description) -> dict[int, str | None]:
    """Topologies are paired by name (``Topology: <name>:``); the unnamed one with the unnamed one.
    (describe() prints one unnamed topology; several named ones come concatenated.)"""
    return {i: t.name for i, t in enumerate(desc.topologies)}
