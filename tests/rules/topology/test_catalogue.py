"""The topology rule catalogue: permanent identities and a doc page per rule (its cases and its
example: ``tests/rules/test_catalogue.py``)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rules.catalogue import ALL_RULES
from rules.framework import Rule
from rules.topology import TOPOLOGY_RULES

REQUIRED = {
    "generated-store-name", "generated-repartition-topic", "generated-processor-name",
    "store-renamed", "store-removed", "store-moved-subtopology", "subtopology-removed",
    "repartition-topic-removed", "key-change-before-stateful", "source-topics-changed",
    "sink-topic-changed", "global-store-changed", "application-id-changed",
    "topology-optimization-changed", "upgrade-from-required", "processing-guarantee-changed",
    "group-instance-id-changed", "unexplained-change",
}  # fmt: skip


def test_required_rules_exist() -> None:
    assert {r.name for r in TOPOLOGY_RULES} >= REQUIRED


def test_ids_and_names_are_unique_and_well_formed() -> None:
    ids = Counter(r.id for r in ALL_RULES)
    names = Counter(r.name for r in ALL_RULES)
    assert [i for i, n in ids.items() if n > 1] == []
    assert [i for i, n in names.items() if n > 1] == []
    for r in TOPOLOGY_RULES:
        assert re.fullmatch(r"KS\d{3}", r.id), r.id
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", r.name), r.name
    assert {r.id for r in TOPOLOGY_RULES if r.subject == "topology"} <= {
        f"KS1{i:02d}" for i in range(100)
    }
    assert {r.id for r in TOPOLOGY_RULES if r.subject == "topology-diff"} <= {
        f"KS2{i:02d}" for i in range(100)
    }
    assert {r.id for r in TOPOLOGY_RULES if r.subject == "streams-config"} <= {
        f"KS3{i:02d}" for i in range(100)
    }
    assert next(r for r in TOPOLOGY_RULES if r.id == "KS201").name == "store-renamed"


def test_every_topology_rule_is_in_all_rules() -> None:
    assert set(TOPOLOGY_RULES) <= set(ALL_RULES)


@pytest.mark.parametrize("r", TOPOLOGY_RULES, ids=lambda r: r.name)
def test_rule_has_a_doc_page(r: Rule) -> None:
    doc = r.doc
    assert r.summary
    assert not r.summary.endswith(","), r.summary
    for section in ("Why:", "Example:", "Fix:"):
        assert re.search(rf"^{section}", doc, re.MULTILINE), f"{r.name}: no {section}"
    assert doc.index("Why:") < doc.index("Example:") < doc.index("Fix:")


def test_every_topology_rule_runs_in_one_check() -> None:
    """The lint and the upgrade check each run their own part of the catalogue: a rule of a new
    subject kind must be given to one of them, not left out of both."""
    from linter.api.checks import _LINT_RULES, _UPGRADE_RULES

    assert sorted(r.id for r in (*_LINT_RULES, *_UPGRADE_RULES)) == sorted(
        r.id for r in TOPOLOGY_RULES
    )
