"""KS214 key-change-unverified."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import Hit, Impact, Resource, Severity, rule
from rules.topology.context import TOPOLOGY_DIFF, DiffSubject, after, changelog, node, store, topic


@rule(
    id="KS214",
    name="key-change-unverified",
    severity=Severity.WARNING,
    impact=Impact.STATE_LOSS,
    subject=TOPOLOGY_DIFF,
)
def key_change_unverified(subject: DiffSubject) -> Iterator[Hit]:
    """The text cannot tell whether the key of the records reaching a store or an output changed.

    Why: describe() names operators, it does not show what they do. A repartition topic in front
    of a store says that some operator before it set the key, and a generated name
    (``KSTREAM-MAP-``, ``KSTREAM-KEY-SELECT-``) says which. An operator named with ``Named.as``
    says nothing, and when the path to the store changed on one side (an operator added between
    the source and the repartition topic, or ``topology.optimization`` merging repartition topics
    so that one topic now feeds several operators), the key may come from another operator than
    before. If it does, state stored under the old keys is unreachable (key-change-before-stateful),
    or an output's consumers see new keys (sink-topic-changed); if not, nothing changed. ksafe
    does not guess: not checked is whether the operators named in the message change the key.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [orders])
                  --> enrich
                Processor: enrich (stores: [])
                  --> by-customer-repartition-filter
                  <-- in
                Processor: by-customer-repartition-filter (stores: [])
                  --> by-customer-repartition-sink
                  <-- enrich
                Sink: by-customer-repartition-sink (topic: by-customer-repartition)
                  <-- by-customer-repartition-filter

              Sub-topology: 1
                Source: by-customer-repartition-source (topics: [by-customer-repartition])
                  --> count
                Processor: count (stores: [order-counts])
                  --> none
                  <-- by-customer-repartition-source

        After:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [orders])
                  --> enrich
                Processor: enrich (stores: [])
                  --> clean
                  <-- in
                Processor: clean (stores: [])
                  --> by-customer-repartition-filter
                  <-- enrich
                Processor: by-customer-repartition-filter (stores: [])
                  --> by-customer-repartition-sink
                  <-- clean
                Sink: by-customer-repartition-sink (topic: by-customer-repartition)
                  <-- by-customer-repartition-filter

              Sub-topology: 1
                Source: by-customer-repartition-source (topics: [by-customer-repartition])
                  --> count
                Processor: count (stores: [order-counts])
                  --> none
                  <-- by-customer-repartition-source

    Fix: read the code of the operators the message names: if the key is computed as before,
    acknowledge the finding; if it is not, treat it as key-change-before-stateful (rebuild the
    state under a new ``application.id``) or announce the new keys to the output's consumers.
    """
    app = subject.application_id
    for kc in subject.diff.key_changes:
        if kc.certain or not (kc.stores or kc.sink_topic):
            continue
        was = ", ".join(sorted(kc.before)) or "nothing"
        now = ", ".join(sorted(kc.after)) or "nothing"
        unknown = ", ".join(sorted(kc.unknown))
        several = len(kc.unknown) > 1
        names, says, sets = (
            ("the names", "do", "they set") if several else ("the name", "does", "it sets")
        )
        resources: tuple[Resource, ...]
        if kc.sink_topic is not None:
            reaching = f"records written to {kc.sink_topic}"
            resources = (topic(kc.sink_topic), node(kc.node))
        else:
            stores = sorted(kc.stores)
            reaching = f"records reaching {kc.node} (store{'s' if len(stores) > 1 else ''} " + (
                f"{', '.join(stores)})"
            )
            resources = (
                node(kc.node),
                *(store(s) for s in stores),
                *(changelog(app, s, kc.topology) for s in stores),
            )
        yield Hit(
            message=(
                f"Cannot tell whether the key of {reaching} changed: it came from {was} and now "
                f"comes from {now}, and {names} {unknown} {says} not say whether {sets} it (a "
                "name chosen with Named.as, or a Processor API processor). Not checked: what those "
                "operators do with the key."
            ),
            resources=resources,
            locations=(after(subject, kc.line),),
            remediation=(
                f"Check in the code that the key is computed as before ({unknown}); if it is "
                "not, the state under the old keys is lost (rebuild it under a new "
                "application.id) or the output's consumers see new keys."
            ),
            key=f"{kc.topology or ''}|{kc.node}",
        )
