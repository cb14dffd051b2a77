"""The one door for user files: every file ksafe reads, and every YAML and JSON text it loads.

Reading: ``-`` is standard input (read once, under the same limit, and named ``<stdin>`` in
messages: :func:`label`); any other path must name a regular file (a FIFO would block forever,
``/dev/zero`` would be read until memory runs out, a directory is a mistake), and at most
:func:`input_limit` bytes are read (``KSAFE_MAX_INPUT_BYTES``, default 256 MiB); a larger
file is refused with its size.

Loading: one YAML loader and one JSON loader. Both refuse a key given twice in one mapping (a
second ``steps:`` or ``topics:`` would silently replace the first), naming both lines; the YAML
loader refuses aliases (a few hundred bytes of nested aliases expand to gigabytes) and numbers
too long to be a value of any Kafka field. Every failure is a :class:`MalformedInput` located
``path:line:col``, never a traceback.

This is the lowest layer: it imports nothing of ksafe, so both the topology side and the
cluster engine read through it.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import yaml

STDIN = "-"  # the path that stands for standard input
STDIN_LABEL = "<stdin>"
DEFAULT_LIMIT = 256 * 1024 * 1024
LIMIT_ENV = "KSAFE_MAX_INPUT_BYTES"

# No Kafka field holds a number this long (int64 has 19 digits); longer digit runs are refused
# before Python's own 4,300-digit conversion limit can raise an unlocated ValueError.
MAX_DIGITS = 30
# Deeper than any real input, and shallow enough that the recursive readers never hit Python's
# recursion limit.
MAX_DEPTH = 64
_QUOTE = 80


class UnreadableInput(OSError):
    """A path that cannot be read as an input file: ``path: what is wrong``."""

    def __init__(self, path: str | Path, problem: str):
        super().__init__(problem)
        self.filename, self.strerror = str(path), problem

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


class MalformedInput(ValueError):
    """Input text that cannot be loaded: ``path:line:col: what is wrong``."""

    def __init__(self, path: str, line: int | None, message: str, column: int | None = None):
        self.path, self.line, self.column, self.detail = path, line, column, message
        where = path
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


def quote(text: str, limit: int = _QUOTE) -> str:
    """``repr`` of a piece of input for a message, cut so a huge value cannot flood the line."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text)} characters)"


# --------------------------------------------------------------------------------------------
# Reading


def input_limit() -> int:
    """The largest input read, in bytes: ``KSAFE_MAX_INPUT_BYTES`` or 256 MiB."""
    raw = os.environ.get(LIMIT_ENV, "").strip()
    if not raw:
        return DEFAULT_LIMIT
    if not raw.isdigit() or len(raw) > 18 or int(raw) < 1:
        raise UnreadableInput(LIMIT_ENV, f"expected a positive number of bytes, got {quote(raw)}")
    return int(raw)


