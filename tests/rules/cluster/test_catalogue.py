"""The cluster rule catalogue: permanent identities and a doc page per rule (its cases and its
example: ``tests/rules/test_catalogue.py``)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rules.catalogue import ALL_RULES
from rules.cluster import CLUSTER_RULES
from rules.framework import Rule

REQUIRED = {
    "metadata-version-unsupported", "metadata-version-downgrade-blocked",
    "metadata-version-irreversible", "feature-dependency-unmet", "release-version-side-effects",
    "throttle-too-low", "reassignment-unthrottled", "throttle-left-behind",
    "throttle-removed-mid-reassignment", "cancel-requires-unclean-election",
    "restart-breaks-min-isr", "restart-without-urp-wait", "decommission-before-drain",
    "decommission-overlap", "broker-added-without-reassignment", "quorum-change-unsupported",
    "quorum-concurrent-changes", "quorum-even-size", "quorum-static-config",
    "unclean-election-enabled", "unclean-election-planned", "elr-broker-min-isr-refused",
    "elr-cluster-min-isr-removal-refused", "elr-state-cleared", "elr-enable-rewrites-min-isr",
    "topic-creation-insufficient-brokers", "min-isr-not-below-rf", "disk-usage-high",
}  # fmt: skip

def test_required_rules_exist() -> None:
    assert {r.name for r in CLUSTER_RULES} >= REQUIRED


def test_ids_and_names_are_unique_and_well_formed() -> None:
    assert [i for i, n in Counter(r.id for r in ALL_RULES).items() if n > 1] == []
    assert [i for i, n in Counter(r.name for r in ALL_RULES).items() if n > 1] == []
    for r in CLUSTER_RULES:
        assert re.fullmatch(r"KC\d{3}", r.id), r.id
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", r.name), r.name
        assert r.subject in ("cluster-step", "cluster", "cluster-apps"), r.subject
    assert next(r for r in CLUSTER_RULES if r.id == "KC011").name == "restart-breaks-min-isr"


def test_every_cluster_rule_is_in_all_rules() -> None:
    assert set(CLUSTER_RULES) <= set(ALL_RULES)


@pytest.mark.parametrize("r", CLUSTER_RULES, ids=lambda r: r.name)
def test_rule_has_a_doc_page(r: Rule) -> None:
    doc = r.doc
    assert r.summary, r.name
    assert r.summary.endswith("."), r.summary
    for section in ("Why:", "Example:", "Fix:"):
        assert re.search(rf"^{section}", doc, re.MULTILINE), f"{r.name}: no {section}"
    assert doc.index("Why:") < doc.index("Example:") < doc.index("Fix:")
