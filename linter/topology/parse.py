"""describe() text -> :class:`~linter.topology.model.Description` (placeholder API; the Lark
implementation replaces the body of :func:`parse`)."""

from __future__ import annotations

from pathlib import Path

from linter.topology.errors import TopologyParseError
from linter.topology.model import Description

__all__ = ["TopologyParseError", "parse", "parse_file"]


def parse(text: str, path: str = "<text>") -> Description:
    raise TopologyParseError(path, 1, 1, "a topology", "an unimplemented parser")


def parse_file(path: str | Path) -> Description:
    p = Path(path)
    return parse(p.read_text(encoding="utf-8"), str(p))
