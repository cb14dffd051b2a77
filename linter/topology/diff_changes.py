"""What differs between the two items of a matched pair (``Pair.changes``) of stores,
sub-topologies and topics, and the short cuts ``diff._node_matching`` takes for nodes kept as
they were. Each runs for every pair of every diff."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import TypeAlias

from linter.topology.diff_index import (
    EMPTY,
    Change,
    Key,
    StoreInfo,
    SubtopologyInfo,
    TopicInfo,
)
from linter.topology.diff_match import NO_CHANGE
from linter.topology.model import Node, Processor, Sink, Source


def same_ends(node: Node, other: Node) -> bool:
    """Two nodes of the same name and neighbours (so far as ``_node_matching`` checked) are
    equal, and without stores: the rest of ``node == other``, without building its tuples."""
    if isinstance(node, Processor):
        return type(other) is Processor and not node.stores and not other.stores
    if isinstance(node, Source):
        return (
            type(other) is Source and node.topics == other.topics and node.pattern == other.pattern
        )
    return type(other) is Sink and node.topic == other.topic and node.extractor == other.extractor


# The names of a side's nodes that the node matching does not map to themselves, per topology
# (``moved``): a set of node names none of which is there is its own image.
Moved: TypeAlias = Mapping[str, AbstractSet[str]]


def moved_names(names: Iterable[Key], fwd: Mapping[Key, Key]) -> dict[str, set[str]]:
    """``Moved`` of the before side's nodes ``names``, given the node matching ``fwd``."""
    out: dict[str, set[str]] = {}
    for key in names:
        if fwd.get(key) != key:
            listed = out.get(key[0])
            if listed is None:
                out[key[0]] = {key[1]}
            else:
                listed.add(key[1])
    return out


def _kept(names_b: frozenset[str], names_a: frozenset[str], t_b: str, t_a: str,
          moved: Moved) -> bool:
    """The nodes ``names_b`` of topology ``t_b`` are mapped onto ``names_a`` of ``t_a``
    because they are the same names, each mapped to itself (what the image sets would show)."""
    return t_b == t_a and names_b == names_a and moved.get(t_b, EMPTY).isdisjoint(names_b)


def store_changes(
    sb: StoreInfo, sa: StoreInfo, fwd: Mapping[Key, Key], moved: Moved
) -> frozenset[Change]:
    ch: set[Change] = set()
    if sb.name != sa.name:
        ch.add(Change.RENAMED)
    if sb.subtopology != sa.subtopology:
        ch.add(Change.SUBTOPOLOGY)
    t_b, t_a = sb.topology or "", sa.topology or ""
    if not _kept(sb.owners, sa.owners, t_b, t_a, moved) and {
        fwd.get((t_b, o)) for o in sb.owners
    } != {(t_a, o) for o in sa.owners}:
        ch.add(Change.OWNERS)
    if sb.is_global != sa.is_global:
        ch.add(Change.GLOBAL)
    return frozenset(ch)


def sub_changes(
    sb: SubtopologyInfo,
    sa: SubtopologyInfo,
    fwd: Mapping[Key, Key],
    store_map: Mapping[Key, Key],
    moved: Moved,
) -> frozenset[Change]:
    ch: set[Change] = set()
    if sb.id != sa.id:
        ch.add(Change.RENUMBERED)
    t_b, t_a = sb.topology or "", sa.topology or ""
    if not _kept(sb.nodes, sa.nodes, t_b, t_a, moved) and {
        fwd.get((t_b, n)) for n in sb.nodes
    } != {(t_a, n) for n in sa.nodes}:
        ch.add(Change.NODES)
    if (sb.stores or sa.stores) and {store_map.get((t_b, s)) for s in sb.stores} != {
        (t_a, s) for s in sa.stores
    }:
        ch.add(Change.STORES)
    if sb.source_topics != sa.source_topics or sb.patterns != sa.patterns:
        ch.add(Change.SOURCES)
    if sb.sink_topics != sa.sink_topics:
        ch.add(Change.SINKS)
    return frozenset(ch)


def topic_changes(
    tb: TopicInfo, ta: TopicInfo, fwd: Mapping[Key, Key], moved: Moved
) -> frozenset[Change]:
    t_b, t_a = tb.topology or "", ta.topology or ""
    if (
        tb.name == ta.name
        and _kept(tb.writers, ta.writers, t_b, t_a, moved)
        and _kept(tb.readers, ta.readers, t_b, t_a, moved)
    ):
        # most topics: read and written by the same nodes, each kept under its name (what the
        # checks below find, without building the four sets)
        return NO_CHANGE
    ch: set[Change] = set()
    if tb.name != ta.name:
        ch.add(Change.RENAMED)
    if {fwd.get((t_b, n)) for n in tb.writers} != {(t_a, n) for n in ta.writers}:
        ch.add(Change.WRITERS)
    if {fwd.get((t_b, n)) for n in tb.readers} != {(t_a, n) for n in ta.readers}:
        ch.add(Change.READERS)
    return frozenset(ch)
