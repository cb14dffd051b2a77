"""The alignment's work, counted: the summed sizes of the stretches it examines. Unlike time it is
deterministic, so tests can hold it to linear growth."""

from __future__ import annotations

from typing import Any

import pytest

from linter.topology import align


def count_stretch_work(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Patch ``align._stretch`` to add each stretch's size to the one item of the list returned
    (set it to 0 before each measured call)."""
    stretch = align._stretch
    work = [0]

    def counted(before: Any, after: Any, s: align.Stretch, pairs: Any) -> list[align.Stretch]:
        work[0] += s.size
        return stretch(before, after, s, pairs)

    monkeypatch.setattr(align, "_stretch", counted)
    return work
