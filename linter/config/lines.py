"""Where keys are in a TOML text: ``tomllib`` keeps no positions, so a small line scan finds the
line of each table header and key for the messages."""

from __future__ import annotations

import re
from collections.abc import Mapping


def toml_error_line(message: str, text: str) -> int | None:
    match = re.search(r"at line (\d+)", message)
    if match:
        return int(match.group(1))
    return max(1, len(text.splitlines())) if "end of document" in message else None


_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_NAME = r"""(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)"""
_KEY = re.compile(rf"^\s*({_NAME}(?:\s*\.\s*{_NAME})*)\s*=")
_PART = re.compile(rf"\s*({_NAME})\s*(?:\.|$)")


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(p.strip("\"'") for p in _PART.findall(dotted))


def key_lines(text: str) -> dict[tuple[str | int, ...], int]:
    """Every table header and key of a TOML text with the 1-based line defining it (ints index
    arrays of tables). A small line scan: ``tomllib`` keeps no positions."""
    counts: dict[tuple[str, ...], int] = {}
    current: tuple[str | int, ...] = ()
    lines: dict[tuple[str | int, ...], int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header and not line.lstrip().startswith("#"):
            names = _parts(header.group(2))
            if header.group(1) == "[[":
                index = counts.get(names, -1) + 1
                counts[names] = index
                current = (*names, index)
            else:
                current = names
            full: tuple[str | int, ...] = current
        else:
            key = _KEY.match(line)
            if not key:
                continue
            full = (*current, *_parts(key.group(1)))
        lines.setdefault(full, number)
    return lines


def nearest(lines: Mapping[tuple[str | int, ...], int], keys: tuple[str | int, ...]) -> int | None:
    for end in range(len(keys), 0, -1):
        if keys[:end] in lines:
            return lines[keys[:end]]
    return None
