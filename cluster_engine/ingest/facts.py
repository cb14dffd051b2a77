"""Facts read from captures, each remembering the file and line it came from."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from cluster_engine.errors import ClusterInputError


class Facts:
    """Values keyed by what they describe, each remembering where it was read."""

    def __init__(self) -> None:
        self.values: dict[Hashable, tuple[Any, str, int]] = {}

    def put(self, key: Hashable, value: Any, path: str, line: int, what: str) -> None:
        old = self.values.get(key)
        if old is None:
            self.values[key] = (value, path, line)
        elif old[0] != value:
            raise ClusterInputError(
                path,
                line,
                f"{what} is {show(value)} here, but {old[1]}:{old[2]} says {show(old[0])}",
            )

    def get(self, key: Hashable, default: Any = None) -> Any:
        found = self.values.get(key)
        return found[0] if found is not None else default

    def has(self, key: Hashable) -> bool:
        return key in self.values


def show(value: Any) -> str:
    """A fact's value as an error message quotes it."""
    if isinstance(value, tuple):
        return "[" + ",".join(str(v) for v in value) + "]"
    return repr(value) if isinstance(value, str) else str(value)
