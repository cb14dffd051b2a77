"""Errors a user can cause with cluster inputs (captured CLI outputs, snapshots, plans)."""

from __future__ import annotations

import codecs
import re
from pathlib import Path


class ClusterInputError(ValueError):
    """Bad input, located: ``path:line[:col]: what was expected but found what``."""

    def __init__(self, path: str, line: int | None, message: str, column: int | None = None):
        self.path, self.line, self.column, self.detail = path, line, column, message
        where = path
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


def decode_input(data: bytes, path: str) -> str:
    """The text of an input file: UTF-8 (with or without BOM) or UTF-16 with a BOM (what a
    PowerShell redirect writes). Anything else is a located :class:`ClusterInputError`."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    else:
        encoding = "utf-8-sig"
        sample = data[:64]
        if len(sample) >= 4 and sample.count(0) * 3 >= len(sample):
            raise ClusterInputError(
                path, 1, "the file looks like UTF-16 without a byte-order mark; save it as UTF-8"
            )
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        head = data[: error.start]
        if encoding == "utf-16":
            line = head.decode("utf-16", errors="replace").count("\n") + 1
        else:
            line = head.count(b"\n") + 1
        name = "UTF-16" if encoding == "utf-16" else "UTF-8"
        raise ClusterInputError(
            path, line, f"byte 0x{data[error.start]:02x} is not {name} text; save the file as UTF-8"
        ) from None


def read_input(path: str | Path) -> str:
    """Read an input file with :func:`decode_input` (``OSError`` is left to the caller)."""
    return decode_input(Path(path).read_bytes(), str(path))


_BRACKETS = re.compile(r"[\[\]{}\n]")


def check_nesting(text: str, path: str, limit: int = 64) -> None:
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
                raise ClusterInputError(
                    path, line, f"nested more than {limit} levels deep; no real input is"
                )
        else:
            depth = max(depth - 1, 0)
