"""KS204 subtopology-removed."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.runbook import STOPPED_PREFIX
from rules.topology.context import TOPOLOGY_DIFF, DiffSubject, before, subtopology, task_dirs


@rule(
    id="KS204",
    name="subtopology-removed",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=TOPOLOGY_DIFF,
)
def subtopology_removed(subject: DiffSubject) -> Iterator[Hit]:
    """The new version has fewer sub-topologies: task directories of the old ones go stale.

    Why: tasks are named ``<sub-topology>_<partition>``. When sub-topology ids disappear, their
    task directories stay in the state directory; some Kafka Streams versions then fail with
    ``Tried to lookup lag for unknown task 5_0`` while rebalancing, and the leftovers use disk.
    With the streams rebalance protocol (KIP-1071) a change in the number of sub-topologies even
    needs a new group.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [input])
                  --> to-counts
                Sink: to-counts (topic: counts-repartition)
                  <-- in

              Sub-topology: 1
                Source: counts-source (topics: [counts-repartition])
                  --> none

        After:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [input])
                  --> none

    Fix: stop all instances, delete the task directories of the removed sub-topologies (every
    partition: ``<state.dir>/<application.id>/1_*``) or run ``KafkaStreams#cleanUp()``, then
    start the new version.
    """
    diff = subject.diff
    after_ids: dict[str | None, set[int]] = {}
    for t in diff.after.topologies:
        after_ids.setdefault(t.name, set()).update(
            s.id for s in t.subtopologies if not s.is_global
        )
    for t in diff.before.topologies:
        gone = sorted(
            s.id for s in t.subtopologies
            if not s.is_global and s.id not in after_ids.get(t.name, set())
        )
        if not gone:
            continue
        lines = {s.id: s.position.line or None for s in t.subtopologies}
        ids = ", ".join(str(i) for i in gone)
        yield Hit(
            message=(
                f"Sub-topolog{'ies' if len(gone) > 1 else 'y'} {ids} no longer exist"
                f"{'' if len(gone) > 1 else 's'}: their task directories go stale (\"Tried to "
                "lookup lag for unknown task\")."
            ),
            resources=tuple(subtopology(i, t.name) for i in gone),
            locations=tuple(before(subject, lines[i]) for i in gone),
            remediation="Delete the task directories of the removed sub-topologies on every "
            "instance while the application is stopped.",
            key=f"{t.name or ''}|{ids}",
            requires=DeployStrategy.STOP_AND_RESTART,
            steps=tuple(
                f"{STOPPED_PREFIX}delete {task_dirs(subject, i)} on every instance."
                for i in gone
            ),
        )
