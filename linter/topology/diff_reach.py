"""Which key walks (``diff_keys``) can tell the two sides apart: those that meet, upstream of
their start, a node matched to one the walk on the other side would not meet in its place.

A walk reads of a node its class, its predecessors, the kind of operator its name (or its
counterpart's) tells, and of a source whether it follows internal topics to their writers. Where
every node a before-side walk meets has a counterpart that agrees on all of that (the
predecessors and writers mapped by the node matching exactly onto the counterpart's), the
after-side walk meets the counterparts in the same states, finds the counterparts of the same
origins, and ``_same_origins`` holds: the walk can be left out. Most nodes of an upgrade agree
so (a renumbered one too); a walk is needed only downstream of one that does not, and there up
to the first operator that sets the key (where every walk stops).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Protocol

from linter.topology import naming
from linter.topology.diff_index import Change, NodeInfo
from linter.topology.diff_keys import _KEY_SETTER, _kind_of
from linter.topology.diff_match import NO_CHANGE
from linter.topology.diff_side import Side
from linter.topology.model import Processor, Source

# ``Change.PREDECESSORS`` is looked up by ``EnumType.__getattr__`` (a Python call) each time
_PREDECESSORS = Change.PREDECESSORS


class NodePair(Protocol):
    """A pair of the node matching (``diff.Pair[NodeInfo]``)."""

    @property
    def before(self) -> NodeInfo: ...
    @property
    def after(self) -> NodeInfo: ...
    @property
    def changes(self) -> frozenset[Change]: ...


def walked(b: Side, a: Side, fwd: Mapping[str, str], pairs: Iterable[NodePair]) -> set[str]:
    """The before-names whose key walk may find other origins than their counterpart's (a
    superset: a start not among them finds the same, and ``key_changes`` need not walk it).
    ``pairs``: the node matching's pairs, one for each name of ``fwd``."""
    # the nodes whose counterpart a walk could tell apart from them (see the module's doc)
    apart: set[str] = set()
    # before-side walk edges reversed: a writer of an internal topic -> the sources following it
    followers: defaultdict[str, list[str]] = defaultdict(list)
    for pair in pairs:
        ib, changes = pair.before, pair.changes
        nb = ib.node
        if type(nb) is not Source:
            if changes is NO_CHANGE:  # most nodes: the same node, its neighbours kept
                continue
            na = pair.after.node
            if _PREDECESSORS in changes or type(na) is not type(nb):
                apart.add(nb.name)
            elif nb.name != na.name:
                kind_b, kind_a = _kind_of(nb.name), _kind_of(na.name)
                # a walk takes a name that says nothing from the counterpart (``_kind``)
                if kind_b is not None and kind_a is not None and kind_b != kind_a:
                    apart.add(nb.name)
            continue
        ia = pair.after
        na = ia.node
        topics_b = () if ib.is_global else _internal(nb.topics)
        if type(na) is not Source:
            apart.add(nb.name)
            continue
        topics_a = () if ia.is_global else _internal(na.topics)
        if not topics_b or not topics_a:
            if topics_b or topics_a:  # one side follows internal topics, one not
                apart.add(nb.name)
            continue  # most sources: an origin on both sides
        kb = nb.name
        writers_b = _writers(b, topics_b)
        if {fwd.get(w) for w in writers_b} != _writers(a, topics_a):
            apart.add(kb)
        for w in writers_b:
            followers[w].append(kb)
    if not apart:
        return apart
    # predecessor edges reversed, over the before side (not ``succ``: a model built by hand
    # may list arrows that disagree)
    below: defaultdict[str, list[str]] = defaultdict(list)
    for key, preds in b.pred.items():
        for p in preds:
            below[p].append(key)
    # a walk from a start visits its predecessors: the starts below a tainted node walk; a node
    # whose walk passes one is tainted in turn, unless it sets the key itself (the walk stops)
    walk = set(apart)
    tainted = set(apart)
    stack = list(apart)
    while stack:
        key = stack.pop()
        for nxt in (*below.get(key, ()), *followers.get(key, ())):
            walk.add(nxt)
            if nxt in tainted:
                continue
            kind = _kind_of(nxt)
            if kind is None and nxt in fwd:
                kind = _kind_of(fwd[nxt])
            # only a processor stops a walk: a sink that writes a followed topic is not met
            # itself (its predecessors are)
            if kind == _KEY_SETTER and type(b.nodes[nxt].node) is Processor:
                continue
            tainted.add(nxt)
            stack.append(nxt)
    return walk


def _writers(side: Side, topics: tuple[str, ...]) -> set[str]:
    """The writers of internal ``topics``: a source's walk goes on from their predecessors
    (``_step``)."""
    writers: set[str] = set()
    for topic in topics:
        writers.update(side.writers_of.get(topic, ()))
    return writers


@functools.lru_cache(maxsize=1 << 12)
def _internal(topics: frozenset[str]) -> tuple[str, ...]:
    """The internal topics among a source's: the ones its walk follows (asked of every source
    of both sides of a diff, for the same few sets)."""
    return tuple([t for t in topics if naming.is_internal_topic(t)])
