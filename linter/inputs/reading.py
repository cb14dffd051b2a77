"""Bounded reading: ``-`` is standard input (read once, under the same limit, and named
``<stdin>`` in messages: :func:`label`); any other path must name a regular file (a FIFO would
block forever, ``/dev/zero`` would be read until memory runs out, a directory is a mistake), and
at most :func:`input_limit` bytes are read (``KSAFE_MAX_INPUT_BYTES``, default 256 MiB); a
larger file is refused with its size. And which describe() files a list of paths stands for."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

from linter.inputs.errors import (
    DEFAULT_LIMIT,
    LIMIT_ENV,
    STDIN,
    STDIN_LABEL,
    UnreadableInput,
    quote,
)


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
