"""The JSON Schema of the configuration: ``[tool.ksafe]`` in pyproject.toml, or a whole
``ksafe.toml`` (``ksafe schema config``). Kept beside :mod:`linter.config`, whose key sets a test
holds it to."""

from __future__ import annotations

from typing import Any

from linter.config import FAIL_ON
from rules.catalogue import ALL_RULES

_DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_ID = "urn:ksafe:schema:config:1"


def config_schema() -> dict[str, Any]:
    """JSON Schema of ``[tool.ksafe]`` in pyproject.toml, or of a whole ``ksafe.toml`` (the same
    keys at top level): what editors (taplo, Even Better TOML) and SchemaStore read."""
    # ids are matched case-insensitively (ks201 works too)
    refs = sorted({ref for r in ALL_RULES for ref in (r.id, r.id.lower(), r.name)})
    rule = {"type": "string", "enum": refs, "description": "A rule id or name (ksafe rules)."}
    text = {"type": "string", "minLength": 1}
    return {
        "$schema": _DRAFT,
        "$id": SCHEMA_ID,
        "title": "ksafe configuration ([tool.ksafe] in pyproject.toml, or ksafe.toml)",
        **_table(_top_level(text)),
        "$defs": {"rule": rule},
    }


def _table(properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "additionalProperties": False, **more}


def _top_level(text: dict[str, Any]) -> dict[str, Any]:
    """The keys of ``[tool.ksafe]``."""
    rules = {"type": "array", "items": {"$ref": "#/$defs/rule"}}
    return {
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
        "paths": {"type": "array", "items": _path_entry(text)},
        "acknowledgements": {"type": "array", "items": _acknowledgement(text)},
    }


def _path_entry(text: dict[str, Any]) -> dict[str, Any]:
    """A ``[[paths]]`` entry."""
    return _table(
        {
            "path": {**text, "description": "A gitignore-style glob relative to this file's "
                     "directory: ** crosses directories, * does not; a / before the end or a "
                     "leading ./ anchors it here, else it matches at any depth."},
            "application-id": text,
            "properties": {**text, "description": "Streams .properties, before and after."},
            "properties-before": text,
            "properties-after": text,
            "snapshot": {**text, "description": "Cluster snapshot for plans matching path."},
        },
        required=["path"],
    )


def _acknowledgement(text: dict[str, Any]) -> dict[str, Any]:
    """A ``[[acknowledgements]]`` entry."""
    return _table(
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
