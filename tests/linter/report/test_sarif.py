"""SARIF output validates against the official 2.1.0 schema and carries what code scanning needs.

The schema file is the OASIS errata01 ``sarif-schema-2.1.0.json`` (draft-04), vendored beside this
test so validation needs no network.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from linter.report import render
from linter.report.model import Report
from linter.report.sarif import FINGERPRINT_KEY, to_sarif
from rules.catalogue import ALL_RULES
from tests.linter.report.sample import cluster_report, diff_report, empty_lint_report

SCHEMA = Path(__file__).with_name("sarif-schema-2.1.0.json")


@cache
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)  # type: ignore[no-any-return]


def validate(log: dict[str, Any]) -> None:
    errors = sorted(validator().iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


@pytest.mark.parametrize("make", [diff_report, cluster_report, empty_lint_report])
def test_validates_against_the_official_schema(make: Any) -> None:
    validate(json.loads(render(make(), "sarif")))


def test_the_schema_is_strict_enough_to_catch_mistakes() -> None:
    log = to_sarif(diff_report())
    log["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(AssertionError):
        validate(log)


def test_every_rule_is_described() -> None:
    driver = to_sarif(empty_lint_report())["runs"][0]["tool"]["driver"]
    assert [r["id"] for r in driver["rules"]] == [r.id for r in ALL_RULES]
    for descriptor, r in zip(driver["rules"], ALL_RULES, strict=True):
        assert descriptor["name"] == r.name
        assert descriptor["shortDescription"]["text"] == r.summary
        assert descriptor["fullDescription"]["text"]
        assert descriptor["help"]["text"] == r.doc
        assert descriptor["defaultConfiguration"]["level"] in {"error", "warning", "note"}


def test_results_locations_fingerprints_and_suppressions() -> None:
    results = to_sarif(diff_report())["runs"][0]["results"]
    first = results[0]
    assert first["ruleId"] == "KS201"
    assert first["level"] == "error"
    assert first["partialFingerprints"] == {FINGERPRINT_KEY: "a1b2c3d4e5f60718"}
    # the after side is where review tools point; the before side is related context
    assert first["locations"] == [
        {
            "physicalLocation": {
                "artifactLocation": {"uri": "topology/word-count.txt"},
                "region": {"startLine": 10, "startColumn": 5},
            },
            "message": {"text": "after"},
        }
    ]
    assert first["relatedLocations"] == [
        {
            "id": 0,
            "physicalLocation": {
                "artifactLocation": {"uri": "topology/word-count.txt"},
                "region": {"startLine": 9},
            },
            "message": {"text": "before"},
        }
    ]
    info = results[2]
    assert info["level"] == "note"
    assert info["suppressions"] == [
        {
            "kind": "external",
            "status": "accepted",
            "justification": "stateless; named in the next release",
        }
    ]


def test_cluster_findings_point_at_the_plan_line() -> None:
    result = to_sarif(cluster_report())["runs"][0]["results"][0]
    assert result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "plans/roll.yaml"},
        "region": {"startLine": 8},
    }
    assert result["properties"]["step"] == 1


def test_paths_become_uri_references() -> None:
    report = diff_report()
    moved = report.findings[0].model_copy(
        update={"locations": (report.findings[0].locations[0].model_copy(
            update={"path": "./apps/my app/topo.txt"}
        ),)}
    )
    log = to_sarif(Report(kind="lint", findings=(moved,)))
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uri == {"uri": "apps/my%20app/topo.txt"}
    validate(log)


@pytest.mark.parametrize(
    "argv",
    [
        ["diff", "fixtures/examples/word-count-v1.txt", "fixtures/examples/word-count-v2.txt"],
        ["diff", "fixtures/examples/orders-v1.txt", "fixtures/examples/orders-v2.txt"],
        ["lint", "fixtures/examples/word-count-v2.txt"],
    ],
    ids=["diff-word-count", "diff-orders", "lint"],
)
def test_real_reports_validate(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from linter.cli import main
    from tests.conftest import ROOT

    monkeypatch.chdir(ROOT)
    main([*argv, "--format", "sarif", "--config", str(SCHEMA.with_name("empty.toml"))])
    log = json.loads(capsys.readouterr().out)
    validate(log)
    assert log["runs"][0]["results"]


def test_real_cluster_report_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from linter.cli import main
    from tests.conftest import FIXTURES

    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.yaml").write_text("- restart: {nodes: [1, 2]}\n")
    snapshot = FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml"
    code = main(
        ["cluster", "check", "--snapshot", str(snapshot), "--plan", "plan.yaml", "--format",
         "sarif"]
    )
    assert code == 1
    log = json.loads(capsys.readouterr().out)
    validate(log)
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert region == {
        "artifactLocation": {"uri": "plan.yaml", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 1},
    }
