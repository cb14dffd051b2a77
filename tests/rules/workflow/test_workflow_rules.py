"""The workflow rules (KS9xx): identities and doc pages (their cases: ``fixtures/rules/workflow/``,
run by ``tests/rules/test_rule_cases.py``)."""

from __future__ import annotations

import re

import pytest

from rules.catalogue import ALL_RULES
from rules.framework import Rule, run
from rules.workflow import WORKFLOW_RULES
from rules.workflow.file_deleted import TOPOLOGY_FILE, DeletedFile, topology_file_deleted


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


def test_a_deleted_file_is_fingerprinted_by_its_path_whatever_the_revision() -> None:
    a = run([topology_file_deleted], TOPOLOGY_FILE, DeletedFile("t/a.txt", "HEAD"))
    b = run([topology_file_deleted], TOPOLOGY_FILE, DeletedFile("t/a.txt", "HEAD~3"))
    assert [(f.resources[0].name, f.steps) for f in a] == [("t/a.txt", ())]
    assert a[0].fingerprint == b[0].fingerprint
