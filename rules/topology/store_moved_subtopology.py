"""KS203 store-moved-subtopology."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.runbook import STOPPED_PREFIX
from rules.topology.context import (
    TOPOLOGY_DIFF,
    DiffSubject,
    after,
    before,
    changelog,
    store,
    subtopology,
    task_dirs,
)


@rule(
    id="KS203",
    name="store-moved-subtopology",
    severity=Severity.WARNING,
    impact=Impact.RESTORE,
    subject=TOPOLOGY_DIFF,
)
def store_moved_subtopology(subject: DiffSubject) -> Iterator[Hit]:
    """A state store now lives in another sub-topology, so it restores from its changelog.

    Why: local state lives in task directories ``<state.dir>/<application.id>/<sub-topology>_
    <partition>``. When a store moves to another sub-topology (a repartition was added or
    removed before it, sub-topologies were merged or split, or they were only renumbered), the
    new tasks find no local copy and restore the store from its changelog before processing:
    the state survives, but processing stalls for the restore time, and the old directories stay
    on disk.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: DailyOrders (topics: [orders-by-customer])
                  --> AggregateDailyOrders
                Processor: AggregateDailyOrders (stores: [orders])
                  --> none
                  <-- DailyOrders

        After:
            Topologies:
               Sub-topology: 0
                Source: DailyOrders (topics: [orders-by-customer])
                  --> GroupOrders
                Processor: GroupOrders (stores: [])
                  --> GroupOrders-repartition-filter
                  <-- DailyOrders
                Processor: GroupOrders-repartition-filter (stores: [])
                  --> GroupOrders-repartition-sink
                  <-- GroupOrders
                Sink: GroupOrders-repartition-sink (topic: GroupOrders-repartition)
                  <-- GroupOrders-repartition-filter

              Sub-topology: 1
                Source: GroupOrders-repartition-source (topics: [GroupOrders-repartition])
                  --> AggregateDailyOrders
                Processor: AggregateDailyOrders (stores: [orders])
                  --> none
                  <-- GroupOrders-repartition-source

    Fix: plan for the restore (it reads the whole changelog; standby replicas do not shorten it,
    since they are kept per task id and the store's task id changes with its sub-topology), deploy
    with a stop-and-restart so old and new instances never share the group with different
    sub-topology numbering, and delete the stale task directories afterwards.
    """
    app = subject.application_id
    for pair in subject.diff.stores.pairs:
        b, a = pair.before, pair.after
        if b.is_global or a.is_global or b.subtopology == a.subtopology:
            continue
        log = changelog(app, a.name, a.topology)
        yield Hit(
            message=(
                f"State store {a.name} moved from sub-topology {b.subtopology} to "
                f"{a.subtopology}: its tasks change and it restores in full from {log.name}."
            ),
            resources=(
                store(a.name),
                log,
                subtopology(b.subtopology, b.topology),
                subtopology(a.subtopology, a.topology),
            ),
            locations=(before(subject, b.line), after(subject, a.line)),
            remediation=(
                "Expect a full restore (standby replicas do not shorten it: the store's task id "
                "changes); deploy with stop-and-restart; clean up after."
            ),
            key=f"{a.topology or ''}|{b.name}|{b.subtopology}->{a.subtopology}",
            requires=DeployStrategy.STOP_AND_RESTART,
            steps=(
                f"Store {a.name} restores from {log.name} into "
                f"{task_dirs(subject, a.subtopology, a.name)}.",
                f"{STOPPED_PREFIX}delete the stale store directories "
                f"{task_dirs(subject, b.subtopology, b.name)} on every instance.",
            ),
        )
