"""A rule's docstring (its doc page) as blocks the HTML report renders: paragraphs, list items
and preformatted examples, with ``code`` spans. Text only: the template escapes it."""

from __future__ import annotations

import re
from typing import Any

_CODE = re.compile(r"``(.+?)``|`([^`]+)`")


def _text_block(kind: str, text: str) -> dict[str, Any]:
    """A paragraph split into text and ``code`` parts (docstrings quote names in backticks)."""
    parts: list[dict[str, str]] = []
    at = 0
    for m in _CODE.finditer(text):
        if m.start() > at:
            parts.append({"kind": "text", "text": text[at:m.start()]})
        parts.append({"kind": "code", "text": m.group(1) or m.group(2)})
        at = m.end()
    if at < len(text):
        parts.append({"kind": "text", "text": text[at:]})
    return {"kind": kind, "text": text, "parts": parts}


def doc_blocks(doc: str) -> list[dict[str, Any]]:
    """A docstring as paragraphs, lists and preformatted blocks (indented or fenced)."""
    blocks: list[dict[str, Any]] = []
    fenced: list[str] | None = None
    para: list[str] = []

    def flush() -> None:
        if para:
            indented = all(line.startswith("    ") for line in para)
            if indented:
                blocks.append({"kind": "pre", "text": "\n".join(x[4:] for x in para)})
            elif all(line.lstrip().startswith(("- ", "* ")) for line in para):
                blocks.extend(_text_block("li", x.lstrip()[2:]) for x in para)
            else:
                blocks.append(_text_block("p", " ".join(x.strip() for x in para)))
            para.clear()

    for line in doc.splitlines():
        if line.strip().startswith("```"):
            if fenced is None:
                flush()
                fenced = []
            else:
                blocks.append({"kind": "pre", "text": "\n".join(fenced)})
                fenced = None
        elif fenced is not None:
            fenced.append(line)
        elif not line.strip():
            flush()
        else:
            para.append(line)
    if fenced is not None:
        blocks.append({"kind": "pre", "text": "\n".join(fenced)})
    flush()
    return blocks
