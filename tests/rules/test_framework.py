"""The rule framework's findings: built without validation, they are the model validation builds."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import (
    DeployStrategy,
    Finding,
    Hit,
    Impact,
    Location,
    Resource,
    Severity,
    SubjectKind,
    collect,
    fingerprint,
    location,
    rule,
    to_finding,
)

KIND: SubjectKind[str] = SubjectKind("topology")


@rule(id="KS999", name="test-rule", severity=Severity.WARNING, impact=Impact.HYGIENE, subject=KIND)
def _test_rule(subject: str) -> Iterator[Hit]:
    """A test rule: one hit with every field set, one with the defaults."""
    yield Hit(
        message=f"{subject} changed",
        resources=(Resource(kind="store", name="s"), Resource(kind="topic", name="t")),
        locations=(Location(path="a.txt", line=3, side="after"),),
        remediation="Fix it.",
        key="k",
        requires=DeployStrategy.RESET,
        steps=("one", "two"),
        step=2,
        data={"count": 1},
    )
    yield Hit(message="plain")


def _validated(hit: Hit, severity: Severity) -> Finding:
    return Finding(
        rule="KS999",
        name="test-rule",
        severity=severity,
        impact=Impact.HYGIENE,
        message=hit.message,
        resources=hit.resources,
        locations=hit.locations,
        remediation=hit.remediation,
        fingerprint=fingerprint("KS999", hit),
        requires=hit.requires,
        steps=hit.steps,
        step=hit.step,
        data=dict(hit.data),
    )


def test_a_finding_is_the_model_validation_builds() -> None:
    for hit in _test_rule("x"):
        built, validated = to_finding(_test_rule, hit), _validated(hit, Severity.WARNING)
        assert built == validated
        assert list(built.__dict__.items()) == list(validated.__dict__.items())
        assert built.model_fields_set == validated.model_fields_set
        assert built.model_dump_json() == validated.model_dump_json()
        assert built.model_copy(update={"acknowledged": "ok"}).acknowledged == "ok"
        assert built.data is not hit.data  # the finding owns its data


def test_a_severity_override_is_a_severity_even_given_as_text() -> None:
    found = collect((_test_rule,), KIND, "x", severities={"KS999": "error"})  # type: ignore[dict-item]
    assert [f.severity for f in found] == [Severity.ERROR, Severity.ERROR]
    assert found[0] == _validated(next(iter(_test_rule("x"))), Severity.ERROR)


def test_collect_runs_only_the_rules_of_the_kind() -> None:
    assert collect((_test_rule,), SubjectKind("topology-diff"), "x") == []
    assert [f.message for f in collect((_test_rule,), KIND, "x")] == ["x changed", "plain"]


def test_a_location_is_the_model_validation_builds() -> None:
    """A rule's ``location()`` is made a Location with its finding, the model validation
    builds; a Location a rule made itself is kept."""
    made = Location(path="b.txt", line=7)
    for given, validated in (
        (location("a.txt", 3), Location(path="a.txt", line=3)),
        (location("a.txt", None, "after"), Location(path="a.txt", line=None, side="after")),
        (made, made),
    ):
        (built,) = to_finding(_test_rule, Hit("m", locations=(given,))).locations
        assert built == validated
        assert list(built.__dict__.items()) == list(validated.__dict__.items())
        assert built.model_fields_set == validated.model_fields_set
        assert hash(built) == hash(validated)