def _kind(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def check_file(path: str | Path) -> None:
    """Refuse, with one line, a path that is missing, unreadable or not a regular file."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise UnreadableInput(path, "no such file or directory") from None
    except PermissionError:
        raise UnreadableInput(path, "permission denied") from None
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        raise UnreadableInput(path, getattr(error, "strerror", None) or str(error)) from None
    problem = _kind(mode)
    if problem is not None:
        raise UnreadableInput(path, problem)


def is_stdin(path: str | Path) -> bool:
    return str(path) == STDIN


def label(path: str | Path) -> str:
    """How messages name an input: ``<stdin>`` for ``-``, else the path as given."""
    return STDIN_LABEL if is_stdin(path) else str(path)


def read_bytes(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file (or of standard input, for ``-``) of at most ``limit``
    bytes (default :func:`input_limit`)."""
    limit = input_limit() if limit is None else limit
    if is_stdin(path):
        return _read_stdin(limit)
    check_file(path)
    try:
        # O_NONBLOCK: a FIFO swapped in after the check must not block the open
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except PermissionError:
        raise UnreadableInput(path, "permission denied") from None
    except OSError as error:
        raise UnreadableInput(path, error.strerror or str(error)) from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        problem = _kind(info.st_mode)
        if problem is not None:
            raise UnreadableInput(path, problem)
        if info.st_size > limit:
            raise UnreadableInput(path, _too_big(info.st_size, limit))
        try:
            data = _read_bounded(handle, min(info.st_size, limit) + 1, limit)
        except OSError as error:
            raise UnreadableInput(path, error.strerror or str(error)) from None
    if data is None:
        raise UnreadableInput(path, _too_big(None, limit))
    return data


def _read_stdin(limit: int) -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise UnreadableInput(STDIN_LABEL, "no standard input to read")
    try:
        data = _read_bounded(stream, min(limit + 1, 1 << 20), limit)
    except OSError as error:
        raise UnreadableInput(STDIN_LABEL, error.strerror or str(error)) from None
    if data is None:
        raise UnreadableInput(STDIN_LABEL, _too_big(None, limit))
    return data


def _read_bounded(handle: BinaryIO, first: int, limit: int) -> bytes | None:
    """At most ``limit`` bytes, or None past it. The first read is sized to the file (one
    buffer, never ``limit`` bytes reserved up front); later ones catch a file still growing."""
    chunks: list[bytes] = []
    total, want = 0, first
    while True:
        chunk = handle.read(want)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            return None
        want = min(limit - total + 1, 1 << 20)


def _too_big(size: int | None, limit: int) -> str:
    have = f"{size} bytes" if size is not None else "more"
    return f"{have} is over the input limit of {limit} bytes (set {LIMIT_ENV} to raise it)"


# --------------------------------------------------------------------------------------------
# YAML


class _Refused(yaml.MarkedYAMLError):
    """YAML that parses but that ksafe refuses (an alias, a duplicate key, a huge number)."""


class _Loader(yaml.SafeLoader):
    """SafeLoader without aliases, duplicate keys or unbounded numbers."""

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise _Refused(
                None,
                None,
                "aliases (*name) are not accepted; write the value out",
                event.start_mark,
            )
        depth = getattr(self, "_depth", 0)
        if depth >= MAX_DEPTH:
            raise _Refused(
                None,
                None,
                f"nested more than {MAX_DEPTH} levels deep",
                self.peek_event().start_mark,  # type: ignore[no-untyped-call]
            )
        self._depth = depth + 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth = depth

    def compose_mapping_node(self, anchor: Any) -> yaml.MappingNode:
        node: yaml.MappingNode = super().compose_mapping_node(anchor)
        seen: dict[str, yaml.Node] = {}
        for key, _ in node.value:
            if not isinstance(key, yaml.ScalarNode):
                continue
            if key.value in seen:
                first = seen[key.value].start_mark.line + 1
                raise _Refused(
                    None,
                    None,
                    f"key {quote(key.value)} given twice (lines {first} and "
                    f"{key.start_mark.line + 1}); the second would replace the first",
                    key.start_mark,
                )
            seen[key.value] = key
        return node

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        _check_digits(node)
        value: int = super().construct_yaml_int(node)
        return value

    def construct_yaml_float(self, node: yaml.ScalarNode) -> float:
        _check_digits(node)
        value: float = super().construct_yaml_float(node)
        return value


def _check_digits(node: yaml.ScalarNode) -> None:
    digits = sum(c.isdigit() for c in str(node.value))
    if digits > MAX_DIGITS:
        raise _Refused(None, None, f"a number of {digits} digits is out of range", node.start_mark)


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.add_constructor("tag:yaml.org,2002:float", _Loader.construct_yaml_float)


def _yaml_errors(text: str, path: str, action: Callable[[], Any]) -> Any:
    try:
        return action()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        problem = error.problem or error.context or "not valid YAML"
        if not isinstance(error, _Refused):
            problem = f"not valid YAML: {problem}"
        raise MalformedInput(path, line, problem, col) from None
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        raise MalformedInput(path, line, f"not valid YAML: {error.reason}") from None
    except yaml.YAMLError as error:
        raise MalformedInput(path, None, f"not valid YAML: {error}") from None
    except RecursionError:
        raise MalformedInput(path, None, "nested too deeply to read") from None


def compose_yaml(text: str, path: str) -> yaml.Node | None:
    """The YAML node tree of ``text`` (positions kept), checked as :func:`load_yaml` is."""
    check_nesting(text, path)

    def compose() -> yaml.Node | None:
        loader = _Loader(text)
        try:
            node: yaml.Node | None = loader.get_single_node()
            return node
        finally:
            loader.dispose()

    result: yaml.Node | None = _yaml_errors(text, path, compose)
    if result is not None:
        _check_scalars(result, path)
    return result


_NUMERIC = re.compile(r"[+-]?[0-9_]*[0-9][0-9_.]*")


def _long_number(value: str) -> bool:
    """A number (or a string holding one: a config value, an entity) too long to be any
    Kafka value; the readers and rules that convert it would hit Python's conversion limit."""
    return len(value) > MAX_DIGITS and _NUMERIC.fullmatch(value.strip()) is not None


def _check_scalars(node: yaml.Node, path: str) -> None:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.ScalarNode):
            if isinstance(current.value, str) and _long_number(current.value):
                mark = current.start_mark
                digits = sum(c.isdigit() for c in current.value)
                message = f"a number of {digits} digits is out of range"
                raise MalformedInput(path, mark.line + 1, message, mark.column + 1)
        elif isinstance(current, yaml.SequenceNode):  # reversed: the first in the text wins
            stack.extend(reversed(current.value))
        elif isinstance(current, yaml.MappingNode):
            for key, value in reversed(current.value):
                stack.extend((value, key))


