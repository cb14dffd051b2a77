"""The topology rule catalogue: permanent identities, a doc page per rule, YAML cases per rule,
and the doc page's example run as a test."""

from __future__ import annotations

import re
import textwrap
from collections import Counter

import pytest

from linter import api
from linter.topology.parse import parse
from linter.topology.streams_config import parse_properties
from rules.catalogue import ALL_RULES
from rules.framework import Rule
from rules.topology import TOPOLOGY_RULES
from tests.rules.topology.cases import load_cases

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


@pytest.mark.parametrize("r", TOPOLOGY_RULES, ids=lambda r: r.name)
def test_rule_has_passing_and_failing_cases(r: Rule) -> None:
    cases = [c for c in load_cases() if c.rule == r.name]
    assert any(c.expect for c in cases), f"{r.name}: no case where it fires"
    assert any(not c.expect for c in cases), f"{r.name}: no case where it stays quiet"


def versions(r: Rule) -> tuple[str | None, str | None]:
    """The example's ``Versions: OLD -> NEW`` line (Kafka Streams versions), when it has one."""
    doc = r.doc
    m = re.search(r"^\s*Versions: (\S+) -> (\S+)$", doc[doc.index("Example:") :], re.MULTILINE)
    return (m[1], m[2]) if m else (None, None)


def example(r: Rule) -> tuple[str, str]:
    """The ``Before:`` and ``After:`` blocks of the doc page's example."""
    doc = r.doc
    body = doc[doc.index("Example:") : doc.index("\nFix:")]
    before = body[body.index("Before:") + len("Before:") : body.index("After:")]
    after = body[body.index("After:") + len("After:") :]
    return (
        textwrap.dedent(before.strip("\n")).strip("\n") + "\n\n",
        textwrap.dedent(after.strip("\n")).strip("\n") + "\n\n",
    )


def _fires(
    r: Rule, before: str, after: str | None, streams_versions: tuple[str | None, str | None]
) -> bool:
    only = api.Settings(select=frozenset({r.id}))
    if r.subject == "topology":
        report = api.lint(parse(before, "<doc>"), only)
    elif r.subject == "topology-diff":
        assert after is not None
        report = api.diff(parse(before, "<before>"), parse(after, "<after>"), only)
    else:
        assert after is not None
        version_before, version_after = streams_versions
        report = api.diff(
            None,
            None,
            only,
            streams_before=parse_properties(before, "before.properties"),
            streams_after=parse_properties(after, "after.properties"),
            streams_version_before=version_before,
            streams_version_after=version_after,
        )
    return any(f.rule == r.id for f in report.findings)


@pytest.mark.parametrize("r", TOPOLOGY_RULES, ids=lambda r: r.name)
def test_doc_example_is_true(r: Rule) -> None:
    """The example's Before (lint) or Before -> After (diff) triggers the rule; the fixed After
    (lint) or an unchanged Before -> Before on an unchanged version (diff) does not."""
    before, after = example(r)
    if r.subject == "topology":
        assert _fires(r, before, None, (None, None))
        assert not _fires(r, after, None, (None, None))
    else:
        old, new = versions(r)
        assert _fires(r, before, after, (old, new))
        assert not _fires(r, before, before, (old, old))
