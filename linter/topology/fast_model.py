"""The model objects the parser's fast path (``parse_fast``) builds, through mutable twins of
the model classes (``twins.twin``) whose class is then set to the model class: a frozen
dataclass's ``__init__`` sets every field through ``object.__setattr__`` and costs twice as much,
which matters for the many nodes of a large topology. The twins are only made while the model
classes are laid out as this code expects; otherwise :data:`TWINS` is empty and the fast path is
off. Positions are kept across texts (:func:`position`)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, cast

from linter.topology.model import (
    Description,
    Node,
    Position,
    Processor,
    Sink,
    Source,
    Subtopology,
    Topology,
)
from linter.topology.twins import twin

__all__ = ["KEPT_LINES", "TWINS", "description", "kept_rows", "position", "subtopology", "topology"]


def _twins() -> tuple[type, ...] | None:
    """Mutable classes laid out as Position, Processor, Source, Sink, Subtopology, Topology and
    Description, or None when those are not the classes this module was written for (then the
    fast path is off)."""
    expected: dict[type, tuple[str, ...]] = {
        Position: ("line", "column"),
        Processor: ("name", "stores", "successors", "predecessors", "position", "kind"),
        Source: ("name", "topics", "pattern", "successors", "position", "kind"),
        Sink: ("name", "topic", "extractor", "predecessors", "position", "kind"),
        Subtopology: ("id", "nodes", "is_global", "position"),
        Topology: ("subtopologies", "name", "position", "layout"),
        Description: ("topologies", "path"),
    }
    if any(tuple(f.name for f in fields(cls)) != names for cls, names in expected.items()):
        return None
    try:
        return tuple(twin(cls) for cls in expected)
    except TypeError:  # not a plain frozen slotted dataclass any more
        return None


TWINS: tuple[type, ...] = _twins() or ()


# Positions are values (immutable, compared by value, left out of the model's equality): one
# object per line and column serves every text this process reads. Making and freeing one per
# node was a tenth of the time of reading a text of the usual size (~40 nodes); kept, the
# fleet's texts (a few columns, lines 1 to a few hundred) make almost none. Bounded: the first
# _KEPT_COLUMNS columns met, lines 1 to KEPT_LINES of each (a line past them is not looked up).
_POSITIONS: dict[int, dict[int, Position]] = {}
_KEPT_COLUMNS, KEPT_LINES = 8, 1024


def kept_rows(column: int) -> dict[int, Position]:
    """The kept positions of ``column``, by line (a dict that keeps none past the bound of
    columns)."""
    rows = _POSITIONS.get(column)
    if rows is None:
        rows = {}
        if len(_POSITIONS) < _KEPT_COLUMNS:
            _POSITIONS[column] = rows
    return rows


def position(line: int, column: int) -> Position:
    """``Position(line, column)``: a kept one, or one built through its twin (and kept)."""
    rows = kept_rows(column)
    kept = rows.get(line)
    if kept is not None:
        return kept
    position: Any = TWINS[0]()
    position.line = line
    position.column = column
    position.__class__ = Position
    if line <= KEPT_LINES:
        rows[line] = position
    return cast(Position, position)


def subtopology(number: int, nodes: list[Node], is_global: bool, at: Position) -> Subtopology:
    """``Subtopology(number, frozenset(nodes), is_global, at)``, built through its twin."""
    sub: Any = TWINS[4]()
    sub.id = number
    sub.nodes = frozenset(nodes)
    sub.is_global = is_global
    sub.position = at
    sub.__class__ = Subtopology
    return cast(Subtopology, sub)


def topology(subs: list[Subtopology], name: str | None, at: Position) -> Topology:
    """``Topology(tuple(subs), name, at, "describe")``, built through its twin."""
    topology: Any = TWINS[5]()
    topology.subtopologies = tuple(subs)
    topology.name = name
    topology.position = at
    topology.layout = "describe"
    topology.__class__ = Topology
    return cast(Topology, topology)


def description(topologies: list[Topology], path: str) -> Description:
    """``Description(tuple(topologies), path)``, built through its twin."""
    description: Any = TWINS[6]()
    description.topologies = tuple(topologies)
    description.path = path
    description.__class__ = Description
    return cast(Description, description)
