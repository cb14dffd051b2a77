""":class:`Result`: what every check of :mod:`linter.api` returns and every renderer reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from linter.report.model import Report
from linter.report.timeline import TimelineStep
from linter.settings import Settings

if TYPE_CHECKING:
    # for the annotations only: a cluster check never loads the topology diff
    from linter.topology.diff import TopologyDiff
    from linter.topology.model import Description


@dataclass(frozen=True)
class Result:
    """One check: its :class:`Report`, the settings it ran with (the exit code's ``fail-on``),
    and what the HTML report draws beside the findings: the topologies (``after`` alone for a
    lint of one file), the diff that was judged, the cluster timeline."""

    report: Report
    settings: Settings = field(default_factory=Settings)
    before: Description | None = None
    after: Description | None = None
    diff: TopologyDiff | None = None
    timeline: tuple[TimelineStep, ...] = ()
    notices: tuple[str, ...] = ()  # for the user beside the report: inputs skipped, and why
    done: tuple[str, ...] = ()  # what the check did that the report does not show (a rename
    # followed), said on stderr unless the user asked for quiet
