"""What every input problem is, and how messages name an input and quote a piece of it."""

from __future__ import annotations

from pathlib import Path

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
