"""Properties of the diff on generated topologies: a topology never differs from itself, however
it is printed, and the matching is total and one-to-one."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from linter import api
from linter.topology.diff import diff
from linter.topology.model import Description
from linter.topology.parse import parse
from tests.hardening.strategies import describe_text, descriptions, shuffled_by


@settings(max_examples=60, deadline=None)
@given(descriptions(), st.integers(min_value=0, max_value=2**32 - 1))
def test_reprinted_topology_has_no_findings(model: Description, seed: int) -> None:
    text = describe_text(model, shuffled_by(random.Random(seed)))
    report = api.diff(model, parse(text, "reprinted.txt"))
    assert report.findings == ()
    assert report.verdict is not None
    assert report.verdict.value == "safe"


@settings(max_examples=60, deadline=None)
@given(descriptions(), descriptions())
def test_matching_is_one_to_one_and_total(before: Description, after: Description) -> None:
    result = diff(before, after)
    nb = sum(1 for _ in before.nodes())
    na = sum(1 for _ in after.nodes())
    pairs = result.nodes.pairs
    assert len({p.before.key for p in pairs}) == len(pairs)
    assert len({p.after.key for p in pairs}) == len(pairs)
    assert len(pairs) + len(result.nodes.removed) == nb
    assert len(pairs) + len(result.nodes.added) == na
    stores = result.stores
    assert len({p.after.key for p in stores.pairs}) == len(stores.pairs)
