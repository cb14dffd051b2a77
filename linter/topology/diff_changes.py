"""What differs between the two items of a matched pair (``Pair.changes``) of stores,
sub-topologies and topics, and the short cuts ``diff._node_matching`` takes for nodes kept as
they were. Each runs for every pair of every diff."""

from __future__ import annotations

from collections.abc import Mapping

from linter.topology.diff_index import Change, Key, StoreInfo, SubtopologyInfo, TopicInfo
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


def store_changes(sb: StoreInfo, sa: StoreInfo, fwd: Mapping[Key, Key]) -> frozenset[Change]:
    ch: set[Change] = set()
    if sb.name != sa.name:
        ch.add(Change.RENAMED)
    if sb.subtopology != sa.subtopology:
        ch.add(Change.SUBTOPOLOGY)
    if {fwd.get((sb.topology or "", o)) for o in sb.owners} != {
        (sa.topology or "", o) for o in sa.owners
    }:
        ch.add(Change.OWNERS)
    if sb.is_global != sa.is_global:
        ch.add(Change.GLOBAL)
    return frozenset(ch)


def sub_changes(
    sb: SubtopologyInfo,
    sa: SubtopologyInfo,
    fwd: Mapping[Key, Key],
    store_map: Mapping[Key, Key],
) -> frozenset[Change]:
    ch: set[Change] = set()
    if sb.id != sa.id:
        ch.add(Change.RENUMBERED)
    t_b, t_a = sb.topology or "", sa.topology or ""
    if {fwd.get((t_b, n)) for n in sb.nodes} != {(t_a, n) for n in sa.nodes}:
        ch.add(Change.NODES)
    if {store_map.get((t_b, s)) for s in sb.stores} != {(t_a, s) for s in sa.stores}:
        ch.add(Change.STORES)
    if sb.source_topics != sa.source_topics or sb.patterns != sa.patterns:
        ch.add(Change.SOURCES)
    if sb.sink_topics != sa.sink_topics:
        ch.add(Change.SINKS)
    return frozenset(ch)


def topic_changes(tb: TopicInfo, ta: TopicInfo, fwd: Mapping[Key, Key]) -> frozenset[Change]:
    t_b, t_a = tb.topology or "", ta.topology or ""
    if (
        tb.name == ta.name
        and t_b == t_a
        and tb.writers == ta.writers
        and tb.readers == ta.readers
        and _kept_names(tb.writers, t_b, fwd)
        and _kept_names(tb.readers, t_b, fwd)
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


def _kept_names(names: frozenset[str], t: str, fwd: Mapping[Key, Key]) -> bool:
    """Every node of ``names`` (in topology ``t``) matched to itself."""
    for name in names:
        key = (t, name)
        if fwd.get(key) != key:
            return False
    return True
