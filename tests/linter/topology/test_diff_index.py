"""The diff's items made through their mutable twins (``twins.twin``) are the objects their
own constructors make: same class, equality, hash and repr."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import pytest

from linter.topology.diff import Pair
from linter.topology.diff_index import (
    NodeInfo,
    StoreInfo,
    SubtopologyInfo,
    TopicInfo,
    _store_info,
    _sub_info,
    _topic_info_of,
)
from linter.topology.model import Position, Processor
from linter.topology.twins import twin


def _through_twin(cls: type, values: dict[str, Any]) -> Any:
    made = twin(cls)()
    for name, value in values.items():
        setattr(made, name, value)
    made.__class__ = cls
    return made


NODE = Processor(
    name="KSTREAM-MAP-0000000001",
    stores=frozenset({"s"}),
    successors=frozenset({"b"}),
    predecessors=frozenset({"a"}),
    position=Position(3, 5),
)
CASES: list[tuple[type, dict[str, Any]]] = [
    (NodeInfo, {"topology": "t", "subtopology": 2, "is_global": False, "node": NODE}),
    (
        Pair,
        {"before": "x", "after": "y", "how": "index", "changes": frozenset({"renamed"})},
    ),
]


@pytest.mark.parametrize(("cls", "values"), CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_twin_makes_the_constructors_object(cls: type, values: dict[str, Any]) -> None:
    made = _through_twin(cls, values)
    plain = cls(**values)
    assert type(made) is cls
    assert made == plain
    assert hash(made) == hash(plain)
    assert repr(made) == repr(plain)
    assert [getattr(made, f.name) for f in fields(cls)] == list(values.values())


def test_info_makers_match_the_constructors() -> None:
    owners, line = frozenset({"p", "q"}), 7
    assert _store_info("t", "s", 1, True, owners, line) == StoreInfo("t", "s", 1, True, owners, 7)
    sets = [frozenset({str(i)}) for i in range(5)]
    assert _sub_info("t", 3, False, *sets[:4], None, sets[4]) == SubtopologyInfo(
        "t", 3, False, *sets[:4], None, sets[4]
    )
    subs = frozenset({1, 2})
    assert _topic_info_of(None, "x", "sink", sets[0], sets[1], subs, 4) == TopicInfo(
        None, "x", "sink", sets[0], sets[1], subs, 4
    )
    made = _store_info("t", "s", 1, True, owners, line)
    with pytest.raises(AttributeError):
        made.name = "other"  # type: ignore[misc]  # frozen, as the constructor's


def test_twin_refuses_a_class_it_cannot_stand_for() -> None:
    @dataclass(frozen=True)
    class NoSlots:
        a: int

    with pytest.raises(TypeError):
        twin(NoSlots)


def test_matching_and_diff_makers_match_the_constructors() -> None:
    from linter.topology.diff import Matching, TopologyDiff, _diff_of, _matching_of
    from linter.topology.model import Description

    pair = Pair("a", "b", "name")
    made = _matching_of((pair,), ("c",), ("d",))
    assert made == Matching((pair,), ("c",), ("d",))
    assert type(made) is Matching
    assert _matching_of(()) == Matching()
    desc = Description(topologies=(), path="x")
    fields_ = {
        "before": desc, "after": desc, "subtopologies": Matching(), "nodes": made,
        "stores": Matching(), "topics": Matching(), "key_changes": (),
        "node_map": {("", "a"): ("", "b")}, "replaced": (),
    }
    built = _diff_of(**fields_)  # type: ignore[arg-type]
    assert type(built) is TopologyDiff
    assert repr(built) == repr(TopologyDiff(**fields_))  # type: ignore[arg-type]