def construct_yaml(node: yaml.Node, path: str, text: str = "") -> Any:
    """The Python value of a node from :func:`compose_yaml`."""

    def construct() -> Any:
        loader = _Loader("")
        try:
            return loader.construct_object(node, deep=True)
        finally:
            loader.dispose()

    return _yaml_errors(text, path, construct)


def load_yaml(text: str, path: str) -> Any:
    """The value of a YAML text (safe tags only), or a located :class:`MalformedInput`."""
    node = compose_yaml(text, path)
    return None if node is None else construct_yaml(node, path, text)


# --------------------------------------------------------------------------------------------
# JSON


class _DuplicateKey(Exception):
    def __init__(self, key: str):
        self.key = key


class _LongNumber(Exception):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise _LongNumber
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS * 4:
        raise _LongNumber
    return float(text)


_LONG_NUMBER = re.compile(rf"-?\d{{{MAX_DIGITS + 1},}}")


def load_json(text: str, path: str) -> Any:
    """The value of a JSON text, or a located :class:`MalformedInput`: a key twice in one
    object names both lines."""
    check_nesting(text, path)
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as error:
        raise MalformedInput(
            path, error.lineno, f"not valid JSON: {error.msg}", error.colno
        ) from None
    except _DuplicateKey as error:
        lines = _key_lines(text, error.key)
        at = lines[1] if len(lines) > 1 else None
        both = f" (lines {lines[0]} and {lines[1]})" if len(lines) > 1 else ""
        raise MalformedInput(
            path,
            at,
            f"key {quote(error.key)} given twice{both}; the second would replace the first",
        ) from None
    except _LongNumber:
        match = _LONG_NUMBER.search(text)
        line, col = _line_col(text, match.start()) if match else (None, None)
        digits = len(match.group().lstrip("-")) if match else MAX_DIGITS + 1
        raise MalformedInput(
            path, line, f"a number of {digits} digits is out of range", col
        ) from None
    except RecursionError:
        raise MalformedInput(path, None, "nested too deeply to read") from None
    _check_strings(value, text, path)
    return value


def _check_strings(value: Any, text: str, path: str) -> None:
    """A string holding a number too long for any Kafka value is refused as a number is."""
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, str) and _long_number(current):
            at = text.find(json.dumps(current))
            line, col = _line_col(text, at) if at >= 0 else (None, None)
            digits = sum(c.isdigit() for c in current)
            raise MalformedInput(path, line, f"a number of {digits} digits is out of range", col)
        if isinstance(current, dict):
            stack.extend(current.values())
            stack.extend(current.keys())
        elif isinstance(current, list):
            stack.extend(current)


