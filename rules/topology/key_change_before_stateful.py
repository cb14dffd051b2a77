"""KS206 key-change-before-stateful."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.topology.context import TOPOLOGY_DIFF, DiffSubject, after, changelog, node, store


@rule(
    id="KS206",
    name="key-change-before-stateful",
    severity=Severity.ERROR,
    impact=Impact.STATE_LOSS,
    subject=TOPOLOGY_DIFF,
)
def key_change_before_stateful(subject: DiffSubject) -> Iterator[Hit]:
    """The records reaching an existing store are now keyed differently: old state is unreachable.

    Why: a store is looked up by the record key. When a key-changing operation (``selectKey``,
    ``map``, ``flatMap``, ``groupBy``, a new repartition) now sits in front of an existing
    aggregation or join, new records arrive under new keys, possibly on other partitions: the
    state built under the old keys is never read again and results silently mix old and new.

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

    Fix: change keys after the stateful part, or rebuild the state: run the new version
    blue-green under a new ``application.id`` (reprocessing the inputs, cut over when caught
    up), or reset the application and clean local state.
    """
    app = subject.application_id
    for kc in subject.diff.key_changes:
        if not kc.stores or not kc.certain:  # uncertain ones: key-change-unverified
            continue
        stores = sorted(kc.stores)
        logs = [changelog(app, s, kc.topology) for s in stores]
        was = ", ".join(sorted(kc.before)) or "nothing"
        now = ", ".join(sorted(kc.after)) or "nothing"
        yield Hit(
            message=(
                f"Records reaching {kc.node} (store{'s' if len(stores) > 1 else ''} "
                f"{', '.join(stores)}) were keyed by {was} and are now keyed by {now}: state "
                "stored under the old keys is unreachable."
            ),
            resources=(node(kc.node), *(store(s) for s in stores), *logs),
            locations=(after(subject, kc.line),),
            remediation="Move the key change after the stateful operators, or rebuild the state.",
            key=f"{kc.topology or ''}|{kc.node}",
            requires=DeployStrategy.BLUE_GREEN,
            steps=(
                f"Rebuild {', '.join(stores)} under the new key: deploy the new version as a new "
                "application (new application.id) reading the inputs from the beginning, switch "
                "consumers over once it has caught up, then stop the old one (or reset the "
                "application and clean local state).",
            ),
        )
