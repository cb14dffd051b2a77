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
        return Report.model_json_schema()
    if what == "snapshot":
        return Snapshot.model_json_schema()
    if what == "plan":
        return Plan.model_json_schema(by_alias=True)
    raise KeyError(what)
