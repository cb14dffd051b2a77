"""JSON report: exactly ``Report.model_dump(mode="json")``; schema: ``ksafe schema report``."""

from __future__ import annotations

import json

from linter.report.model import Report


def render_json(report: Report) -> str:
    return json.dumps(report.model_dump(mode="json"), indent=2) + "\n"
