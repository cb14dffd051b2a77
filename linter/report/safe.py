"""The one place untrusted names are made harmless for each output format.

Node, store and topic names, file names, app ids and the messages built from them come from the
input. Whatever the format, three things must never travel out of a name:

- control characters (C0, DEL, C1: ESC sequences, OSC 8 links, OSC 52 clipboard writes, a forged
  line after a newline);
- bidi controls and invisible characters (an override reorders what the reader sees, a
  zero-width space makes two different names look the same);
- the format's own markup (a Markdown link, image or mention, a SARIF embedded link, a workflow
  command property separator).

:func:`visible` handles the first two for every format by showing the character as an escape
(``\\x1b``, ``\\u202e``); the format functions add their markup escaping on top of it.
"""

from __future__ import annotations

import re
from functools import cache

# C0 and C1 controls and DEL; the bidi embeddings, overrides, isolates and marks; the zero-width
# and other invisible format characters (soft hyphen, Mongolian vowel separator, word joiner and
# invisible operators, BOM); line and paragraph separators.
_C0 = "\x00-\x1f"
_OTHERS = (
    "\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064"
    "\u2066-\u206f\ufeff"
)
_UNSAFE = re.compile(f"[{_C0}{_OTHERS}]")
# json.dumps already escapes C0 inside strings; outside them there is only its own indentation
_JSON_UNSAFE = re.compile(f"[{_OTHERS}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, keep: str = "") -> str:
    """``text`` with control, bidi and invisible characters shown as ``\\xNN``/``\\uNNNN``.

    ``keep`` names characters the caller encodes itself (a line break where the format has one).
    """
    return _unsafe(keep).sub(_escape, text)


@cache
def _unsafe(keep: str) -> re.Pattern[str]:
    if not keep:
        return _UNSAFE
    return re.compile(f"(?![{re.escape(keep)}])[{_C0}{_OTHERS}]")


# Backslash-escaping an ASCII punctuation character makes it literal (CommonMark 2.4); these are
# the ones that start emphasis, code, links, images, autolinks, strikethrough or a table cell.
_MD_PUNCT = re.compile(r"([\\`*_\[\]~|!])")
# GFM turns bare URLs, www. hosts and e-mail addresses into links and GitHub turns @name into a
# mention, all on the rendered text (a backslash escape is gone by then): a zero-width space,
# written as an entity, breaks the pattern without changing what a reader sees (Renovate does the
# same for mentions in its PR bodies).
_MD_AUTOLINK = re.compile(r"(?i)(@|://|www\.)")
_ZWSP = "&#8203;"


def markdown(text: str) -> str:
    """Inline Markdown text that renders as the literal ``text`` and nothing else: no link,
    image, mention, emphasis, HTML or table break. Line breaks become ``<br>``."""
    text = visible(text.replace("\r\n", "\n").replace("\r", "\n"), keep="\n")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_PUNCT.sub(r"\\\1", text)
    text = _MD_AUTOLINK.sub(lambda m: _md_break(m.group()), text)
    return text.replace("\n", "<br>")


def _md_break(found: str) -> str:
    if found == "@":
        return "@" + _ZWSP
    if found == "://":
        return ":" + _ZWSP + "//"
    return found[:3] + _ZWSP + "."


def sarif_text(text: str) -> str:
    """A SARIF plain-text message (SARIF 2.1.0 §3.11.6): ``[text](target)`` there is an embedded
    link, so literal brackets, and the backslash that escapes them, are escaped."""
    text = visible(text, keep="\n")
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def workflow_data(text: str) -> str:
    """A workflow command message (``actions/toolkit`` ``command.ts`` ``escapeData``)."""
    text = visible(text, keep="\n\r")
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def workflow_property(text: str) -> str:
    """A workflow command property value (``escapeProperty``): also ``:`` and ``,``."""
    return workflow_data(text).replace(":", "%3A").replace(",", "%2C")


def json_text(text: str) -> str:
    """Serialised JSON (written with ``ensure_ascii=False``) with every control, bidi and
    invisible character as a ``\\uXXXX`` escape: the same data, safe to print on a terminal."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
