"""run_raw gives the findings run() makes, in run()'s order, over the corpus: it sorts a rule's
hits apart from the others' (by fingerprint and message), its rules by severity and id."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.topology.errors import TopologyParseError
from linter.topology.parse import parse
from rules.framework import Severity, run, run_raw
from rules.topology import TOPOLOGY_RULES
from rules.topology.context import TOPOLOGY, LintSubject
from tests.conftest import corpus_text

SEVERITIES = [None, {"KS103": Severity.ERROR, "KS101": Severity.INFO}]


@pytest.mark.parametrize("severities", SEVERITIES, ids=["defaults", "overrides"])
def test_run_raw_is_runs_order(
    topology_corpus: Path, severities: dict[str, Severity] | None
) -> None:
    checked = 0
    for path in sorted(topology_corpus.glob("**/*.txt")):
        try:
            description = parse(corpus_text(path), str(path))
        except (TopologyParseError, RecursionError):
            continue
        subject = LintSubject(description, "app")
        found = run(TOPOLOGY_RULES, TOPOLOGY, subject, severities=severities)
        raws = run_raw(TOPOLOGY_RULES, TOPOLOGY, subject, severities=severities)
        assert [(r.id, str(sev), fp, hit.message) for r, hit, sev, fp in raws] == [
            (f.rule, str(f.severity), f.fingerprint, f.message) for f in found
        ], path
        checked += len(found) > 1
    assert checked > 10
