"""Where a pasted describe() text starts and ends, and the prefix pasted on each of its lines.

Copied from a log or from source code, every line of the text may carry the same prefix:
``kubectl logs --timestamps`` (``2026-11-23T10:15:00.123456789Z ``), ``docker compose logs``
(``orders-app-1  | ``), line comments (``// ``, ``# ``), a javadoc margin (`` * ``), indented or
not. The prefix comes from the text in front of the first header (``Topologies:``,
``Topology: <name>:``, ``Sub-topologies:``, or ``Sub-topology: <id>`` when the header was not
pasted): the longest run of its first words that the next line carries too, in front of a line
of the format (a logger may add its own prefix to the first line of a message only). A
timestamp in it stands for any timestamp, since each line gets its own. It is overwritten with
spaces (not cut) so that lines and columns still point into the original text.

Whatever lies outside the description (before its first header, after its last line) must not
look like a part of it: a node line, a ``Sub-topology:`` line or an arrow line there raises a
located error, so that a text is never read as fewer nodes than it shows.
"""

from __future__ import annotations

import re

from linter.topology.parse_nodes import Located, quote

# A timestamp in a prefix stands for any timestamp: ISO 8601 / RFC 3339 (kubectl trims trailing
# zeros of the fraction, log4j writes `,123`), or a time of day alone.
_DATE_TIME = (
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]{1,9})?"
    r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?"
)
_TIME = r"[0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]{1,9})?"
_TIMESTAMP = re.compile(f"(?P<date>{_DATE_TIME})|{_TIME}")

# What may follow the prefix on a line of the description: a keyword of the format, or nothing.
_DESCRIBE_LINE = re.compile(
    r"[ \t]*(?:Topologies:|Topology(?::| -) |Sub-topolog|Source:|Processor:|Sink:|-->|<--"
    r"|Global Stores:|GlobalStore:|none[ \t]*$|$)"
)

# A line that looks like a part of a description: a node keyword followed on its line by a
# node payload, a `Sub-topology:` header with its id, or an indented arrow that names something
# (describe() indents arrows by six spaces; in prose an arrow sits between words). The header
# and arrow patterns start with their literal and look behind once it is found; the node pattern
# takes the line's first node keyword atomically (no payload after it: none after a later one),
# so each line is scanned once. Linear on any text.
_NODE = re.compile(
    r"^(?>[^\n]*?(?<![\w-])(?P<keyword>Source|Processor|Sink|GlobalStore):)"
    r"[^\n]*?\((?:topics|stores|topic|extractor class):",
    re.MULTILINE,
)
_HEADER = re.compile(r"Sub-topology:(?<![\w-]Sub-topology:)[ \t]*[0-9]")
_ARROW = re.compile(r"(?:-->|<--)(?:(?<=[\n\t]...)|(?<=  ...)|(?<=^...))[ \t]+\S")


def _prefix_pattern(marker: str) -> re.Pattern[str]:
    parts: list[str] = []
    at = 0
    for stamp in _TIMESTAMP.finditer(marker):
        parts.append(re.escape(marker[at : stamp.start()]))
        parts.append(_DATE_TIME if stamp["date"] else _TIME)
        at = stamp.end()
    parts.append(re.escape(marker[at:]))
    return re.compile(r"[ \t]*" + "".join(parts))


def strip_prefix(text: str, line_start: int, keyword: int) -> tuple[str, int] | None:
    """The text with the prefix of the description's lines blanked out, and where the
    description ends (the first line without the prefix or, behind it, a line that is not
    part of a describe() text); None when the lines after the header carry no prefix.

    ``line_start`` is where the header's line starts, ``keyword`` where its keyword does. The
    lines' prefix is the longest run of the header prefix's first words that the next line
    carries: a logger may print its own prefix on a message's first line only, in front of
    the one kubectl or docker put on every line.
    """
    header_end = text.find("\n", keyword)
    if header_end < 0:
        return None
    first = header_end + 1
    prefix = _line_prefix(text[line_start:keyword], text, first)
    if prefix is None:
        return None
    pieces = [text[:first]]
    pos, size, end = first, len(text), first
    while pos < size:
        newline = text.find("\n", pos)
        stop = size if newline < 0 else newline + 1
        found = prefix.match(text, pos, stop)
        if found is not None and _DESCRIBE_LINE.match(text, found.end(), stop):
            pieces.append(text[end:pos])  # blank lines since the last line of the description
            pieces.append(" " * (found.end() - pos) + text[found.end() : stop])
            end = stop
        elif text[pos:stop].strip():
            break
        pos = stop
    pieces.append(text[end:])
    return "".join(pieces), end


# A prefix longer than this many words is a log line's, not one pasted on every line; and the
# description goes on within this many lines of its header, or it was not pasted behind one.
_MOST_WORDS = 16
_MOST_BLANK = 100
_WORD = re.compile(r"\S+")


def _line_prefix(header_prefix: str, text: str, first: int) -> re.Pattern[str] | None:
    """The pattern of the prefix that the lines from ``first`` share with the header's line,
    when the first of them with something behind it is a line of a description."""
    if not header_prefix.strip(" \t"):
        return None
    ends = [word.end() for word in _WORD.finditer(header_prefix)][:_MOST_WORDS]
    for end in reversed(ends):
        prefix = _prefix_pattern(header_prefix[:end].strip(" \t"))
        pos, carried = first, False
        for _ in range(_MOST_BLANK):
            newline = text.find("\n", pos)
            stop = len(text) if newline < 0 else newline + 1
            found = prefix.match(text, pos, stop)
            if pos >= len(text) or (found is None and text[pos:stop].strip()):
                break
            if found is not None and text[found.end() : stop].strip():
                if _DESCRIBE_LINE.match(text, found.end(), stop):
                    return prefix
                break
            carried = carried or found is not None
            pos = stop
        if carried:  # blank lines of the description (an empty topology prints one)
            return prefix
    return None


def reject_stray(text: str, lo: int, hi: int, where: str) -> None:
    """Raise :class:`Located` at the first line of ``text[lo:hi]`` that looks like a node,
    a ``Sub-topology:`` header or an arrow line; ``where`` says where the description is."""
    seen: list[tuple[int, str]] = []
    header = _HEADER.search(text, lo, hi)
    if header is not None:
        seen.append((header.start(), "a `Sub-topology:` line"))
    arrow = _ARROW.search(text, lo, hi)
    if arrow is not None:
        seen.append((arrow.start(), "an arrow line"))
    node = _NODE.search(text, lo, hi)
    if node is not None:
        seen.append((node.start("keyword"), "a node line"))
    if not seen:
        return
    at, kind = min(seen)
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    shown = quote(text[line_start : len(text) if line_end < 0 else line_end].strip(" \t"))
    line = text.count("\n", 0, at) + 1
    raise Located(line, at - line_start + 1, f"no describe() line {where}", f"{kind} {shown}")
