"""The one error a describe() text can raise."""

from __future__ import annotations


class TopologyParseError(ValueError):
    """``path:line:col: expected <what> but found <what>``; nothing partial is ever returned."""

    def __init__(self, path: str, line: int, column: int, expected: str, found: str):
        self.path, self.line, self.column = path, line, column
        self.expected, self.found = expected, found
        super().__init__(f"{path}:{line}:{column}: expected {expected} but found {found}")


class StreamsConfigError(ValueError):
    """``path:line:col: <problem>`` in a Streams ``.properties`` file."""

    def __init__(self, path: str, line: int, column: int, problem: str):
        self.path, self.line, self.column, self.problem = path, line, column, problem
        super().__init__(f"{path}:{line}:{column}: {problem}")
