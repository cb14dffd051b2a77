"""KS210 store-added."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import Hit, Impact, Severity, rule
from rules.topology.context import TOPOLOGY_DIFF, DiffSubject, after, changelog, store


@rule(
    id="KS210",
    name="store-added",
    severity=Severity.INFO,
    impact=Impact.HYGIENE,
    subject=TOPOLOGY_DIFF,
)
def store_added(subject: DiffSubject) -> Iterator[Hit]:
    """A new state store appears; it starts empty.

    Why: a new aggregation or join only sees records processed after the deploy (plus what its
    inputs still hold if they are read from the start). That is usually intended, but results
    that need history are incomplete until it has been rebuilt.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [orders])
                  --> none

        After:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [orders])
                  --> count-orders
                Processor: count-orders (stores: [order-counts])
                  --> none
                  <-- in

    Fix: nothing if an empty start is fine; otherwise backfill by reprocessing the inputs.
    """
    app = subject.application_id
    replaced = {x.key for r in subject.diff.replaced for x in r.added}
    for s in subject.diff.stores.added:
        if s.is_global or s.key in replaced:  # judged by store-replaced
            continue
        log = changelog(app, s.name, s.topology)
        yield Hit(
            message=f"New state store {s.name} starts empty (changelog {log.name}).",
            resources=(store(s.name), log),
            locations=(after(subject, s.line),),
            remediation="Backfill by reprocessing if the new state needs history.",
            key=f"{s.topology or ''}|{s.name}",
        )
