"""Matching two versions of a topology: which sub-topology, node, store and topic of ``before`` is
which of ``after``. Rules only judge the result; all correlation lives here.

Order of matching, per topology (named topologies are paired by name):

1. nodes by name when the name was chosen by a user (stable by construction);
2. generated nodes by their order in the builder's index sequence: an operator inserted or removed
   earlier shifts every later index, so the two sequences of operator prefixes are aligned
   (``align``: patience-style, near-linear) instead of compared name by name;
3. what is left by position in the graph: an unmatched neighbour of a matched pair on each side,
   with a compatible role, is the same operator;
4. stores by name, then by the processors that own them; sub-topologies by shared content; topics
   by name, then by the nodes that read or write them.

Printing order never matters: the model holds sets, and everything here is sorted.

The work is split: ``diff_index`` and ``diff_side`` (each side indexed), ``diff_match`` (the
correlation), ``diff_changes`` (what differs in a pair), ``diff_keys`` (where record keys are
set), ``align`` (sequence alignment), ``diff_result`` (what a diff returns); this module puts
the result together, one topology at a time (named topologies are paired by name), and is the
one to import.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from linter.topology import naming
from linter.topology.diff_changes import (
    same_ends,
    store_changes,
    sub_changes,
    topic_changes,
)
from linter.topology.diff_flow import StoreReplacement, replacements
from linter.topology.diff_index import (
    Change,
    How,
    Key,
    NodeInfo,
    StoreInfo,
    SubtopologyInfo,
    TopicInfo,
    TopicRole,
)
from linter.topology.diff_keys import KeyChange, key_changes
from linter.topology.diff_match import (
    NO_CHANGE,
    match_identical,
    match_nodes,
    match_stores,
    match_subtopologies,
    match_topics,
    node_changes,
)
from linter.topology.diff_reach import walked
from linter.topology.diff_result import (
    _PAIR,
    Matching,
    Pair,
    T,
    TopologyDiff,
    _diff_of,
    _matching_of,
)
from linter.topology.diff_side import Side, groups, index
from linter.topology.model import Description, Sink

__all__ = [
    "Change",
    "How",
    "Key",
    "KeyChange",
    "Matching",
    "NodeInfo",
    "Pair",
    "StoreInfo",
    "StoreReplacement",
    "SubtopologyInfo",
    "TopicInfo",
    "TopicRole",
    "TopologyDiff",
    "diff",
]


def diff(before: Description, after: Description) -> TopologyDiff:
    """Match ``before`` to ``after``. Pure; the result is frozen and sorted."""
    groups_b, groups_a = groups(before), groups(after)
    names = sorted(groups_b.keys() | groups_a.keys())  # most diffs: [""]
    if before == after:
        # The same topology reprinted (an upgrade that does not touch it). Positions are not part of
        # equality, so ``after`` keeps its own lines unless it is the very same text. Indexed
        # without the generated nodes' sequences: ``_unchanged`` aligns none.
        sides = [index(groups_b[t], t, sequence=False) for t in names]
        if all(_regular(side) for side in sides):
            if before.topologies is not after.topologies:
                others = [index(groups_a[t], t, sequence=False) for t in names]
            else:
                others = sides
            parts = [_unchanged(b, a) for b, a in zip(sides, others, strict=True)]
            return _joined(before, after, parts, walks=False)
    parts = []
    for t in names:  # named topologies are paired by name, and matched each on its own
        b, a = index(groups_b.get(t, []), t), index(groups_a.get(t, []), t)
        fwd, how = match_nodes(b, a)
        parts.append(_assemble(b, a, fwd, how))
    return _joined(before, after, parts, walks=True)


@dataclass(slots=True)
class _Part:
    """One topology's share of a diff (named topologies are matched each on its own)."""

    b: Side
    a: Side
    fwd: dict[str, str]  # the node matching, sorted by before name
    subtopologies: Matching[SubtopologyInfo]
    nodes: Matching[NodeInfo]
    stores: Matching[StoreInfo]
    topics: Matching[TopicInfo]


