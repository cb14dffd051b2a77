"""Line handling shared by every reader: what a real capture carries besides the tool's output.

Captures are messy: a ``$ command`` line (or a ``[user@host dir]# command`` prompt) before the
output, ``#`` provenance or comment lines, log lines the admin client wrote to stderr, blank
lines, trailing spaces, a ``...`` where a document elided lines, and whole blocks indented
when copied from documentation. Those lines are recognised here and dropped, each for a stated
reason; every other line must be read by a reader, or it is an error.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, overload

from cluster_engine.arrays import naturals
from cluster_engine.errors import ClusterInputError
from linter import inputs

_PROMPT = re.compile(r"^(?:\$|\[[^\]]*\][$#]|[\w.@:~/-]*[$#])\s+\S")
_LOG = re.compile(
    r"^\[\d{4}-\d\d-\d\d[ T][\d:.,]+\]\s+(?:TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\b"
    r"|^(?:SLF4J|log4j):"
)
_ELISION = re.compile(r"^(?:\.\.\.|…)$")


@dataclass(frozen=True, slots=True)
class Line:
    """A line that carries tool output. ``after_break``: a command or comment came just before."""

    number: int
    text: str
    after_break: bool = False
    command: str | None = None

    @property
    def stripped(self) -> str:
        return self.text.strip()


class Lines(Sequence[Line]):
    """The output lines of a capture: their texts and numbers as columns, a ``Line`` built on
    access (a describe can hold 200k lines)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.numbers = array("q")
        self.breaks: dict[int, str | None] = {}  # index -> the command line before it, if any

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, index: int) -> Line: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Line]: ...

    def __getitem__(self, index: int | slice) -> Line | Sequence[Line]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if index < 0:
            index += len(self)
        after_break = index in self.breaks
        command = self.breaks.get(index)
        return Line(self.numbers[index], self.texts[index], after_break, command)


# A line can only be a comment, an elision, a prompt or a log line if it starts with one of
# these characters or holds a "$" or "#" somewhere.
_MAYBE_SPECIAL = frozenset(".…[Sl")
_MARKS = ("$", "#")


def prepare(text: str) -> Lines:
    """The output lines of a capture, numbered as in the file, trailing whitespace removed."""
    out = Lines()
    texts, numbers, breaks = out.texts, out.numbers, out.breaks
    pending_break = False
    command: str | None = None
    for first, block, lines in _numbered_blocks(text):
        marked = any(mark in block for mark in _MARKS)
        for start in range(0, len(lines), _GROUP):
            group = lines[start : start + _GROUP]
            number = first + start
            if _plain(group, marked):
                # every line is output as it is: taken whole (most of a large capture)
                if pending_break:
                    breaks[len(texts)] = command
                    pending_break, command = False, None
                texts += group
                numbers += naturals(range(number, number + len(group)))
                continue
            for k, line in enumerate(group, start=number):
                body = line.lstrip()
                if not body:
                    continue
                if body[0] in _MAYBE_SPECIAL or "$" in body or "#" in body:
                    if body.startswith("#") or _ELISION.match(body):
                        pending_break = True
                        continue
                    if _PROMPT.match(body):
                        pending_break, command = True, body
                        continue
                    if _LOG.match(body):
                        continue
                if pending_break:
                    breaks[len(texts)] = command
                    pending_break, command = False, None
                texts.append(line)
                numbers.append(k)
    return out


# Lines judged at a time by _plain: a group holding one comment or blank line is read line by line.
_GROUP = 512


def _plain(lines: list[str], marked: bool) -> bool:
    """Whether each of ``lines`` (trailing whitespace removed) is kept as it is by the line-by-line
    reading in ``prepare``: none is blank, none starts with a character a comment, an elision, a
    prompt or a log line starts with, none holds a "$" or "#" (``marked``: their block has one).
    C-level passes over the lines: a Python statement per line costs more."""
    if not all(lines):
        return False
    if not _MAYBE_SPECIAL.isdisjoint(map(itemgetter(0), map(str.lstrip, lines))):
        return False
    return not marked or not any(mark in line for line in lines for mark in _MARKS)


