"""``topology-file-deleted``: a describe() file tracked at the base revision is gone."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from linter.topology.model import Description
from rules.framework import Hit, Impact, Location, Resource, Severity, SubjectKind, rule


@dataclass(frozen=True)
class DeletedFile:
    """A topology file present at the base revision and absent now (git saw no rename)."""

    path: str
    revision: str
    before: Description | None = None  # the old text, parsed, when it parsed
    application_id: str | None = None


TOPOLOGY_FILE: SubjectKind[DeletedFile] = SubjectKind("topology-file")


@rule(
    id="KS903",
    name="topology-file-deleted",
    severity=Severity.ERROR,
    impact=Impact.STATE_LOSS,
    subject=TOPOLOGY_FILE,
)
def topology_file_deleted(deleted: DeletedFile) -> Iterator[Hit]:
    """A topology file that exists at the base revision was deleted, so nothing checks that app.

    Why: the describe() file is the gate for an application's upgrades. Deleting it either retires
    the application (its state stores, changelog and repartition topics are orphaned and keep
    their data and their cost) or moves the file where git did not see a rename, in which case the
    next unsafe change of that application passes unchecked.

    Example: ``topology/orders-app.txt`` is tracked at ``origin/main`` and absent from the working
    tree; ``ksafe diff --git-base origin/main topology/orders-app.txt`` reports this finding with
    the stores the old topology had.

    Fix: if the application is retired, acknowledge this finding and delete its internal topics
    and consumer group with ``kafka-streams-application-reset``; if the file moved, move it with
    ``git mv`` (or keep the content similar enough for git's rename detection).
    """
    resources = [Resource(kind="file", name=deleted.path)]
    steps: list[str] = []
    if deleted.before is not None:
        for store in sorted({s for t in deleted.before.topologies for s in t.stores}):
            resources.append(Resource(kind="store", name=store))
            if deleted.application_id:
                changelog = f"{deleted.application_id}-{store}-changelog"
                resources.append(Resource(kind="changelog-topic", name=changelog))
    if deleted.application_id:
        steps.append(
            "If the application is retired: kafka-streams-application-reset "
            f"--application-id {deleted.application_id} (removes its internal topics)"
        )
    yield Hit(
        message=f"{deleted.path} exists at {deleted.revision} but was deleted",
        resources=tuple(resources),
        locations=(Location(path=deleted.path, side="before"),),
        remediation="Acknowledge the deletion if the application is retired; otherwise restore "
        "the file or move it with `git mv`.",
        key=deleted.path,
        steps=tuple(steps),
    )
