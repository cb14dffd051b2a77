"""Which node, store, sub-topology and topic of ``before`` is which of ``after`` (see
``linter.topology.diff`` for the order of matching and why)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from collections.abc import Set as AbstractSet

from linter.topology import align, naming
from linter.topology.diff_index import Change, How, NodeInfo
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


def match_nodes(b: Side, a: Side) -> tuple[dict[str, str], dict[str, How]]:
    """The node matching: before name -> after name, and how each pair was matched."""
    fwd: dict[str, str] = {}
    how: dict[str, How] = {}
    # 1. chosen names
    nodes_b, nodes_a = b.nodes, a.nodes
    for key in b.chosen:
        there = nodes_a.get(key)
        if there is not None and there.node.kind == nodes_b[key].node.kind:
            fwd[key], how[key] = key, "name"
    # 2. generated names: align the index sequences
    roles_b, keys_b = _sequence(b.sequence)
    roles_a, keys_a = _sequence(a.sequence)
    for i, j in align.align(roles_b, roles_a):
        kb = keys_b[i]
        fwd[kb], how[kb] = keys_a[j], "index"
    # 3. structure: propagate along matched edges until nothing changes
    _propagate(b, a, fwd, how)
    return fwd, how


def match_identical(side: Side) -> tuple[dict[str, str], dict[str, How]]:
    """What ``match_nodes`` finds between two equal sides, without the work: every node with
    itself, a chosen name by name and a generated one by index (the two index sequences are the
    same, so the alignment pairs them all). Nothing is left for the structure to match."""
    fwd = {key: key for key in side.nodes}
    how: dict[str, How] = dict.fromkeys(side.nodes, "index")
    for key in side.chosen:
        how[key] = "name"
    return fwd, how


def _sequence(items: list[SeqItem]) -> tuple[list[SeqKey], list[str]]:
    """A topology's generated nodes in index order: their roles (what the alignment compares)
    and their names."""
    items.sort()
    return [item[2] for item in items], [item[3] for item in items]


def _propagate(b: Side, a: Side, fwd: dict[str, str], how: dict[str, How]) -> None:
    matched_after = set(fwd.values())
    if len(fwd) == len(b.nodes) or len(matched_after) == len(a.nodes):
        return  # as below, before the frontier's sort: the usual upgrade ends here
    frontier = sorted(fwd)
    while frontier:
        if len(fwd) == len(b.nodes) or len(matched_after) == len(a.nodes):
            return  # one side is all matched (the usual upgrade): no free neighbour is left
        next_frontier: list[str] = []
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


def node_changes(p_b: NodeInfo, p_a: NodeInfo, fwd: Mapping[str, str], b: Side, a: Side,
                  store_map: Mapping[str, str], sub_map: Mapping[str, str],
                  fixed: AbstractSet[str] = frozenset()) -> frozenset[Change]:
    """What differs between the matched nodes (of one topology: ``b`` and ``a``). ``fixed`` may
    name before-names that ``fwd`` maps to themselves: it only saves work (see
    ``_kept_changes``)."""
    ch: set[Change] = set()
    nb, na = p_b.node, p_a.node
    kb, ka = nb.name, na.name
    # names first: a renumbered pair (most pairs here) differs there, without ``==``'s tuples
    if kb == ka and nb == na:
        return _kept_changes(p_b, p_a, fwd, b, store_map, sub_map, fixed)
    if kb != ka:
        gb, ga = naming.generated(kb), naming.generated(ka)
        same_role = gb is not None and ga is not None and gb.role_key == ga.role_key
        ch.add(Change.REINDEXED if same_role else Change.RENAMED)
    if sub_map.get(str(p_b.subtopology)) != str(p_a.subtopology):
        ch.add(Change.SUBTOPOLOGY)
    if p_b.subtopology != p_a.subtopology:
        ch.add(Change.SUBTOPOLOGY_ID)
    if {fwd.get(k) for k in b.succ[kb]} != a.succ[ka]:
        ch.add(Change.SUCCESSORS)
    if {fwd.get(k) for k in b.pred[kb]} != a.pred[ka]:
        ch.add(Change.PREDECESSORS)
    stores_b, stores_a = nb.stores, na.stores
    if (stores_b or stores_a) and {store_map.get(s) for s in stores_b} != stores_a:
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


def _kept_changes(p_b: NodeInfo, p_a: NodeInfo, fwd: Mapping[str, str], b: Side,
                  store_map: Mapping[str, str], sub_map: Mapping[str, str],
                  fixed: AbstractSet[str]) -> frozenset[Change]:
    """``node_changes`` of two equal nodes (most nodes of an upgrade): same name, topics and
    neighbour names, so only the sub-topology and where the neighbours and stores went can
    differ. A neighbour set whose names all map to themselves (``fixed``) is kept without
    building its image."""
    ch: set[Change] = set()
    kb = p_b.node.name
    if sub_map.get(str(p_b.subtopology)) != str(p_a.subtopology):
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
    if stores and {store_map.get(s) for s in stores} != stores:
        ch.add(Change.STORES)
    return frozenset(ch) if ch else NO_CHANGE


# --- stores, sub-topologies, topics ----------------------------------------------------------


def _by_name(
    before: Mapping[str, object], after: Mapping[str, object]
) -> tuple[dict[str, tuple[str, How]], set[str]]:
    """The items kept under their key, and the after-keys so taken. Unsorted: the steps that
    read it in order sort it (``diff._matching``) or sort what they rank by a total order."""
    out: dict[str, tuple[str, How]] = {key: (key, "name") for key in before if key in after}
    return out, set(out)


def match_stores(b: Side, a: Side, fwd: Mapping[str, str]) -> dict[str, tuple[str, How]]:
    out, taken = _by_name(b.stores, a.stores)
    # by owner: the after-stores listed by the matched owners, best overlap first
    scored: list[tuple[int, str, str]] = []
    for key, info in b.stores.items():
        if key in out:
            continue
        mapped = {fwd.get(o) for o in info.owners} - {None}
        cands: dict[str, int] = defaultdict(int)
        for m in mapped:
            assert m is not None
            node = a.nodes[m].node
            for s in node.stores:
                cands[s] += 1
        for ka, score in cands.items():
            if ka not in taken and ka not in b.stores:
                scored.append((-score, key, ka))
    for _, kb, ka in sorted(scored):
        if kb not in out and ka not in taken:
            out[kb] = (ka, "owner")
            taken.add(ka)
    return out


def match_subtopologies(
    b: Side, a: Side, fwd: Mapping[str, str], stores: Mapping[str, tuple[str, How]]
) -> dict[str, str]:
    # shared content per id on each side; the ids become keys once per pair of them
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for kb, ka in fwd.items():
        ib, ia = b.nodes[kb], a.nodes[ka]
        if ib.is_global == ia.is_global:
            shared[(ib.subtopology, ia.subtopology)] += 1
    for kb, (ka, _) in stores.items():
        sb, sa = b.stores[kb], a.stores[ka]
        if sb.is_global == sa.is_global:
            shared[(sb.subtopology, sa.subtopology)] += 3
    score = {(str(i_b), str(i_a)): n for (i_b, i_a), n in shared.items()}
    out: dict[str, str] = {}
    taken: set[str] = set()
    ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0][0] != kv[0][1], kv[0]))
    for (sub_b, sub_a), _ in ranked:
        if sub_b not in out and sub_a not in taken:
            out[sub_b] = sub_a
            taken.add(sub_a)
    return out


def match_topics(b: Side, a: Side, fwd: Mapping[str, str]) -> dict[str, tuple[str, How]]:
    out, taken = _by_name(b.topics, a.topics)
    if len(out) == len(b.topics):
        return out  # every topic kept its name (most diffs): no topic left to match by node
    by_node: dict[tuple[str, str], str] = {}  # (after node name, role) -> after topic key
    for ka, ta in a.topics.items():
        for n in ta.writers | ta.readers:
            by_node.setdefault((n, ta.role), ka)
    for kb in sorted(b.topics):
        if kb in out:
            continue
        tb = b.topics[kb]
        for n in sorted(tb.writers | tb.readers):
            m = fwd.get(n)
            found = by_node.get((m, tb.role)) if m is not None else None
            if found is not None and found not in taken and found not in b.topics:
                out[kb] = (found, "nodes")
                taken.add(found)
                break
    return out
