"""The subject fleet rules receive: the fleet's topic graph, whole or one slice of it."""

from __future__ import annotations

from linter.lineage import FleetGraph
from rules.framework import SubjectKind

FLEET: SubjectKind[FleetGraph] = SubjectKind("fleet")
