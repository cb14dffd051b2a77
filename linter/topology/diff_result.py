"""What a diff returns (``diff.diff``): pairs of matched items with what changed in each,
what is only on one side, and the whole ``TopologyDiff``; each made through its twin
(``twins.twin``) in the loops that make one per node, store and topic of every diff."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from linter.topology.diff_flow import StoreReplacement
from linter.topology.diff_index import (
    Change,
    How,
    Key,
    NodeInfo,
    StoreInfo,
    SubtopologyInfo,
    TopicInfo,
)
from linter.topology.diff_keys import KeyChange
from linter.topology.model import Description
from linter.topology.twins import twin

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Pair(Generic[T]):
    """One item of ``before`` matched to one of ``after``; ``changes`` says what differs."""

    before: T
    after: T
    how: How
    changes: frozenset[Change] = frozenset()

    @property
    def changed(self) -> bool:
        return bool(self.changes)


# ``Pair(before, after, how, changes)`` is made through its twin (``twins.twin``), inline
# in the loops that make one per node, store and topic of every diff
_PAIR = twin(Pair)


@dataclass(frozen=True, slots=True)
class Matching(Generic[T]):
    pairs: tuple[Pair[T], ...] = ()
    added: tuple[T, ...] = ()
    removed: tuple[T, ...] = ()

    @property
    def changed(self) -> tuple[Pair[T], ...]:
        return tuple(p for p in self.pairs if p.changes)



@dataclass(frozen=True, slots=True)
class TopologyDiff:
    """Everything the rules need to judge an upgrade from ``before`` to ``after``."""

    before: Description
    after: Description
    subtopologies: Matching[SubtopologyInfo]
    nodes: Matching[NodeInfo]
    stores: Matching[StoreInfo]
    topics: Matching[TopicInfo]
    key_changes: tuple[KeyChange, ...] = ()
    node_map: Mapping[Key, Key] = field(default_factory=dict)  # before key -> after key
    # removed stores whose inputs and outputs added stores took over (their state starts empty)
    replaced: tuple[StoreReplacement, ...] = ()

    @property
    def identical(self) -> bool:
        return self.before == self.after


_MATCHING, _DIFF = twin(Matching), twin(TopologyDiff)


def _matching_of(
    pairs: tuple[Pair[T], ...], added: tuple[T, ...] = (), removed: tuple[T, ...] = ()
) -> Matching[T]:
    """``Matching(pairs, added, removed)``, made through its twin (four of them a diff)."""
    made = _MATCHING()
    made.pairs = pairs
    made.added = added
    made.removed = removed
    made.__class__ = Matching
    matching: Matching[T] = made  # not ``cast``: a call, and ``Matching[T]`` made each time
    return matching


def _diff_of(
    before: Description,
    after: Description,
    subtopologies: Matching[SubtopologyInfo],
    nodes: Matching[NodeInfo],
    stores: Matching[StoreInfo],
    topics: Matching[TopicInfo],
    key_changes: tuple[KeyChange, ...],
    node_map: Mapping[Key, Key],
    replaced: tuple[StoreReplacement, ...],
) -> TopologyDiff:
    """``TopologyDiff(...)`` with every field, made through its twin."""
    made = _DIFF()
    made.before = before
    made.after = after
    made.subtopologies = subtopologies
    made.nodes = nodes
    made.stores = stores
    made.topics = topics
    made.key_changes = key_changes
    made.node_map = node_map
    made.replaced = replaced
    made.__class__ = TopologyDiff
    result: TopologyDiff = made  # not ``cast``: a call
    return result
