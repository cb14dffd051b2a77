"""The one error a describe() text can raise."""

from __future__ import annotations

# Error parts quote the input; a 10 MB name must not make a 10 MB message. The places that quote
# cut to a few dozen characters already (``parse_nodes.quote``); this bound holds for any other.
_PART_LIMIT = 300


def _cut(text: str) -> str:
    return text if len(text) <= _PART_LIMIT else text[: _PART_LIMIT - 3] + "..."


class TopologyParseError(ValueError):
    """``path:line:col: expected <what> but found <what>``; nothing partial is ever returned."""

    def __init__(self, path: str, line: int, column: int, expected: str, found: str):
        expected, found = _cut(expected), _cut(found)
        self.path, self.line, self.column = path, line, column
        self.expected, self.found = expected, found
        super().__init__(f"{path}:{line}:{column}: expected {expected} but found {found}")


class StreamsConfigError(ValueError):
    """``path:line:col: <problem>`` in a Streams ``.properties`` file."""

    def __init__(self, path: str, line: int, column: int, problem: str):
        problem = _cut(problem)
        self.path, self.line, self.column, self.problem = path, line, column, problem
        super().__init__(f"{path}:{line}:{column}: {problem}")
