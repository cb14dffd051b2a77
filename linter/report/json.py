"""JSON report: ``Report.model_dump(mode="json")`` behind ``$schema`` and ``format_version``;
schema: ``ksafe schema report``.

``format_version`` changes when a key is removed or changes meaning (adding one does not); the
``$schema`` identifier names the schema of that version (``ksafe schema report`` prints it with
the same ``$id``), so a consumer can refuse a document it was not written for.
"""

from __future__ import annotations

import json
from typing import Any

from linter.report.model import Report

FORMAT_VERSION = 1


def schema_id(document: str, version: int = FORMAT_VERSION) -> str:
    """The identifier of a published schema: ``report``, ``fleet-summary``, ``config``."""
    return f"urn:ksafe:schema:{document}:{version}"


def envelope(document: str, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` led by its ``$schema`` and ``format_version``."""
    return {"$schema": schema_id(document), "format_version": FORMAT_VERSION, **body}


def render_json(report: Report) -> str:
    return json.dumps(envelope("report", report.model_dump(mode="json")), indent=2) + "\n"
