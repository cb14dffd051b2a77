"""The typed model of a Kafka Streams ``Topology#describe()`` text.

Frozen and hashable. Kafka prints topics, stores and ``-->``/``<--`` lists as Java sets in hash
order, so they are ``frozenset`` here and never compared by order. Positions (``line``/``column``)
are excluded from equality and hashing: two texts that describe the same graph are equal models
whatever their layout, and the diff never sees a line number.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal, TypeAlias


@dataclass(frozen=True, slots=True)
class Position:
    """Where something starts in the describe() text (1-based line and column)."""

    line: int
    column: int


_NOWHERE = Position(0, 0)


def _hash_by_name(node: Source | Processor | Sink) -> int:
    # Equal nodes have equal names, so the name alone is a consistent hash. The generated one
    # hashes every field, frozensets included, for each node put into a sub-topology's set:
    # the largest single cost of building the model of a big topology after reading the text.
    return hash(node.name)


@dataclass(frozen=True, slots=True)
class Source:
    """``Source: name (topics: [a, b])`` or ``Source: name (topics: <regex>)``."""

    name: str
    topics: frozenset[str] = frozenset()
    pattern: str | None = None
    successors: frozenset[str] = frozenset()
    position: Position = field(default=_NOWHERE, compare=False, hash=False, repr=False)

    kind: Literal["source"] = field(default="source", init=False)

    __hash__ = _hash_by_name

    @property
    def predecessors(self) -> frozenset[str]:
        return frozenset()

    @property
    def stores(self) -> frozenset[str]:
        return frozenset()


@dataclass(frozen=True, slots=True)
class Processor:
    """``Processor: name (stores: [s])`` with its successors and predecessors."""

    name: str
    stores: frozenset[str] = frozenset()
    successors: frozenset[str] = frozenset()
    predecessors: frozenset[str] = frozenset()
    position: Position = field(default=_NOWHERE, compare=False, hash=False, repr=False)

    kind: Literal["processor"] = field(default="processor", init=False)

    __hash__ = _hash_by_name


@dataclass(frozen=True, slots=True)
class Sink:
    """``Sink: name (topic: t)`` or ``Sink: name (extractor class: X)``."""

    name: str
    topic: str | None = None
    extractor: str | None = None
    predecessors: frozenset[str] = frozenset()
    position: Position = field(default=_NOWHERE, compare=False, hash=False, repr=False)

    kind: Literal["sink"] = field(default="sink", init=False)

    __hash__ = _hash_by_name

    @property
    def successors(self) -> frozenset[str]:
        return frozenset()

    @property
    def stores(self) -> frozenset[str]:
        return frozenset()


Node: TypeAlias = Source | Processor | Sink


@dataclass(frozen=True, slots=True)
class Subtopology:
    """``Sub-topology: N`` (``is_global`` for ``... for global store (will not generate tasks)``).

    Nodes are a set: describe() orders them by a size heuristic that carries no meaning.
    """

    id: int
    nodes: frozenset[Node]
    is_global: bool = False
    position: Position = field(default=_NOWHERE, compare=False, hash=False, repr=False)

    def node(self, name: str) -> Node | None:
        for node in self.nodes:
            if node.name == name:
                return node
        return None

    @property
    def stores(self) -> frozenset[str]:
        return frozenset(s for n in self.nodes for s in n.stores)

    @property
    def source_topics(self) -> frozenset[str]:
        return frozenset(t for n in self.nodes if isinstance(n, Source) for t in n.topics)

    @property
    def sink_topics(self) -> frozenset[str]:
        return frozenset(n.topic for n in self.nodes if isinstance(n, Sink) and n.topic is not None)


@dataclass(frozen=True, slots=True)
class Topology:
    """One ``Topologies:`` (or ``Topology: <name>:``) block."""

    subtopologies: tuple[Subtopology, ...]
    name: str | None = None
    position: Position = field(default=_NOWHERE, compare=False, hash=False, repr=False)
    # The text's layout: "legacy-1.0" for AK 1.0.x (`Sub-topologies:` / `Global Stores:`), whose
    # sub-topology ids were assigned by source-node name (ids of global stores are invented).
    # Like positions, it is not part of equality: both layouts can describe the same graph.
    layout: Literal["describe", "legacy-1.0"] = field(default="describe", compare=False, hash=False)

    def nodes(self) -> Iterator[tuple[Subtopology, Node]]:
        for sub in self.subtopologies:
            for node in sub.nodes:
                yield sub, node

    @property
    def stores(self) -> frozenset[str]:
        return frozenset(s for sub in self.subtopologies for s in sub.stores)


@dataclass(frozen=True, slots=True)
class Description:
    """A whole describe() text: usually one topology, several when named topologies are printed
    back to back (``KafkaStreamsNamedTopologyWrapper#getFullTopologyDescription``)."""

    topologies: tuple[Topology, ...]
    path: str | None = field(default=None, compare=False, hash=False)

    def nodes(self) -> Iterator[tuple[Topology, Subtopology, Node]]:
        for topology in self.topologies:
            for sub, node in topology.nodes():
                yield topology, sub, node
