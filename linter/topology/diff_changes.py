"""What differs between the two items of a matched pair (``Pair.changes``) of stores,
sub-topologies and topics, and the short cuts ``diff._node_matching`` takes for nodes kept as
they were. Each runs for every pair of every diff."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import TypeAlias

from linter.topology.diff_index import Change, StoreInfo, SubtopologyInfo, TopicInfo
from linter.topology.diff_match import NO_CHANGE
from linter.topology.model import Node, Processor, Sink, Source


def same_ends(node: Node, other: Node) -> bool:
    """Two nodes of the same name and neighbours (so far as ``_node_matching`` checked) are
    equal: the rest of ``node == other``, without building its tuples. Equal stores are kept
    stores: a store of one name on both sides is matched by that name (``match_stores``)."""
    if isinstance(node, Processor):
        stores = node.stores
        if not stores:  # most processors
            return type(other) is Processor and not other.stores
        return type(other) is Processor and stores == other.stores
    if isinstance(node, Source):
        return (
            type(other) is Source and node.topics == other.topics and node.pattern == other.pattern
        )
    return type(other) is Sink and node.topic == other.topic and node.extractor == other.extractor


# The names of a side's nodes that the node matching does not map to themselves (``moved``): a
# set of node names none of which is there is its own image.
Moved: TypeAlias = AbstractSet[str]


def _kept(names_b: frozenset[str], names_a: frozenset[str], moved: Moved) -> bool:
    """The nodes ``names_b`` are mapped onto ``names_a`` because they are the same names, each
    mapped to itself (what the image sets would show)."""
    return names_b == names_a and moved.isdisjoint(names_b)


def store_changes(
    sb: StoreInfo, sa: StoreInfo, fwd: Mapping[str, str], moved: Moved
) -> frozenset[Change]:
    ch: set[Change] = set()
    if sb.name != sa.name:
        ch.add(Change.RENAMED)
    if sb.subtopology != sa.subtopology:
        ch.add(Change.SUBTOPOLOGY)
    if not _kept(sb.owners, sa.owners, moved) and {fwd.get(o) for o in sb.owners} != sa.owners:
        ch.add(Change.OWNERS)
    if sb.is_global != sa.is_global:
        ch.add(Change.GLOBAL)
    return frozenset(ch)


def sub_changes(
    sb: SubtopologyInfo,
    sa: SubtopologyInfo,
    fwd: Mapping[str, str],
    store_map: Mapping[str, str],
    moved: Moved,
) -> frozenset[Change]:
    ch: set[Change] = set()
    if sb.id != sa.id:
        ch.add(Change.RENUMBERED)
    if not _kept(sb.nodes, sa.nodes, moved) and {fwd.get(n) for n in sb.nodes} != sa.nodes:
        ch.add(Change.NODES)
    if (sb.stores or sa.stores) and {store_map.get(s) for s in sb.stores} != sa.stores:
        ch.add(Change.STORES)
    if sb.source_topics != sa.source_topics or sb.patterns != sa.patterns:
        ch.add(Change.SOURCES)
    if sb.sink_topics != sa.sink_topics:
        ch.add(Change.SINKS)
    return frozenset(ch)


def topic_changes(
    tb: TopicInfo, ta: TopicInfo, fwd: Mapping[str, str], moved: Moved
) -> frozenset[Change]:
    if (
        tb.name == ta.name
        and _kept(tb.writers, ta.writers, moved)
        and _kept(tb.readers, ta.readers, moved)
    ):
        # most topics: read and written by the same nodes, each kept under its name (what the
        # checks below find, without building the four sets)
        return NO_CHANGE
    ch: set[Change] = set()
    if tb.name != ta.name:
        ch.add(Change.RENAMED)
    if {fwd.get(n) for n in tb.writers} != ta.writers:
        ch.add(Change.WRITERS)
    if {fwd.get(n) for n in tb.readers} != ta.readers:
        ch.add(Change.READERS)
    return frozenset(ch)
