"""Properties of the describe() parser and printer over generated valid models."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from linter.topology.model import Description
from linter.topology.parse import parse
from linter.topology.render import render
from tests.hardening.strategies import describe_text, descriptions, shuffled_by


@given(descriptions())
def test_parse_of_render_is_identity(model: Description) -> None:
    assert parse(render(model), "model.txt") == model


@given(descriptions(), st.randoms(use_true_random=False))
def test_any_print_order_parses_to_the_same_model(model: Description, rng: random.Random) -> None:
    text = describe_text(model, shuffled_by(rng))
    assert parse(text, "shuffled.txt") == model


@given(descriptions())
def test_render_is_canonical(model: Description) -> None:
    text = render(model)
    assert render(parse(text, "model.txt")) == text
