"""The workflow rules (KS9xx): identities, doc pages, and topology-file-deleted's output."""

from __future__ import annotations

import re

import pytest

from linter.topology.parse import parse
from rules.catalogue import ALL_RULES
from rules.framework import Rule, Severity, run
from rules.workflow import WORKFLOW_RULES
from rules.workflow.file_deleted import TOPOLOGY_FILE, DeletedFile, topology_file_deleted
from tests.conftest import FIXTURES


@pytest.mark.parametrize("r", WORKFLOW_RULES, ids=lambda r: r.name)
def test_identity_and_doc_page(r: Rule) -> None:
    assert r in ALL_RULES
    assert re.fullmatch(r"KS9\d{2}", r.id)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", r.name)
    assert r.subject in ("acknowledgements", "topology-file")
    for section in ("Why:", "Example:", "Fix:"):
        assert re.search(rf"^{section}", r.doc, re.MULTILINE), f"{r.name}: no {section}"


def test_names_are_permanent() -> None:
    assert {r.id: r.name for r in WORKFLOW_RULES} == {
        "KS901": "acknowledgement-unused",
        "KS902": "acknowledgement-expired",
        "KS903": "topology-file-deleted",
    }


def test_deleted_file_names_its_stores_and_changelogs() -> None:
    text = (FIXTURES / "examples" / "word-count-v1.txt").read_text()
    deleted = DeletedFile("topology/wc.txt", "origin/main", parse(text, "wc@main"), "wc")
    (finding,) = run([topology_file_deleted], TOPOLOGY_FILE, deleted)
    assert finding.severity == Severity.ERROR
    assert finding.message == "topology/wc.txt exists at origin/main but was deleted"
    names = {(r.kind, r.name) for r in finding.resources}
    assert ("store", "KSTREAM-AGGREGATE-STATE-STORE-0000000001") in names
    assert ("changelog-topic", "wc-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog") in names
    assert "kafka-streams-application-reset --application-id wc" in finding.steps[0]


def test_deleted_unparsable_file_still_reported_with_a_path_fingerprint() -> None:
    a = run([topology_file_deleted], TOPOLOGY_FILE, DeletedFile("t/a.txt", "HEAD"))
    b = run([topology_file_deleted], TOPOLOGY_FILE, DeletedFile("t/a.txt", "HEAD~3"))
    assert [(f.resources[0].name, f.steps) for f in a] == [("t/a.txt", ())]
    assert a[0].fingerprint == b[0].fingerprint
