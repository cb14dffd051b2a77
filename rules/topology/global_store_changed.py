"""KS209 global-store-changed."""

from __future__ import annotations

from collections.abc import Iterator

from linter.topology.diff import Change
from rules.framework import Hit, Impact, Severity, rule
from rules.topology.context import TOPOLOGY_DIFF, DiffSubject, after, before, store, topic


@rule(
    id="KS209",
    name="global-store-changed",
    severity=Severity.WARNING,
    impact=Impact.RESTORE,
    subject=TOPOLOGY_DIFF,
)
def global_store_changed(subject: DiffSubject) -> Iterator[Hit]:
    """A global store, or the topic it is built from, changed.

    Why: every instance keeps a full copy of a global store, built from its topic (the topic is
    its changelog). A renamed store or a new topic means every instance rebuilds the store from
    the beginning of the topic at start-up, before it processes anything; a removed one leaves
    the local copy behind, and joins against it now behave differently.

    Example:

        Before:
            Topologies:
               Sub-topology: 0 for global store (will not generate tasks)
                Source: countries-source (topics: [countries])
                  --> countries-table
                Processor: countries-table (stores: [countries-store])
                  --> none
                  <-- countries-source

        After:
            Topologies:
               Sub-topology: 0 for global store (will not generate tasks)
                Source: countries-source (topics: [countries-v2])
                  --> countries-table
                Processor: countries-table (stores: [countries-store])
                  --> none
                  <-- countries-source

    Fix: expect a full rebuild on every instance at start-up (plan for the time it takes); delete
    the local global-store directory of removed stores.
    """
    diff = subject.diff
    for pair in diff.stores.pairs:
        b, a = pair.before, pair.after
        if not (b.is_global or a.is_global) or not (pair.changes - {Change.OWNERS}):
            continue
        what = "renamed to " + a.name if b.name != a.name else "changed"
        yield Hit(
            message=f"Global store {b.name} was {what}: every instance rebuilds it.",
            resources=(store(b.name), store(a.name)),
            locations=(before(subject, b.line), after(subject, a.line)),
            remediation="Plan for the rebuild at start-up.",
            key=f"store|{b.name}->{a.name}",
        )
    for s, side in [(s, "removed") for s in diff.stores.removed] + [
        (s, "added") for s in diff.stores.added
    ]:
        if not s.is_global:
            continue
        loc = before(subject, s.line) if side == "removed" else after(subject, s.line)
        yield Hit(
            message=f"Global store {s.name} was {side}.",
            resources=(store(s.name),),
            locations=(loc,),
            remediation="Plan for the rebuild at start-up." if side == "added"
            else "Delete its local directory on every instance after the deploy.",
            key=f"store|{side}|{s.name}",
        )
    for tp in diff.topics.pairs:
        if tp.before.role == "global" and Change.RENAMED in tp.changes:
            yield Hit(
                message=(
                    f"Global store topic {tp.before.name} is now {tp.after.name}: every instance "
                    "rebuilds the store from the new topic."
                ),
                resources=(topic(tp.before.name), topic(tp.after.name)),
                locations=(before(subject, tp.before.line), after(subject, tp.after.line)),
                remediation="Plan for the rebuild at start-up.",
                key=f"topic|{tp.before.name}->{tp.after.name}",
            )
    for t, side in [(t, "removed") for t in diff.topics.removed] + [
        (t, "added") for t in diff.topics.added
    ]:
        if t.role != "global":
            continue
        # a topic swap on a kept store shows as one removed + one added topic
        loc = before(subject, t.line) if side == "removed" else after(subject, t.line)
        yield Hit(
            message=f"Global store topic {t.name} was {side}.",
            resources=(topic(t.name),),
            locations=(loc,),
            remediation="Plan for the rebuild at start-up.",
            key=f"topic|{side}|{t.name}",
        )
