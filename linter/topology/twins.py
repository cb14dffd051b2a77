"""Mutable twins of frozen slotted dataclasses, for the objects the parser and the diff make
for every node: an instance of the twin whose every field is set and whose class is then set to
the frozen class is the object ``cls(...)`` makes, in about a quarter of the time (the generated
``__init__`` of a frozen class goes through ``object.__setattr__`` per field)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def twin(cls: type) -> type[Any]:
    """A mutable class laid out as the frozen slotted dataclass ``cls`` (the same slots in the
    same order, the same bases). Raises TypeError when ``cls`` is not such a class: CPython
    refuses the class assignment unless the two layouts agree, checked here, once."""
    names = tuple(f.name for f in fields(cls))
    if tuple(getattr(cls, "__slots__", ())) != names or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} is not a plain frozen slotted dataclass")
    namespace: dict[str, object] = {"__slots__": names}
    if "__orig_bases__" in cls.__dict__:  # a Generic: its twin derives from the same base
        namespace["__orig_bases__"] = cls.__dict__["__orig_bases__"]
    made = type(f"_{cls.__name__}", cls.__bases__, namespace)
    probe = made()
    for name in names:
        setattr(probe, name, None)
    probe.__class__ = cls  # TypeError when the layouts differ
    return made