# Lines split at a time: all of a 200k-line text's lines at once would be ~30 MB more to hold.
_BLOCK = 1 << 20


def _numbered_blocks(text: str) -> Iterator[tuple[int, str, list[str]]]:
    """The lines of ``text`` a block of about ``_BLOCK`` characters at a time: (the number of
    the block's first line, the block, its lines with trailing whitespace removed). A block ends
    just after a "\n", where ``splitlines`` breaks anyway (a "\r\n" pair stays whole), so the
    lines are those of ``text.splitlines()``."""
    start, number = 0, 1
    while start < len(text):
        cut = text.find("\n", start + _BLOCK)
        end = len(text) if cut < 0 else cut + 1
        block = text[start:end]
        lines = list(map(str.rstrip, _split_lines(block)))
        yield number, block, lines
        start, number = end, number + len(lines)


# The line breaks of str.splitlines besides "\n" that an ASCII text can hold.
_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e")


def _split_lines(block: str) -> list[str]:
    """``block.splitlines()``. An ASCII block whose only line break is "\n" (most captures) is
    split on that one character, a search where ``splitlines`` tests every character against
    each break it knows (half the time of a 20 MB capture's split)."""
    if block.isascii() and not any(mark in block for mark in _OTHER_BREAKS):
        lines = block.split("\n")
        if not lines[-1]:  # the block ends with its last line's "\n"
            lines.pop()
        return lines
    return block.splitlines()


def read_json(path: str, lines: Sequence[Line], start: int) -> tuple[Any, int]:
    """A JSON value starting at ``lines[start]``, on one line or pretty-printed over several."""
    depth, in_string, escaped = 0, False, False
    parts: list[str] = []
    i = start
    while i < len(lines):
        if i > start and lines[i].after_break:
            break
        text = lines[i].stripped
        parts.append(text)
        for ch in text:
            if in_string:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch in "{[":
                depth += 1
            elif ch in "}]":
                depth -= 1
        i += 1
        if depth <= 0:
            break
    try:
        return inputs.load_json("".join(parts), path), i
    except inputs.MalformedInput as error:
        line = lines[start].number + (error.line or 1) - 1
        detail = error.detail.removeprefix("not valid JSON: ")
        raise ClusterInputError(path, line, f"expected a JSON document: {detail}") from None


def int_list(path: str, line: Line, text: str, what: str) -> tuple[int, ...]:
    """A comma-separated list of broker ids (may be empty)."""
    text = text.strip()
    if not text:
        return ()
    try:
        ids = tuple(int(x) for x in text.split(","))
    except ValueError:
        ids = (-1,)
    if min(ids) < 0:
        raise ClusterInputError(
            path, line.number, f"{what}: expected comma-separated broker ids, got {text!r}"
        )
    return ids


def to_int(path: str, line: Line, text: str, what: str) -> int:
    value = text.strip()
    if len(value.lstrip("+-")) > inputs.MAX_DIGITS:
        raise ClusterInputError(
            path, line.number, f"{what}: a number of {len(value)} digits is out of range"
        )
    try:
        return int(value)
    except ValueError:
        raise ClusterInputError(
            path, line.number, f"{what}: expected an integer, got {inputs.quote(value)}"
        ) from None


def topic_partition(path: str, line: Line, text: str) -> tuple[str, int]:
    """``my.topic-3`` -> (``my.topic``, 3); topic names may themselves contain ``-``."""
    topic, sep, partition = text.rpartition("-")
    if not sep or not topic or not partition.isascii() or not partition.isdigit():
        raise ClusterInputError(
            path, line.number, f"expected <topic>-<partition>, got {inputs.quote(text)}"
        )
    return topic, to_int(path, line, partition, "partition")


def fail(path: str, line: Line, message: str) -> ClusterInputError:
    return ClusterInputError(path, line.number, message)
