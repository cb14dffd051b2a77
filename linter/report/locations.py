"""Which of a finding's locations a code-review tool should point at.

A diff finding may point into both versions; review tools (pull request annotations, SARIF
consumers) can only show the file as it is now, so the "after" side (or a side-less location)
comes first and the "before" side is context.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from rules.framework import Finding, Location


def current(finding: Finding) -> tuple[Location, ...]:
    """Locations in files as they are now (not the ``before`` side), with a path."""
    return tuple(loc for loc in finding.locations if loc.path and loc.side != "before")


def previous(finding: Finding) -> tuple[Location, ...]:
    return tuple(loc for loc in finding.locations if loc.path and loc.side == "before")


def primary(finding: Finding) -> Location | None:
    """The one location to annotate: the first current one, else the first with a path."""
    found = current(finding) or previous(finding)
    return found[0] if found else None


def at_revision(path: str, revisions: Mapping[str, tuple[str, str]]) -> tuple[str, str | None]:
    """``(file, revision)`` for a location path: a ``path@REV`` label named in ``revisions``
    splits into the file and the revision; any other path is itself, at no revision."""
    found = revisions.get(path)
    return found if found is not None else (path, None)


@dataclass(frozen=True)
class PathBase:
    """Where paths are resolved for code-review tools: ``root`` is the repository's top level
    (absolute), ``cwd`` the directory relative paths in findings were given from (absolute).
    Annotations and SARIF locations are relative to ``root``, whatever directory ksafe ran in
    (a monorepo's ``services/orders``, a workflow step's ``working-directory``)."""

    root: str
    cwd: str

    def relative(self, path: str) -> str | None:
        """``path`` relative to ``root`` (``/``-separated), None when it lies outside."""
        absolute = os.path.normpath(os.path.join(self.cwd, path))
        rel = os.path.relpath(absolute, self.root)
        if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
            return None
        return PurePosixPath(*rel.split(os.sep)).as_posix()

    @property
    def prefix(self) -> str:
        """The current directory relative to ``root`` (``.`` at the top level)."""
        return self.relative(".") or "."
