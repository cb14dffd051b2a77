"""Which node, store, sub-topology and topic of ``before`` is which of ``after`` (see
``linter.topology.diff`` for the order of matching and why)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from collections.abc import Set as AbstractSet

from linter.topology import align, naming
from linter.topology.diff_index import Change, How, Key, NodeInfo
from linter.topology.diff_side import SeqItem, SeqKey, Side, endpoint
from linter.topology.model import Sink, Source


def _kind(info: NodeInfo) -> str:
    return info.node.kind


def _compatible(a: NodeInfo, b: NodeInfo) -> bool:
    if _kind(a) != _kind(b):
        return False
    ea, eb = endpoint(a.node), endpoint(b.node)
    if ea != eb and "~internal" in (ea, eb):
        return False  # repartition plumbing is never a user topic's source or sink
    ra, rb = naming.role_of(a.name), naming.role_of(b.name)
    return ra is None or rb is None or naming.canonical_role(ra) == naming.canonical_role(rb)


def match_nodes(b: Side, a: Side) -> tuple[dict[Key, Key], dict[Key, How]]:
    fwd: dict[Key, Key] = {}
    how: dict[Key, How] = {}
    # 1. chosen names
    nodes_b, nodes_a = b.nodes, a.nodes
    for key in b.chosen:
        there = nodes_a.get(key)
        if there is not None and there.node.kind == nodes_b[key].node.kind:
            fwd[key], how[key] = key, "name"
    # 2. generated names: align the index sequences per topology
    for t in sorted(b.sequences.keys() & a.sequences.keys()):
        roles_b, keys_b = _sequence(b.sequences[t])
        roles_a, keys_a = _sequence(a.sequences[t])
        for i, j in align.align(roles_b, roles_a):
            kb = keys_b[i]
            fwd[kb], how[kb] = keys_a[j], "index"
    # 3. structure: propagate along matched edges until nothing changes
    _propagate(b, a, fwd, how)
    return fwd, how


def match_identical(side: Side) -> tuple[dict[Key, Key], dict[Key, How]]:
    """What ``match_nodes`` finds between two equal sides, without the work: every node with
    itself, a chosen name by name and a generated one by index (the two index sequences are the
    same, so the alignment pairs them all). Nothing is left for the structure to match."""
    fwd = {key: key for key in side.nodes}
    how: dict[Key, How] = dict.fromkeys(side.nodes, "index")
    for key in side.chosen:
        how[key] = "name"
    return fwd, how


def _sequence(items: list[SeqItem]) -> tuple[list[SeqKey], list[Key]]:
    """A topology's generated nodes in index order: their roles (what the alignment compares)
    and their keys."""
    items.sort()
    return [item[2] for item in items], [item[3] for item in items]


def _propagate(b: Side, a: Side, fwd: dict[Key, Key], how: dict[Key, How]) -> None:
    matched_after = set(fwd.values())
    if len(fwd) == len(b.nodes) or len(matched_after) == len(a.nodes):
        return  # as below, before the frontier's sort: the usual upgrade ends here
    frontier = sorted(fwd)
    while frontier:
        if len(fwd) == len(b.nodes) or len(matched_after) == len(a.nodes):
            return  # one side is all matched (the usual upgrade): no free neighbour is left
        next_frontier: list[Key] = []
        for kb in frontier:
            ka = fwd[kb]
            for nb_b, nb_a in ((b.succ, a.succ), (b.pred, a.pred)):
                free_b = [k for k in nb_b.get(kb, ()) if k not in fwd and k in b.nodes]
                if not free_b:
                    continue
                free_a = [k for k in nb_a.get(ka, ()) if k not in matched_after and k in a.nodes]
                if not free_a:
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


def node_changes(p_b: NodeInfo, p_a: NodeInfo, fwd: Mapping[Key, Key], b: Side, a: Side,
                  store_map: Mapping[Key, Key], sub_map: Mapping[Key, Key],
                  fixed: AbstractSet[Key] = frozenset()) -> frozenset[Change]:
    """What differs between the matched nodes. ``fixed`` may name before-keys that ``fwd`` maps
    to themselves: it only saves work (see ``_kept_changes``)."""
    ch: set[Change] = set()
    nb, na = p_b.node, p_a.node
    t_b, t_a = p_b.topology or "", p_a.topology or ""
    # names first: a renumbered pair (most pairs here) differs there, without ``==``'s tuples
    if nb.name == na.name and nb == na and t_b == t_a:
        return _kept_changes(p_b, p_a, fwd, b, store_map, sub_map, fixed)
    kb, ka = (t_b, nb.name), (t_a, na.name)
    if nb.name != na.name:
        gb, ga = naming.generated(kb[1]), naming.generated(ka[1])
        same_role = gb is not None and ga is not None and gb.role_key == ga.role_key
        ch.add(Change.REINDEXED if same_role else Change.RENAMED)
    if sub_map.get((t_b, str(p_b.subtopology))) != (t_a, str(p_a.subtopology)):
        ch.add(Change.SUBTOPOLOGY)
    if p_b.subtopology != p_a.subtopology:
        ch.add(Change.SUBTOPOLOGY_ID)
    if {fwd.get(k) for k in b.succ[kb]} != a.succ[ka]:
        ch.add(Change.SUCCESSORS)
    if {fwd.get(k) for k in b.pred[kb]} != a.pred[ka]:
        ch.add(Change.PREDECESSORS)
    stores_b, stores_a = nb.stores, na.stores
    if (stores_b or stores_a) and (
        {store_map.get((t_b, s)) for s in stores_b} != {(t_a, s) for s in stores_a}
    ):
        ch.add(Change.STORES)
    if isinstance(nb, Source) and isinstance(na, Source) and (
        nb.topics != na.topics or nb.pattern != na.pattern
    ):
        ch.add(Change.TOPICS)
    if isinstance(nb, Sink) and isinstance(na, Sink) and (
        nb.topic != na.topic or nb.extractor != na.extractor
    ):
        ch.add(Change.TOPIC)
    return frozenset(ch)


NO_CHANGE: frozenset[Change] = frozenset()


def _kept_changes(p_b: NodeInfo, p_a: NodeInfo, fwd: Mapping[Key, Key], b: Side,
                  store_map: Mapping[Key, Key], sub_map: Mapping[Key, Key],
                  fixed: AbstractSet[Key]) -> frozenset[Change]:
    """``node_changes`` of two equal nodes of the same topology (most nodes of an upgrade): same
    name, topics and neighbour names, so only the sub-topology and where the neighbours and
    stores went can differ. A neighbour set whose keys all map to themselves (``fixed``) is
    kept without building its image."""
    ch: set[Change] = set()
    t = p_b.topology or ""
    kb = (t, p_b.node.name)
    if sub_map.get((t, str(p_b.subtopology))) != (t, str(p_a.subtopology)):
        ch.add(Change.SUBTOPOLOGY)
    if p_b.subtopology != p_a.subtopology:
        ch.add(Change.SUBTOPOLOGY_ID)
    succ = b.succ[kb]  # equal to the after node's: the same names in the same topology
    if not succ <= fixed and {fwd.get(k) for k in succ} != succ:
        ch.add(Change.SUCCESSORS)
    pred = b.pred[kb]
    if not pred <= fixed and {fwd.get(k) for k in pred} != pred:
        ch.add(Change.PREDECESSORS)
    stores = p_b.node.stores
    if stores and {store_map.get((t, s)) for s in stores} != {(t, s) for s in stores}:
        ch.add(Change.STORES)
    return frozenset(ch) if ch else NO_CHANGE


# --- stores, sub-topologies, topics ----------------------------------------------------------


def _by_name(
    before: Mapping[Key, object], after: Mapping[Key, object]
) -> tuple[dict[Key, tuple[Key, How]], set[Key]]:
    """The items kept under their key, and the after-keys so taken. Unsorted: the steps that
    read it in order sort it (``diff._matching``) or sort what they rank by a total order."""
    out: dict[Key, tuple[Key, How]] = {key: (key, "name") for key in before if key in after}
    return out, set(out)


def match_stores(b: Side, a: Side, fwd: Mapping[Key, Key]) -> dict[Key, tuple[Key, How]]:
    out, taken = _by_name(b.stores, a.stores)
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


def match_subtopologies(
    b: Side, a: Side, fwd: Mapping[Key, Key], stores: Mapping[Key, tuple[Key, How]]
) -> dict[Key, Key]:
    # shared content per (topology, id) on each side; the ids become keys once per pair of them
    shared: dict[tuple[str, int, str, int], int] = defaultdict(int)
    for kb, ka in fwd.items():
        ib, ia = b.nodes[kb], a.nodes[ka]
        if ib.is_global == ia.is_global:
            shared[(kb[0], ib.subtopology, ka[0], ia.subtopology)] += 1
    for kb, (ka, _) in stores.items():
        sb, sa = b.stores[kb], a.stores[ka]
        if sb.is_global == sa.is_global:
            shared[(kb[0], sb.subtopology, ka[0], sa.subtopology)] += 3
    score = {((t_b, str(i_b)), (t_a, str(i_a))): n for (t_b, i_b, t_a, i_a), n in shared.items()}
    out: dict[Key, Key] = {}
    taken: set[Key] = set()
    ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0][0] != kv[0][1], kv[0]))
    for (sub_b, sub_a), _ in ranked:
        if sub_b not in out and sub_a not in taken:
            out[sub_b] = sub_a
            taken.add(sub_a)
    return out


def match_topics(b: Side, a: Side, fwd: Mapping[Key, Key]) -> dict[Key, tuple[Key, How]]:
    out, taken = _by_name(b.topics, a.topics)
    if len(out) == len(b.topics):
        return out  # every topic kept its name (most diffs): no topic left to match by node
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
