"""Acknowledgements: matching, expiry, stale entries, and how the finishing helper counts them."""

from __future__ import annotations

import os
from datetime import date

from linter.api import Acknowledgement, Settings, finish
from rules.framework import Finding, Impact, Location, Resource, Severity
from rules.verdict import Verdict

TODAY = date(2026, 6, 1)


def finding(
    rule: str = "KS201",
    name: str = "store-renamed",
    store: str = "counts",
    path: str = "topology/app.txt",
    severity: Severity = Severity.ERROR,
) -> Finding:
    return Finding(
        rule=rule,
        name=name,
        severity=severity,
        impact=Impact.STATE_LOSS,
        message=f"store {store} renamed",
        resources=(Resource(kind="store", name=store),),
        locations=(Location(path=path, line=3, side="after"),),
        fingerprint=f"fp-{rule}-{store}",
    )


def report(*acks: Acknowledgement, findings: tuple[Finding, ...] = (finding(),)):  # type: ignore[no-untyped-def]
    return finish("diff", findings, Settings(acknowledgements=acks, today=TODAY))


def test_fingerprint_acknowledges_and_does_not_count() -> None:
    r = report(Acknowledgement(reason="rebuilt on purpose", fingerprint="fp-KS201-counts"))
    assert [f.acknowledged for f in r.findings] == ["rebuilt on purpose"]
    assert r.summary.errors == 0
    assert r.summary.acknowledged == 1
    assert not r.fails(Severity.INFO)
    assert r.verdict == Verdict.SAFE


def test_rule_by_name_and_resource() -> None:
    found = (finding(store="counts"), finding(store="totals"))
    r = report(
        Acknowledgement(reason="ok", rule="store-renamed", resource="counts"), findings=found
    )
    acked = {f.resources[0].name: f.acknowledged for f in r.findings}
    assert acked == {"counts": "ok", "totals": None}
    assert r.summary.errors == 1
    assert r.verdict == Verdict.UNSAFE


def test_rule_by_id_is_case_insensitive_and_resource_may_name_its_kind() -> None:
    r = report(Acknowledgement(reason="ok", rule="ks201", resource="store:counts"))
    assert r.findings[0].acknowledged == "ok"


def test_other_rule_does_not_match() -> None:
    r = report(Acknowledgement(reason="ok", rule="store-removed"))
    names = [f.name for f in r.findings]
    assert names == ["store-renamed", "acknowledgement-unused"]
    unused = r.findings[1]
    assert unused.rule == "KS901"
    assert unused.severity == Severity.WARNING
    assert "rule store-removed" in unused.message


def test_path_glob_scopes_matching() -> None:
    here = os.path.abspath("topology")
    inside = Acknowledgement(reason="ok", rule="KS201", path=f"{here}/*.txt")
    outside = Acknowledgement(reason="ok", rule="KS201", path="/elsewhere/*.txt")
    assert report(inside).findings[0].acknowledged == "ok"
    r = report(outside)
    # not acknowledged, and not reported as unused either: the run never looked at /elsewhere
    assert [f.name for f in r.findings] == ["store-renamed"]


def test_expired_entry_no_longer_acknowledges_and_is_reported() -> None:
    ack = Acknowledgement(
        reason="drain before March",
        fingerprint="fp-KS201-counts",
        expires=date(2026, 3, 31),
        where="ksafe.toml:7",
    )
    r = report(ack)
    by_name = {f.name: f for f in r.findings}
    assert by_name["store-renamed"].acknowledged is None
    expired = by_name["acknowledgement-expired"]
    assert expired.rule == "KS902"
    assert "2026-03-31" in expired.message
    assert expired.locations == (Location(path="ksafe.toml", line=7, side="config"),)
    assert "acknowledgement-unused" not in by_name
    assert r.fails(Severity.ERROR)


def test_entry_expiring_today_still_holds() -> None:
    ack = Acknowledgement(reason="r", fingerprint="fp-KS201-counts", expires=TODAY)
    assert report(ack).findings[0].acknowledged == "r"


def test_stale_entry_is_reported_with_a_stable_fingerprint() -> None:
    a = report(Acknowledgement(reason="old", fingerprint="gone", where="ksafe.toml:3"))
    b = report(Acknowledgement(reason="old", fingerprint="gone", where="ksafe.toml:30"))
    stale = [f for f in a.findings if f.name == "acknowledgement-unused"]
    assert len(stale) == 1
    assert stale[0].locations[0].line == 3
    assert stale[0].fingerprint == next(
        f.fingerprint for f in b.findings if f.name == "acknowledgement-unused"
    )


def test_workflow_rules_obey_selection_and_severity() -> None:
    ack = Acknowledgement(reason="old", fingerprint="gone")
    ignore = frozenset({"acknowledgement-unused"})
    ignored = finish("lint", (), Settings(acknowledgements=(ack,), ignore=ignore, today=TODAY))
    assert ignored.findings == ()
    raised = finish(
        "lint",
        (),
        Settings(acknowledgements=(ack,), severities={"KS901": Severity.ERROR}, today=TODAY),
    )
    assert raised.findings[0].severity == Severity.ERROR
    assert raised.verdict is None


def test_no_acknowledgements_leaves_findings_alone() -> None:
    r = finish("diff", (finding(),), Settings(today=TODAY))
    assert r.findings == (finding(),)
    assert r.summary.errors == 1
