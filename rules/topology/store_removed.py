"""KS202 store-removed."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import Hit, Impact, Severity, rule
from rules.topology.context import TOPOLOGY_DIFF, DiffSubject, before, changelog, store, task_dirs


@rule(
    id="KS202",
    name="store-removed",
    severity=Severity.WARNING,
    impact=Impact.STATE_LOSS,
    subject=TOPOLOGY_DIFF,
)
def store_removed(subject: DiffSubject) -> Iterator[Hit]:
    """A state store disappeared: its state and its changelog topic are orphaned.

    Why: nothing deletes the changelog topic or the local store directories of a store that no
    longer exists; they keep using disk and broker space. If the removal was not intended (a
    rename the matcher could not pair, an operator dropped by mistake) the state is gone: adding
    the store back later starts from an empty changelog only if the old one was deleted, or from
    stale data if it was not.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: orders-source (topics: [orders])
                  --> count-orders
                Processor: count-orders (stores: [order-counts])
                  --> none
                  <-- orders-source

        After:
            Topologies:
               Sub-topology: 0
                Source: orders-source (topics: [orders])
                  --> log-orders
                Processor: log-orders (stores: [])
                  --> none
                  <-- orders-source

    Fix: if intended, delete the orphaned changelog topic and the store directories once the new
    version runs. If not, restore the operator with the same store name.
    """
    app = subject.application_id
    replaced = {x.key for r in subject.diff.replaced for x in r.removed}
    for s in subject.diff.stores.removed:
        if s.is_global or s.key in replaced:  # judged by store-replaced
            continue
        log = changelog(app, s.name, s.topology)
        yield Hit(
            message=f"State store {s.name} was removed; its changelog {log.name} is orphaned.",
            resources=(store(s.name), log),
            locations=(before(subject, s.line),),
            remediation="If intended, clean up after the deploy; otherwise keep the store.",
            key=f"{s.topology or ''}|{s.name}",
            steps=(
                f"After the deploy, delete the orphaned changelog {log.name} and the store "
                f"directories {task_dirs(subject, s.subtopology, s.name)}.",
            ),
        )
