"""The fleet dashboard: one self-contained HTML file from the scan's summary (aggregates only).

Rendered through the report package's jinja2 environment (autoescape on, strict undefined):
every app, topic and message is untrusted text.
"""

from __future__ import annotations

from typing import Any


def render_dashboard(summary: dict[str, Any]) -> str:
    from linter.report.html import environment

    rules = summary.get("rules", [])
    peak = max((int(r["count"]) for r in rules), default=1) or 1
    histogram = [{**r, "width": round(100 * int(r["count"]) / peak, 1)} for r in rules]
    risky = summary.get("lineage", {}).get("risky", [])
    return environment().get_template("fleet.html.j2").render(
        summary=summary, histogram=histogram, graph=_lineage_svg(risky)
    )


def _lineage_svg(edges: list[dict[str, Any]]) -> dict[str, Any]:
    """Three columns (upstream apps, topics, downstream apps) with a line per risky edge."""
    columns: list[list[str]] = [[], [], []]
    for e in edges:
        for col, name in enumerate((e["upstream_app"], e["topic"], e["downstream_app"])):
            if name not in columns[col]:
                columns[col].append(name)
    row_h, col_w, pad = 26, 260, 16
    pos = {
        (c, name): (pad + c * col_w, pad + i * row_h)
        for c, names in enumerate(columns)
        for i, name in enumerate(names)
    }
    boxes = [
        {"x": x, "y": y, "label": name, "kind": ("app", "topic", "app")[c]}
        for (c, name), (x, y) in pos.items()
    ]
    lines = []
    for e in edges:
        (x1, y1), (x2, y2), (x3, y3) = (
            pos[(0, e["upstream_app"])], pos[(1, e["topic"])], pos[(2, e["downstream_app"])]
        )
        lines.append({"x1": x1 + 200, "y1": y1 + 9, "x2": x2, "y2": y2 + 9})
        lines.append({"x1": x2 + 200, "y1": y2 + 9, "x2": x3, "y2": y3 + 9})
    height = pad * 2 + row_h * max((len(c) for c in columns), default=0)
    return {"boxes": boxes, "lines": lines, "width": pad * 2 + 3 * col_w, "height": height}
