"""Mutable twins of frozen slotted dataclasses, for the objects the parser and the diff make
for every node: an instance of the twin whose every field is set and whose class is then set to
the frozen class is the object ``cls(...)`` makes, in about a quarter of the time (the generated
``__init__`` of a frozen class goes through ``object.__setattr__`` per field)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def twin(cls: type) -> type[Any]:
    """A mutable class laid out as the frozen slotted dataclass ``cls``: a subclass adding no
    slot, whose instances take attributes as a plain object's do and are made without
    arguments. Raises TypeError when ``cls`` is not such a class: CPython refuses the class
    assignment unless the two layouts agree, checked here, once.

    A subclass rather than a sibling class with the same slots: setting ``__class__`` from a
    subclass that adds nothing to its base is the cheap case of CPython's layout check (a
    sibling's slot names are compared, ~300 instructions more per object, paid per node)."""
    names = tuple(f.name for f in fields(cls))
    if tuple(getattr(cls, "__slots__", ())) != names or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} is not a plain frozen slotted dataclass")
    namespace: dict[str, object] = {
        "__slots__": (),
        "__init__": object.__init__,
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
    }
    made = type(f"_{cls.__name__}", (cls,), namespace)
    probe = made()
    for name in names:
        setattr(probe, name, None)
    probe.__class__ = cls  # TypeError when the layouts differ
    return made