def _joined(
    before: Description, after: Description, parts: list[_Part], *, walks: bool
) -> TopologyDiff:
    """The diff of ``parts`` (in topology name order), keyed by (topology, name); with
    ``walks``, where record keys are set as well (``key_changes``, ``replacements``)."""
    if len(parts) == 1:  # most diffs
        (part,) = parts
        subtopologies, nodes, stores, topics = (
            part.subtopologies, part.nodes, part.stores, part.topics,
        )
    else:
        subtopologies = _chained([p.subtopologies for p in parts])
        nodes = _chained([p.nodes for p in parts])
        stores = _chained([p.stores for p in parts])
        topics = _chained([p.topics for p in parts])
    node_map: dict[Key, Key] = {}
    for part in parts:
        t = part.b.topology
        for kb, ka in part.fwd.items():
            node_map[(t, kb)] = (t, ka)
    changes: list[KeyChange] = []
    replaced: list[StoreReplacement] = []
    if walks:
        if not _same_walks(nodes):
            by_store: list[KeyChange] = []
            for p in parts:
                found, of_stores = key_changes(
                    p.b, p.a, p.fwd, [(s.before, s.after) for s in p.stores.pairs],
                    walked(p.b, p.a, p.fwd, p.nodes.pairs),
                )
                changes += found
                by_store += of_stores
            changes += by_store  # the stores' writers after the walks, as one pass had them
        for p in parts:
            replaced += replacements(p.b, p.a, p.stores.removed, p.stores.added)
    return _diff_of(
        before=before,
        after=after,
        subtopologies=subtopologies,
        nodes=nodes,
        stores=stores,
        topics=topics,
        key_changes=tuple(changes),
        node_map=node_map,
        replaced=tuple(replaced),
    )


def _chained(matchings: list[Matching[T]]) -> Matching[T]:
    """The matchings of several topologies as one (each sorted, in topology name order)."""
    return _matching_of(
        tuple(p for m in matchings for p in m.pairs),
        tuple(x for m in matchings for x in m.added),
        tuple(x for m in matchings for x in m.removed),
    )


def _regular(side: Side) -> bool:
    """Every ``-->``/``<--`` names a node of its topology and every sub-topology has a node (as
    in any text describe() prints; a model built by hand may break either)."""
    subs_with_nodes = {info.subtopology for info in side.nodes.values()}
    neighbours = set().union(*side.succ.values(), *side.pred.values())
    return len(subs_with_nodes) == len(side.subs) and side.nodes.keys() >= neighbours


def _unchanged(b: Side, a: Side) -> _Part:
    """What ``_assemble`` makes of two equal, regular sides, without the work: every item paired
    with itself (nodes as ``match_identical`` says, the rest by name, sub-topologies by content)
    and nothing changed; an arrow to no node or a sub-topology without nodes would show as a
    change there, hence ``_regular``."""
    fwd, how = match_identical(b)
    node_keys = sorted(b.nodes)
    return _Part(
        b,
        a,
        {k: fwd[k] for k in node_keys},  # fwd's keys are the nodes'
        _same(b.subs, a.subs, sorted(b.subs), "content"),
        _same(b.nodes, a.nodes, node_keys, how),
        _same(b.stores, a.stores, sorted(b.stores), "name"),
        _same(b.topics, a.topics, sorted(b.topics), "name"),
    )


def _same(
    before: Mapping[str, T], after: Mapping[str, T], keys: list[str], how: How | Mapping[str, How]
) -> Matching[T]:
    """Each item of ``before`` (under ``keys``, sorted) paired unchanged with the one of
    ``after`` under its key, matched as ``how`` says (for all, or per key)."""
    made = _PAIR
    pairs: list[Pair[T]] = []
    for k in keys:
        pair = made()  # Pair(before[k], after[k], how, NO_CHANGE)
        pair.before = before[k]
        pair.after = after[k]
        pair.how = how if isinstance(how, str) else how[k]
        pair.changes = NO_CHANGE
        pair.__class__ = Pair
        pairs.append(pair)
    return _matching_of(tuple(pairs))


def _assemble(b: Side, a: Side, fwd: dict[str, str], how: Mapping[str, How]) -> _Part:
    """The matching of stores, sub-topologies and topics, and what changed in every pair, once
    the nodes are matched."""
    # sorted once (it is the result's ``node_map``): the loops below that sort it find it so
    fwd = {kb: fwd[kb] for kb in sorted(fwd)}
    store_match = match_stores(b, a, fwd)
    sub_map = match_subtopologies(b, a, fwd, store_match)
    topic_match = match_topics(b, a, fwd)
    store_map = {kb: ka for kb, (ka, _) in store_match.items()}

    fixed = {kb for kb, ka in fwd.items() if kb == ka}  # most nodes
    nodes = _node_matching(b, a, fwd, how, store_map, sub_map, fixed)
    moved = b.nodes.keys() - fixed  # the rest: none is mapped to itself
    stores = _matching(b.stores, a.stores, store_match, store_changes, fwd, moved)
    subtopologies = _matching(
        b.subs, a.subs, {kb: (ka, "content") for kb, ka in sub_map.items()},
        sub_changes, fwd, store_map, moved,
    )
    topics = _matching(b.topics, a.topics, topic_match, topic_changes, fwd, moved)
    return _Part(b, a, fwd, subtopologies, nodes, stores, topics)


