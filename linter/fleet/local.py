"""The fleet scan in one process, without Spark: the reference the Spark job must match, and
the baseline of ``benchmarks/fleet.py``. Same functions, same rows; everything in memory."""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from linter.api import Settings
from linter.fleet.lineage import CLUSTER_CHECK, LINEAGE_CHECK, Edge, edges, judge, whole_graph
from linter.fleet.rows import AppRow, FindingRow
from linter.fleet.scan import Version, scan_app
from linter.fleet.verdicts import with_fleet
from linter.lineage import PartitionChange


@dataclass(frozen=True)
class LocalScan:
    findings: tuple[FindingRow, ...]  # sorted as the findings table
    apps: tuple[AppRow, ...]  # by app_id; counts are the app's own (not the fleet findings)
    edges: tuple[Edge, ...]

    def verdicts(self) -> dict[str, tuple[str | None, str | None]]:
        """Each app's ``(verdict, strategy)`` with its fleet findings counted, as the apps
        table of the Spark job holds them."""
        fleet: dict[str, list[FindingRow]] = {}
        for f in self.findings:
            if f.app_id is not None and f.check in (LINEAGE_CHECK, CLUSTER_CHECK):
                fleet.setdefault(f.app_id, []).append(f)
        return {
            a.app_id: with_fleet(a.verdict, a.strategy, fleet.get(a.app_id, ()))
            for a in self.apps
        }


def scan_fleet(
    fleet: Mapping[str, Sequence[Version]] | Iterable[tuple[str, Sequence[Version]]],
    settings: Settings | None = None,
    changes: Sequence[PartitionChange] = (),
) -> LocalScan:
    settings = settings or Settings()
    items = fleet.items() if isinstance(fleet, Mapping) else fleet
    findings: list[FindingRow] = []
    apps: list[AppRow] = []
    facts = []
    with cycles_uncollected():
        for app_id, versions in items:
            result = scan_app(app_id, versions, settings)
            apps.append(result.app)
            findings.extend(result.findings)
            if result.facts is not None:
                facts.append(result.facts)
        graph = whole_graph(facts, changes)
        findings.extend(judge(graph, settings))
        return LocalScan(
            findings=tuple(sorted(findings, key=FindingRow.sort_key)),
            apps=tuple(sorted(apps, key=lambda a: a.app_id)),
            edges=tuple(edges(graph)),
        )


@contextmanager
def cycles_uncollected() -> Iterator[None]:
    """The cyclic garbage collector paused (as it was after). The rows a fleet scan keeps grow
    with the fleet (~30 an app) and each full collection walks them all: a third of a 10k-app
    scan's time, and most of writing its tables, to free next to nothing (an app's check and
    the lineage judgement make no cycles: 5 objects freed over 10k apps). The parser does the
    same."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
