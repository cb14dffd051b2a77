"""KS211 store-owner-changed."""

from __future__ import annotations

from collections.abc import Iterator

from linter.topology.diff import Change
from rules.framework import Hit, Impact, Severity, rule
from rules.topology.context import TOPOLOGY_DIFF, DiffSubject, after, before, changelog, node, store


@rule(
    id="KS211",
    name="store-owner-changed",
    severity=Severity.WARNING,
    impact=Impact.STATE_LOSS,
    subject=TOPOLOGY_DIFF,
)
def store_owner_changed(subject: DiffSubject) -> Iterator[Hit]:
    """A store keeps its name but is now written by a different operator.

    Why: the changelog is found again, but what it holds was written by the old operator: if the
    new owner stores other values (a mapped value instead of the source value, another aggregate
    type), it reads data in a format or meaning it does not expect. Query planners (ksqlDB)
    move materializations like this between versions.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: src (topics: [users])
                  --> users-table
                Processor: users-table (stores: [users-store])
                  --> mask
                  <-- src
                Processor: mask (stores: [])
                  --> none
                  <-- users-table

        After:
            Topologies:
               Sub-topology: 0
                Source: src (topics: [users])
                  --> users-table
                Processor: users-table (stores: [])
                  --> mask
                  <-- src
                Processor: mask (stores: [users-store])
                  --> none
                  <-- users-table

    Fix: check that the new owner writes the same key and value format; if not, give the store a
    new name and rebuild it (or reset the application).
    """
    app = subject.application_id
    node_map = subject.diff.node_map
    for pair in subject.diff.stores.pairs:
        b, a = pair.before, pair.after
        if b.is_global or a.is_global or Change.OWNERS not in pair.changes:
            continue
        if Change.RENAMED in pair.changes:
            continue
        t_b, t_a = b.topology or "", a.topology or ""
        owners_a = {(t_a, x) for x in a.owners}
        lost = sorted(o for o in b.owners if node_map.get((t_b, o)) not in owners_a)
        if not lost:
            continue
        owners_b = {node_map.get((t_b, o)) for o in b.owners}
        gained = sorted(x for x in a.owners if (t_a, x) not in owners_b)
        yield Hit(
            message=(
                f"State store {a.name} was written by {', '.join(lost)} and is now written by "
                f"{', '.join(gained) or 'other operators'}; its changelog "
                f"{changelog(app, a.name, a.topology).name} holds the old operator's data."
            ),
            resources=(store(a.name), *(node(n) for n in lost + gained)),
            locations=(before(subject, b.line), after(subject, a.line)),
            remediation="Check the new owner writes the same format; otherwise rename and rebuild.",
            key=f"{a.topology or ''}|{a.name}",
        )
