# ruff: noqa: E501  (the docstring example is real describe() output)
"""KS101 generated-store-name."""

from __future__ import annotations

from collections.abc import Iterator

from linter.topology import naming
from linter.topology.store_naming import store_fix
from rules.framework import Hit, Impact, Severity, location, rule
from rules.topology.context import TOPOLOGY, LintSubject, changelog, node, store


@rule(
    id="KS101",
    name="generated-store-name",
    severity=Severity.WARNING,
    impact=Impact.HYGIENE,
    subject=TOPOLOGY,
)
def generated_store_name(subject: LintSubject) -> Iterator[Hit]:
    """A state store has a generated name, so its changelog topic depends on an index.

    Why: the DSL names an unnamed store ``<PREFIX>STATE-STORE-<index>`` from a counter shared by
    every operator of the builder. Adding, removing or reordering any operator before it changes
    the index, hence the store name and its changelog topic ``<application.id>-<store>-changelog``:
    the next version starts with empty state and the old changelog is abandoned.

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
                  --> KSTREAM-AGGREGATE-0000000001
                Processor: KSTREAM-AGGREGATE-0000000001 (stores: [click-counts])
                  --> none
                  <-- KSTREAM-SOURCE-0000000000

    Fix: name the store with the operator's config class, e.g. ``count(Materialized.as("click-
    counts"))``; stream-stream joins ``StreamJoined.withStoreName``, suppression
    ``Suppressed.withName``, source tables ``Materialized.as`` on ``builder.table``. On an app that
    already runs, naming the store is itself a rename (see KS201): do it together with a reset, or
    accept the one-time loss.
    """
    for walked in subject.topologies:
        name = walked.topology.name
        for s, (owner, line) in sorted(walked.owners.items()):
            if naming.generated(s) is None:
                continue
            topic = changelog(subject.application_id, s, name)
            # by position (message, resources, locations, remediation, key): keywords cost a
            # dict per call
            yield Hit(
                f"State store {s} has a generated name; its changelog {topic.name} changes "
                "whenever an operator is added or removed before it.",
                (store(s), topic, node(owner)),
                (location(subject.description.path, line or None),),
                f"Name it: {store_fix(s, owner)} on the operator {owner}.",
                f"{name or ''}|{s}",
            )
