"""The fleet rules: catalogue identities, doc pages, and the YAML cases of
``fixtures/rules/fleet/<rule-name>.yml``.

A case lists ``apps``, each either as facts (``produces``, ``consumes``, ``stateful_on``,
``key_changes``, ``internal``, ``upgrade``) or as ``versions`` (describe() texts, oldest first:
the app is then scanned with the library, lint and diff included, and its facts come from that),
optional ``partition_changes`` (``topic``, ``partitions``, ``step``, ``before``), and ``expect``:
the case rule's findings as ``{rule, severity, resource}`` (resource: any resource name),
optionally with ``message``, ``remediation`` or ``steps`` (text the message, the remediation or
one of the steps must contain) and ``not_in_steps`` (text no step may contain).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from linter.api import Settings
from linter.fleet.lineage import fleet_findings, whole_graph
from linter.fleet.scan import Version, scan_app
from linter.lineage import AppFacts, PartitionChange
from rules.catalogue import ALL_RULES
from rules.fleet import FLEET_RULES
from rules.framework import Rule

CASES = Path(__file__).resolve().parents[3] / "fixtures" / "rules" / "fleet"


def _cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(CASES.glob("*.yml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        out += [(doc["rule"], spec) for spec in doc["cases"]]
    return out


def _facts(spec: dict[str, Any]) -> AppFacts:
    app = spec["app"]
    if "versions" in spec:
        rows = [Version(app, f"v{i + 1}", text) for i, text in enumerate(spec["versions"])]
        settings = Settings(application_id=spec.get("application_id"))
        result = scan_app(app, rows, settings)
        assert result.facts is not None, result.app.error
        return result.facts

    def topics(key: str) -> frozenset[str]:
        return frozenset(spec.get(key, ()))

    return AppFacts(
        app_id=app, application_id=spec.get("application_id", app), upgrade=spec.get("upgrade"),
        produces=topics("produces"), consumes=topics("consumes"),
        stateful_on=topics("stateful_on"), key_changes=topics("key_changes"),
        internal=topics("internal"),
    )  # fmt: skip


_EXPECT_KEYS = frozenset(
    {"rule", "severity", "resource", "message", "remediation", "steps", "not_in_steps"}
)


def _id(x: Any) -> str:
    return x if isinstance(x, str) else str(x["name"])


@pytest.mark.parametrize(("rule", "spec"), _cases(), ids=_id)
def test_case(rule: str, spec: dict[str, Any]) -> None:
    graph = whole_graph(
        [_facts(a) for a in spec["apps"]],
        [PartitionChange(**c) for c in spec.get("partition_changes", ())],
    )
    found = [f for f in fleet_findings(graph, Settings()) if f.name == rule]
    expect = spec.get("expect") or []
    assert len(found) == len(expect), [f.message for f in found]
    for want in expect:
        unknown = want.keys() - _EXPECT_KEYS
        assert not unknown, f"unknown expect keys {sorted(unknown)}"
        assert any(
            f.name == want["rule"] and f.severity.value == want["severity"]
            and any(r.name == want["resource"] for r in f.resources)
            and want.get("message", "") in f.message
            and want.get("remediation", "") in f.remediation
            and any(want.get("steps", "") in s for s in f.steps or ("",))
            and not any(want["not_in_steps"] in s for s in f.steps if "not_in_steps" in want)
            for f in found
        ), (want, [(f.message, f.remediation, f.steps) for f in found])  # fmt: skip


@pytest.mark.parametrize("r", FLEET_RULES, ids=lambda r: r.name)
def test_rule_identity_doc_and_cases(r: Rule) -> None:
    assert r in ALL_RULES
    assert r.subject == "fleet"
    assert re.fullmatch(r"KS8\d{2}", r.id)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", r.name)
    for section in ("Why:", "Example:", "Fix:"):
        assert re.search(rf"^{section}", r.doc, re.MULTILINE), f"{r.name}: no {section}"
    cases = [spec for rule, spec in _cases() if rule == r.name]
    assert any(c.get("expect") for c in cases), f"{r.name}: no case where it fires"
    assert any(not c.get("expect") for c in cases), f"{r.name}: no case where it stays quiet"