def _key_lines(text: str, key: str) -> list[int]:
    """Lines where ``"key":`` occurs (the duplicate is among them; JSON keeps no positions)."""
    pattern = re.compile(re.escape(json.dumps(key)) + r"\s*:")
    found = [_line_col(text, m.start())[0] for m in pattern.finditer(text)]
    if len(found) < 2:  # the key was written with escapes: search its decoded form too
        found = [
            _line_col(text, m.start())[0]
            for m in re.finditer(r'"((?:[^"\\]|\\.)*)"\s*:', text)
            if _decoded(m.group(1)) == key
        ]
    return found


def _decoded(raw: str) -> str | None:
    try:
        value = json.loads(f'"{raw}"')
    except ValueError:
        return None
    return value if isinstance(value, str) else None


_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def json_position(text: str, path: Sequence[str | int]) -> tuple[int, int] | None:
    """``(line, column)`` of the value at ``path`` (object keys and list indices) in a JSON text
    :func:`load_json` accepted, or of the deepest part of ``path`` that exists; ``None`` when not
    even the first part does. JSON readers keep no positions, so a value that loads but is wrong
    (a broker id beyond int32) is found again in the text to point at it."""
    decoder = json.JSONDecoder()

    def space(pos: int) -> int:
        match = _JSON_SPACE.match(text, pos)
        return match.end() if match else pos

    def child(pos: int, part: str | int) -> int | None:
        opening = text[pos : pos + 1]
        if opening not in ("{", "[") or isinstance(part, str) != (opening == "{"):
            return None
        pos, index = space(pos + 1), 0
        while text[pos : pos + 1] not in ("}", "]", ""):
            if opening == "{":
                key, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
                pos = space(space(pos) + 1)  # past the colon
                if key == part:
                    return pos
            elif index == part:
                return pos
            pos = space(decoder.raw_decode(text, pos)[1])
            pos, index = space(pos + 1) if text[pos : pos + 1] == "," else pos, index + 1
        return None

    found: int | None = None
    try:
        pos: int | None = space(0)
        for part in path:
            assert pos is not None
            pos = child(pos, part)
            if pos is None:
                break
            found = pos
    except (ValueError, IndexError, RecursionError):
        pass
    return _line_col(text, found) if found is not None else None


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


# --------------------------------------------------------------------------------------------
# Numbers and nesting

_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def check_digits(text: str, path: str) -> None:
    """Refuse a run of digits longer than any Kafka number before a reader converts it."""
    match = _DIGITS.search(text)
    if match is not None:
        line, col = _line_col(text, match.start())
        raise MalformedInput(
            path, line, f"a number of {len(match.group())} digits is out of range", col
        )


_BRACKETS = re.compile(r"[\[\]{}\n]")


def check_nesting(text: str, path: str, limit: int = MAX_DEPTH) -> None:
    """Reject ``[``/``{`` nesting deeper than any real input before a YAML or JSON reader sees
    it: those readers recurse (RecursionError) and PyYAML slows down quadratically with depth."""
    if text.count("[") + text.count("{") <= limit:
        return
    depth, line = 0, 1
    for match in _BRACKETS.finditer(text):
        char = match.group()
        if char == "\n":
            line += 1
        elif char in "[{":
            depth += 1
            if depth > limit:
                raise MalformedInput(
                    path, line, f"nested more than {limit} levels deep; no real input is"
                )
        else:
            depth = max(depth - 1, 0)


def describe_files(paths: Sequence[str | Path]) -> list[Path]:
    """The describe() files ``paths`` stand for: a file (or ``-``) for itself, a directory for
    every ``*.txt`` below it (dot-files left out), as ``baseline`` and ``--git-base`` read them.
    A directory without one is an error: nothing would be checked."""
    files: list[Path] = []
    for p in paths:
        path = Path(p)
        if str(p) == STDIN or not path.is_dir():
            files.append(path)
            continue
        found = sorted(f for f in path.rglob("*.txt") if not f.name.startswith("."))
        if not found:
            raise UnreadableInput(p, "no *.txt describe() file inside; nothing checked")
        files += found
    return files
