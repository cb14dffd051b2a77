"""The published JSON schemas, by name."""

from __future__ import annotations

from typing import Any

SCHEMAS = ("topology", "report", "snapshot", "plan", "config")
_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def schema_of(what: str) -> dict[str, Any]:
    if what == "topology":
        from pydantic import TypeAdapter

        from linter.topology.model import Description

        return TypeAdapter(Description).json_schema()
    if what == "report":
        return _report_schema()
    if what == "snapshot":
        from cluster_engine.snapshot import Snapshot

        return Snapshot.model_json_schema()
    if what == "plan":
        from cluster_engine.plan import Plan

        return Plan.model_json_schema(by_alias=True)
    if what == "config":
        return config_schema()
    raise KeyError(what)


def _report_schema() -> dict[str, Any]:
    """The report model's schema, with the two keys the JSON renderer puts before it."""
    from linter.report.json import FORMAT_VERSION, schema_id
    from linter.report.model import Report

    schema = Report.model_json_schema()
    schema["$id"] = schema_id("report")
    schema["properties"] = {
        "$schema": {"const": schema_id("report"), "description": "This schema's $id."},
        "format_version": {
            "const": FORMAT_VERSION,
            "description": "Changes when a key is removed or changes meaning.",
        },
        **schema["properties"],
    }
    schema["required"] = ["$schema", "format_version", *schema.get("required", [])]
    return schema


def config_schema() -> dict[str, Any]:
    """JSON Schema of ``[tool.ksafe]`` in pyproject.toml, or of a whole ``ksafe.toml`` (the same
    keys at top level): what editors (taplo, Even Better TOML) and SchemaStore read."""
    from linter.config import FAIL_ON
    from linter.report.json import schema_id
    from rules.catalogue import ALL_RULES

    # ids are matched case-insensitively (ks201 works too)
    refs = sorted({ref for r in ALL_RULES for ref in (r.id, r.id.lower(), r.name)})
    rule = {"type": "string", "enum": refs, "description": "A rule id or name (ksafe rules)."}
    rules = {"type": "array", "items": {"$ref": "#/$defs/rule"}}
    text = {"type": "string", "minLength": 1}

    def table(properties: dict[str, Any], **more: Any) -> dict[str, Any]:
        return {"type": "object", "properties": properties, "additionalProperties": False, **more}

    path_entry = table(
        {
            "path": {**text, "description": "A gitignore-style glob, relative to this file's "
                     "directory (** crosses directories; a / before the end anchors it)."},
            "application-id": text,
            "properties": {**text, "description": "Streams .properties, before and after."},
            "properties-before": text,
            "properties-after": text,
            "snapshot": {**text, "description": "Cluster snapshot for plans matching path."},
        },
        required=["path"],
    )
    acknowledgement = table(
        {
            "fingerprint": text,
            "rule": {"$ref": "#/$defs/rule"},
            "resource": text,
            "path": {**text, "description": "A glob scoping the entry."},
            "reason": text,
            "expires": {"type": "string", "format": "date"},
        },
        required=["reason"],
        anyOf=[{"required": ["fingerprint"]}, {"required": ["rule"]}],
    )
    return {
        "$schema": _DRAFT,
        "$id": schema_id("config"),
        "title": "ksafe configuration ([tool.ksafe] in pyproject.toml, or ksafe.toml)",
        **table(
            {
                "select": {**rules, "description": "Rules to run (default: all)."},
                "ignore": {**rules, "description": "Rules not to run."},
                "fail-on": {"enum": list(FAIL_ON), "default": "error",
                            "description": "Lowest severity that makes the exit code 1."},
                "severity": {
                    "type": "object",
                    "propertyNames": {"$ref": "#/$defs/rule"},
                    "additionalProperties": {"enum": ["error", "warning", "info"]},
                    "description": "Per-rule severity overrides.",
                },
                "application-id": text,
                "snapshot": {**text, "description": "Default cluster snapshot for plans."},
                "topologies": {"type": "array", "items": text,
                               "description": "Globs of the apps' describe() files."},
                "git-base": {**text, "description": "Branch a file without changes of its own "
                             "is diffed from (pre-commit run --all-files)."},
                "paths": {"type": "array", "items": path_entry},
                "acknowledgements": {"type": "array", "items": acknowledgement},
            }
        ),
        "$defs": {"rule": rule},
    }
