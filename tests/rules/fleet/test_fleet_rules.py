"""The fleet rules: catalogue identities and doc pages (their cases: ``fixtures/rules/fleet/``,
run by ``tests/rules/test_rule_cases.py``)."""

from __future__ import annotations

import re

import pytest

from rules.catalogue import ALL_RULES
from rules.fleet import FLEET_RULES
from rules.framework import Rule


@pytest.mark.parametrize("r", FLEET_RULES, ids=lambda r: r.name)
def test_rule_identity_and_doc(r: Rule) -> None:
    assert r in ALL_RULES
    assert r.subject == "fleet"
    assert re.fullmatch(r"KS8\d{2}", r.id)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", r.name)
    for section in ("Why:", "Example:", "Fix:"):
        assert re.search(rf"^{section}", r.doc, re.MULTILINE), f"{r.name}: no {section}"
