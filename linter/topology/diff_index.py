"""The items of a diff's sides: every node, store, sub-topology and topic of a describe() text
under a key that is stable across versions (topology name, item name), what they hold, and
what can differ between two matched ones (``Change``). ``diff_side`` indexes a side."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypeAlias

from linter.topology import naming
from linter.topology.model import Node
from linter.topology.twins import twin

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


_NODE_INFO = twin(NodeInfo)


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


_STORE_INFO, _SUB_INFO, _TOPIC_INFO = twin(StoreInfo), twin(SubtopologyInfo), twin(TopicInfo)


def _store_info(
    topology: str | None, name: str, subtopology: int, is_global: bool, owners: frozenset[str],
    line: int | None,
) -> StoreInfo:
    """``StoreInfo(...)`` with every field, made through its twin."""
    info = _STORE_INFO()
    info.topology = topology
    info.name = name
    info.subtopology = subtopology
    info.is_global = is_global
    info.owners = owners
    info.line = line
    info.__class__ = StoreInfo
    made: StoreInfo = info  # not ``cast``: a call
    return made


def _sub_info(
    topology: str | None, id: int, is_global: bool, nodes: frozenset[str],
    stores: frozenset[str], source_topics: frozenset[str], sink_topics: frozenset[str],
    line: int | None, patterns: frozenset[str],
) -> SubtopologyInfo:
    """``SubtopologyInfo(...)`` with every field, made through its twin."""
    info = _SUB_INFO()
    info.topology = topology
    info.id = id
    info.is_global = is_global
    info.nodes = nodes
    info.stores = stores
    info.source_topics = source_topics
    info.sink_topics = sink_topics
    info.line = line
    info.patterns = patterns
    info.__class__ = SubtopologyInfo
    made: SubtopologyInfo = info  # not ``cast``: a call
    return made


def _topic_info_of(
    topology: str | None, name: str, role: TopicRole, writers: frozenset[str],
    readers: frozenset[str], subtopologies: frozenset[int], line: int | None,
) -> TopicInfo:
    """``TopicInfo(...)`` with every field, made through its twin."""
    info = _TOPIC_INFO()
    info.topology = topology
    info.name = name
    info.role = role
    info.writers = writers
    info.readers = readers
    info.subtopologies = subtopologies
    info.line = line
    info.__class__ = TopicInfo
    made: TopicInfo = info  # not ``cast``: a call
    return made
