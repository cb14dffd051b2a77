"""Which of a finding's locations a code-review tool should point at.

A diff finding may point into both versions; review tools (pull request annotations, SARIF
consumers) can only show the file as it is now, so the "after" side (or a side-less location)
comes first and the "before" side is context.
"""

from __future__ import annotations

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