def _node_matching(
    b: Side,
    a: Side,
    fwd: Mapping[str, str],
    how: Mapping[str, How],
    store_map: Mapping[str, str],
    sub_map: Mapping[str, str],
    fixed: AbstractSet[str],
) -> Matching[NodeInfo]:
    """``_matching`` of the nodes (``node_changes`` for each pair) in one loop, without the
    generic one's intermediate mapping and callback: it runs for every node of every diff.
    ``fixed``: the before names ``fwd`` maps to themselves."""
    # the ids of the sub-topologies matched to the one of the same number
    kept_subs = {b.subs[kb].id for kb, ka in sub_map.items() if kb == ka}
    before, after, succ, pred, a_succ, a_pred = b.nodes, a.nodes, b.succ, b.pred, a.succ, a.pred
    pairs: list[Pair[NodeInfo]] = []
    made = _PAIR
    for kb, ka in fwd.items():  # sorted (``_assemble``)
        ib, ia = before[kb], after[ka]
        node, other = ib.node, ia.node
        sb, pb = succ[kb], pred[kb]
        if (
            kb == ka
            and ib.subtopology == ia.subtopology
            and ib.subtopology in kept_subs
            # the same neighbour names
            and sb == a_succ[ka]
            and pb == a_pred[ka]
            and sb <= fixed
            and pb <= fixed
            and same_ends(node, other)
        ):
            # most nodes of an upgrade: kept as they were, with their sub-topology, all their
            # neighbours and stores (what ``node_changes`` would check, as ``_kept_changes`` does)
            changes = NO_CHANGE
        else:
            changes = node_changes(ib, ia, fwd, b, a, store_map, sub_map, fixed)
        pair = made()  # Pair(ib, ia, how[kb], changes)
        pair.before = ib
        pair.after = ia
        pair.how = how[kb]
        pair.changes = changes
        pair.__class__ = Pair
        pairs.append(pair)
    return _matching_of(
        tuple(pairs),
        tuple(after[k] for k in sorted(after.keys() - fwd.values())),
        tuple(before[k] for k in sorted(before.keys() - fwd.keys())),
    )


# the changes of a node that leave the key walks as they were (``_same_walks``)
_WALKS_KEPT = frozenset({Change.STORES, Change.TOPIC})


def _same_walks(nodes: Matching[NodeInfo]) -> bool:
    """True when the key-change walks (``diff_keys``) must meet the same nodes on both sides, so
    that no key can have changed: every node kept under its name, with the same neighbours,
    sub-topology and source topics. A sink's user topic may change (a walk only asks whether a
    topic is internal) and so may store names (a walk reads none); an internal topic may not (the
    walk follows it to its writers). Common: a store or an output topic renamed."""
    if nodes.added or nodes.removed:
        return False
    for pair in nodes.pairs:
        if pair.changes is NO_CHANGE:  # most pairs (``_node_matching``'s short cut)
            continue
        if not pair.changes <= _WALKS_KEPT:
            return False
        if Change.TOPIC in pair.changes and any(
            isinstance(node, Sink) and naming.is_internal_topic(node.topic or "")
            for node in (pair.before.node, pair.after.node)
        ):
            return False
    return True


def _matching(
    before: Mapping[str, T],
    after: Mapping[str, T],
    matched: Mapping[str, tuple[str, How]],
    changes: Callable[..., frozenset[Change]],
    *args: object,
) -> Matching[T]:
    """Pairs (in before-key order, each with how it was matched and what changed: ``changes(
    before, after, *args)``), then what is only in ``after`` (added) and only in ``before``
    (removed), each sorted by key."""
    paired_after = {ka for ka, _ in matched.values()}
    made = _PAIR
    pairs: list[Pair[T]] = []
    for kb in sorted(matched):
        ka, how = matched[kb]
        ib, ia = before[kb], after[ka]
        pair = made()  # Pair(ib, ia, how, changes(ib, ia))
        pair.before = ib
        pair.after = ia
        pair.how = how
        pair.changes = changes(ib, ia, *args)
        pair.__class__ = Pair
        pairs.append(pair)
    return _matching_of(
        tuple(pairs),
        tuple(after[k] for k in sorted(after.keys() - paired_after)),
        tuple(before[k] for k in sorted(before.keys() - matched.keys())),
    )
