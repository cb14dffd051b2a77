"""SARIF 2.1.0: one run, every rule of the catalogue, one result per finding.

Code scanning services (GitHub's among them) read this to show findings inline on a pull
request. Acknowledged findings are kept as results with an external suppression carrying the
reason, which is how SARIF says "known and accepted".
"""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from linter.report.locations import PathBase, at_revision, current, previous
from linter.report.model import Report
from linter.report.safe import json_text, sarif_text
from rules.catalogue import ALL_RULES
from rules.framework import Finding, Location, Rule, Severity

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "ksafe/v1"
# SARIF's conventional name for the root of the checked-out sources (GitHub resolves it).
SRCROOT = "%SRCROOT%"

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _version() -> str:
    try:
        return metadata.version("ksafe")
    except metadata.PackageNotFoundError:
        return "0.0.0"


def _uri(path: str) -> str:
    """A relative URI reference for a path as given (SARIF wants ``/`` and percent-encoding)."""
    posix = PurePath(path).as_posix()
    if posix.startswith("./"):
        posix = posix[2:]
    if PurePath(path).is_absolute():
        return "file://" + quote(posix)
    return quote(posix)


def _artifact(path: str, base: PathBase | None) -> dict[str, str]:
    """Relative to the repository root (``uriBaseId``) when ``base`` is known and the file lies
    inside it; otherwise the path as given (absolute ones as ``file://`` URIs)."""
    if base is not None:
        rel = base.relative(path)
        if rel is not None:
            return {"uri": quote(rel), "uriBaseId": SRCROOT}
        return {"uri": "file://" + quote(PurePath(base.cwd, path).as_posix())}
    return {"uri": _uri(path)}


def _rule_descriptor(r: Rule) -> dict[str, Any]:
    doc = r.doc or r.name
    summary = r.summary or r.name
    full = doc.split("\n\n", 1)[1].strip() if "\n\n" in doc else summary
    return {
        "id": r.id,
        "name": r.name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": full},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": _LEVEL[r.severity]},
        "properties": {"impact": r.impact.value, "subject": r.subject, "tags": [r.impact.value]},
    }


def _location(
    loc: Location, report: Report, base: PathBase | None = None
) -> dict[str, Any]:
    assert loc.path is not None
    path, revision = at_revision(loc.path, report.revisions)
    physical: dict[str, Any] = {"artifactLocation": _artifact(path, base)}
    if loc.line is not None and loc.line >= 1:
        region: dict[str, Any] = {"startLine": loc.line}
        if loc.column is not None and loc.column >= 1:
            region["startColumn"] = loc.column
        physical["region"] = region
    entry: dict[str, Any] = {"physicalLocation": physical}
    if loc.side:
        side = loc.side if revision is None else f"{loc.side} (at {revision})"
        entry["message"] = {"text": side}
    if revision is not None:
        entry["properties"] = {"revision": revision}
    return entry


def _locations(f: Finding, report: Report, base: PathBase | None) -> list[dict[str, Any]]:
    """Where the finding is now (review tools show these); the old side when that is all."""
    out = [_location(loc, report, base) for loc in (current(f) or previous(f))]
    if out:
        return out
    # Cluster findings point at a plan line; anything else at least at the file that was read.
    fallback = report.inputs.get("plan") or report.inputs.get("after") or next(
        iter(report.inputs.values()), None
    )
    if not fallback:
        return []
    physical: dict[str, Any] = {"artifactLocation": _artifact(fallback, base)}
    if f.line is not None and f.line >= 1:
        physical["region"] = {"startLine": f.line}
    return [{"physicalLocation": physical}]


def _result(
    f: Finding, index: dict[str, int], report: Report, base: PathBase | None
) -> dict[str, Any]:
    text = f.message if not f.remediation else f"{f.message}\nFix: {f.remediation}"
    text = sarif_text(text)
    result: dict[str, Any] = {
        "ruleId": f.rule,
        "level": _LEVEL[f.severity],
        "message": {"text": text},
        "locations": _locations(f, report, base),
        "partialFingerprints": {FINGERPRINT_KEY: f.fingerprint},
        "properties": {
            "name": f.name,
            "severity": f.severity.value,
            "impact": f.impact.value,
            "resources": [{"kind": r.kind, "name": r.name} for r in f.resources],
        },
    }
    if current(f) and previous(f):
        result["relatedLocations"] = [
            {"id": i, **_location(loc, report, base)} for i, loc in enumerate(previous(f))
        ]
    if f.rule in index:
        result["ruleIndex"] = index[f.rule]
    if f.step is not None:
        result["properties"]["step"] = f.step
    if f.steps:
        result["properties"]["steps"] = list(f.steps)
    if f.acknowledged is not None:
        result["suppressions"] = [
            {"kind": "external", "status": "accepted", "justification": f.acknowledged}
        ]
    return result


def to_sarif(report: Report, base: PathBase | None = None) -> dict[str, Any]:
    """The SARIF log as a JSON-ready dict. With ``base``, locations are relative to the
    repository root (``%SRCROOT%``) and the run's category names the directory ksafe ran in,
    so uploads from two directories (or two kinds of check) do not replace each other."""
    rules = [_rule_descriptor(r) for r in ALL_RULES]
    index = {r.id: i for i, r in enumerate(ALL_RULES)}
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "ksafe",
                "version": _version(),
                "rules": rules,
            }
        },
        "results": [_result(f, index, report, base) for f in report.findings],
        "automationDetails": {"id": _category(report, base)},
        "columnKind": "unicodeCodePoints",
        "properties": {"kind": report.kind, "inputs": dict(sorted(report.inputs.items()))},
    }
    if base is not None:
        root = PurePath(base.root).as_posix().rstrip("/") + "/"
        run["originalUriBaseIds"] = {SRCROOT: {"uri": "file://" + quote(root)}}
    if report.verdict is not None:
        run["properties"]["verdict"] = report.verdict.value
    if report.notes:
        run["properties"]["notes"] = list(report.notes)
    if report.plan is not None:
        run["properties"]["deploymentPlan"] = report.plan.model_dump(mode="json")
    if report.unchecked:
        run["properties"]["unchecked"] = list(report.unchecked)
    if report.apps:
        run["properties"]["apps"] = [a.model_dump(mode="json") for a in report.apps]
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _category(report: Report, base: PathBase | None) -> str:
    """``ksafe/<kind>/[<directory>/]``: a trailing ``/`` makes the whole id the category
    (GitHub code scanning keeps one analysis per tool and category)."""
    where = base.prefix if base is not None else "."
    return f"ksafe/{report.kind}/" + ("" if where == "." else f"{where}/")


def render_sarif(report: Report, base: PathBase | None = None) -> str:
    return json_text(json.dumps(to_sarif(report, base), indent=2, ensure_ascii=False)) + "\n"
