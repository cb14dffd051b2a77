"""What a step did beyond the state after it: the facts rules need and the state does not keep.

Each step kind that has such facts gets its own frozen class; a
:class:`~cluster_engine.simulate.Transition` carries one of them (or None) as ``facts``. Rules
narrow it with ``isinstance``, so a renamed field is a type error, not a rule gone quiet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias

from cluster_engine.state import Move


@dataclass(frozen=True, slots=True)
class RestartFacts:
    """``upgrade-binaries``, ``restart``, ``rolling-restart``: the nodes stopped together, in
    order (one batch at a time)."""

    batches: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class ElrRewriteFacts:
    """``update-feature`` enabling ELR: the controller rewrites min.insync.replicas. It writes
    ``cluster_value`` at cluster level (None: one was already set) and deletes the broker-level
    value of ``removed_brokers``."""

    cluster_value: str | None
    removed_brokers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ElrClearFacts:
    """``alter-config`` of min.insync.replicas with ELR enabled: the ELR state of ``scope`` (a
    topic, or ``*`` for all) is cleared; ``partitions`` of them had a non-empty ELR."""

    scope: str
    partitions: int


@dataclass(frozen=True, slots=True)
class ReassignFacts:
    """``reassign``: the ``moves`` it starts; when refused, the ``unknown_brokers`` and the
    ``missing`` partitions (``topic-partition``) of its JSON."""

    moves: tuple[Move, ...] = ()
    unknown_brokers: tuple[int, ...] = ()
    missing: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class VerifyFacts:
    """``verify-reassignment``: why the throttles were kept (None: they were removed)."""

    kept_because: str | None


@dataclass(frozen=True, slots=True)
class CancelFacts:
    """``cancel-reassignment``: the moves (topic, partition) whose revert needs an unclean
    election (refused unless the topic allows it: those stay in flight)."""

    unclean: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class DecommissionFacts:
    """``decommission-broker``: each leaving broker -> the partitions still with a replica on
    it (not moved away)."""

    holding: Mapping[int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class ElectFacts:
    """``elect-leaders``: the partitions elected from an out-of-sync replica (records lost)."""

    unclean: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CreateFacts:
    """``create-topic``, ``add-partitions``: the replication factor, the brokers placement may
    use (registered, not shutting down), those ``live`` (unfenced, not down), and those in
    controlled shutdown at that moment."""

    rf: int
    usable: tuple[int, ...]
    live: tuple[int, ...]
    shutting_down: tuple[int, ...]


StepFacts: TypeAlias = (
    RestartFacts
    | ElrRewriteFacts
    | ElrClearFacts
    | ReassignFacts
    | VerifyFacts
    | CancelFacts
    | DecommissionFacts
    | ElectFacts
    | CreateFacts
    | None
)
