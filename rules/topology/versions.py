"""Kafka Streams version strings as the user gives them (``--streams-version-before/after``)."""

from __future__ import annotations

import re

_VERSION = re.compile(r"\s*(\d+)\.(\d+)(?:\.(\d+))?")


def parse(v: str | None) -> tuple[int, int, int] | None:
    """``"4.1.0"`` -> ``(4, 1, 0)``; a missing patch is 0; ``None`` when not a version."""
    if not v:
        return None
    m = _VERSION.match(v)
    if m is None:
        return None
    return int(m[1]), int(m[2]), int(m[3] or 0)


def minor(v: str | None) -> tuple[int, int] | None:
    parsed = parse(v)
    return parsed[:2] if parsed is not None else None
