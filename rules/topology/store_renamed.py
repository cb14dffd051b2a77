# ruff: noqa: E501  (the docstring example is real describe() output)
"""KS201 store-renamed."""

from __future__ import annotations

from collections.abc import Iterator

from linter.topology import naming
from linter.topology.diff import Change
from linter.topology.store_naming import keep_store_name, store_kind
from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.topology.context import TOPOLOGY_DIFF, DiffSubject, after, before, changelog, store


@rule(
    id="KS201",
    name="store-renamed",
    severity=Severity.ERROR,
    impact=Impact.STATE_LOSS,
    subject=TOPOLOGY_DIFF,
)
def store_renamed(subject: DiffSubject) -> Iterator[Hit]:
    """A state store's name changed, so its changelog topic changed and its state is lost.

    Why: a store is restored from ``<application.id>-<store>-changelog``. Under a new name the new
    version looks for a changelog that does not exist, starts empty, and the old changelog is
    abandoned. The most common cause is a generated index shift: inserting an operator before an
    unnamed aggregation turns ``...STATE-STORE-0000000001`` into ``...STATE-STORE-0000000002``.
    The store is recognised as the same one because the same (matched) operator owns it.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: KSTREAM-SOURCE-0000000000 (topics: [clicks])
                  --> KSTREAM-AGGREGATE-0000000002
                Processor: KSTREAM-AGGREGATE-0000000002 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000001])
                  --> none
                  <-- KSTREAM-SOURCE-0000000000

        After:
            Topologies:
               Sub-topology: 0
                Source: KSTREAM-SOURCE-0000000000 (topics: [clicks])
                  --> KSTREAM-FILTER-0000000001
                Processor: KSTREAM-FILTER-0000000001 (stores: [])
                  --> KSTREAM-AGGREGATE-0000000003
                  <-- KSTREAM-SOURCE-0000000000
                Processor: KSTREAM-AGGREGATE-0000000003 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000002])
                  --> none
                  <-- KSTREAM-FILTER-0000000001

    Fix: keep the old name, with the call that names a store of its kind: ``Materialized.as`` for
    aggregations, ``toTable``, KTable operations and table sources (a generated name can be pinned
    as is: ``Materialized.as("KSTREAM-AGGREGATE-STATE-STORE-0000000001")``);
    ``StreamJoined.withStoreName("x")`` for stream-stream join stores (``x-this-join-store``,
    ``x-other-join-store``, ``x-outer-shared-join-store``); ``Suppressed.withName("x")`` for a
    suppression buffer (``x-store``); ``TableJoined.as("x")`` for a foreign-key join subscription
    store (``x-subscription-store``). A generated join, suppression or subscription store name
    cannot be pinned (each call adds its suffix): keep the operators before it unchanged. Then name
    every stateful operator. Otherwise deploy with a full reprocess: application reset + local
    state cleanup, or blue-green under a new ``application.id``; delete the abandoned changelog
    after.
    """
    app = subject.application_id
    for pair in subject.diff.stores.pairs:
        b, a = pair.before, pair.after
        if Change.RENAMED not in pair.changes or b.is_global or a.is_global:
            continue
        gb, ga = naming.generated(b.name), naming.generated(a.name)
        shift = gb is not None and ga is not None and gb.role_key == ga.role_key
        why = (
            f"its generated index shifted {gb.index:010d} -> {ga.index:010d} because an operator "
            "was added or removed before it"
            if shift and gb is not None and ga is not None
            else "it was renamed"
        )
        old, new = changelog(app, b.name, b.topology), changelog(app, a.name, a.topology)
        owner = min(b.owners, default=None)
        keep = keep_store_name(b.name, owner)
        window = (
            " It is a join window store: records arriving after the deploy miss their join "
            "partners from the last window size + grace before it."
            if store_kind(b.name, owner).kind == "stream-join"
            else ""
        )
        yield Hit(
            message=(
                f"State store {b.name} is now {a.name} ({why}): the new version restores from "
                f"{new.name}, which is empty, and abandons {old.name}.{window}"
            ),
            resources=(store(b.name), store(a.name), old, new),
            locations=(before(subject, b.line), after(subject, a.line)),
            remediation=(
                f"{keep}; or accept the loss and rebuild the state with a full reprocess."
            ),
            key=f"{b.topology or ''}|{b.name}->{a.name}",
            requires=DeployStrategy.RESET,
            steps=(
                f"Rebuild store {a.name}: reset the application (kafka-streams-application-reset "
                f"--application-id {app or '<application.id>'} --input-topics <inputs>) and delete "
                "local state (KafkaStreams#cleanUp), or run the new version blue-green under a new "
                "application.id.",
                f"After the new version is live, delete the abandoned changelog {old.name}.",
            ),
        )
