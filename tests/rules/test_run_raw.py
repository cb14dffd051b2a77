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


def test_run_raw_fingerprints_are_each_rules_own() -> None:
    """Two rules with the same keys get fingerprints of their own id from run_raw, as run()
    gives them, and again when run a second time (from the digest cache)."""
    from collections.abc import Iterator

    from rules.framework import Hit, Impact, rule

    def make(rule_id: str) -> object:
        @rule(id=rule_id, name=f"same-keys-{rule_id}", severity=Severity.INFO,
              impact=Impact.HYGIENE, subject=TOPOLOGY)
        def same_keys(subject: LintSubject) -> Iterator[Hit]:
            yield Hit("one", key="|shared-key")
            yield Hit("two")  # keyless: by its (no) resources

        return same_keys

    rules = [make("KS901"), make("KS902")]
    text = "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [t])\n      --> none\n"
    subject = LintSubject(parse(text), "app")
    for _ in range(2):
        raws = run_raw(rules, TOPOLOGY, subject)  # type: ignore[arg-type]
        found = run(rules, TOPOLOGY, subject)  # type: ignore[arg-type]
        assert [fp for _, _, _, fp in raws] == [f.fingerprint for f in found]
        assert len({fp for _, _, _, fp in raws}) == 4


def test_run_raw_orders_hits_of_one_key_by_message() -> None:
    """Hits of a rule that share a key (so a fingerprint) come in their messages' order, as
    run() gives them, whatever order the rule yields them in; hits of keys of their own, by
    fingerprint alone."""
    from collections.abc import Iterator

    from rules.framework import Hit, Impact, rule

    @rule(id="KS903", name="shared-key-messages", severity=Severity.INFO,
          impact=Impact.HYGIENE, subject=TOPOLOGY)
    def shared_key(subject: LintSubject) -> Iterator[Hit]:
        for message in ("c", "a", "b"):
            yield Hit(message, key="|one-key")
        for key in ("|z", "|y", "|x"):
            yield Hit(f"own {key}", key=key)

    text = "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [t])\n      --> none\n"
    subject = LintSubject(parse(text), "app")
    raws = run_raw([shared_key], TOPOLOGY, subject)
    found = run([shared_key], TOPOLOGY, subject)
    assert [(fp, hit.message) for _, hit, _, fp in raws] == [
        (f.fingerprint, f.message) for f in found
    ]
    shared = [hit.message for _, hit, _, _ in raws if hit.key == "|one-key"]
    assert shared == ["a", "b", "c"]
