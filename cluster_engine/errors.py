"""Errors a user can cause with cluster inputs (captured CLI outputs, snapshots, plans)."""

from __future__ import annotations


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
