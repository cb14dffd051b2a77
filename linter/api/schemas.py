"""The published JSON schemas, by name."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from cluster_engine.plan import Plan
from cluster_engine.snapshot import Snapshot
from linter.report.model import Report
from linter.topology.model import Description


def schema_of(what: str) -> dict[str, Any]:
    if what == "topology":
        return TypeAdapter(Description).json_schema()
    if what == "report":
        return _report_schema()
    if what == "snapshot":
        return Snapshot.model_json_schema()
    if what == "plan":
        return Plan.model_json_schema(by_alias=True)
    if what == "config":
        from linter.config_schema import config_schema

        return config_schema()
    raise KeyError(what)


def _report_schema() -> dict[str, Any]:
    """The report model's schema, with the two keys the JSON renderer puts before it."""
    from linter.report.json import FORMAT_VERSION, schema_id

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

