# ruff: noqa: E501  (the docstring example is describe() output)
"""KS213 store-replaced."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.topology.context import (
    TOPOLOGY_DIFF,
    DiffSubject,
    after,
    before,
    changelog,
    store,
    task_dirs,
)


@rule(
    id="KS213",
    name="store-replaced",
    severity=Severity.ERROR,
    impact=Impact.STATE_LOSS,
    subject=TOPOLOGY_DIFF,
)
def store_replaced(subject: DiffSubject) -> Iterator[Hit]:
    """Stateful operators were replaced by new ones that read the same inputs and feed the same
    outputs: the new stores start empty, so the state is lost.

    Why: a rewrite such as three aggregations and two outer joins folded into one ``cogroup``
    computes the same results from the same topics, but into new stores with new changelog
    topics. Nothing carries the old state over: the new version starts from empty stores and
    writes results that ignore everything processed before the deploy, while the old changelogs
    are orphaned.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: KSTREAM-SOURCE-0000000000 (topics: [orders])
                  --> KSTREAM-AGGREGATE-0000000002
                Source: KSTREAM-SOURCE-0000000003 (topics: [payments])
                  --> KSTREAM-AGGREGATE-0000000005
                Processor: KSTREAM-AGGREGATE-0000000002 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000001])
                  --> KTABLE-JOINTHIS-0000000006
                  <-- KSTREAM-SOURCE-0000000000
                Processor: KSTREAM-AGGREGATE-0000000005 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000004])
                  --> KTABLE-JOINOTHER-0000000007
                  <-- KSTREAM-SOURCE-0000000003
                Processor: KTABLE-JOINTHIS-0000000006 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000004])
                  --> KTABLE-MERGE-0000000008
                  <-- KSTREAM-AGGREGATE-0000000002
                Processor: KTABLE-JOINOTHER-0000000007 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000001])
                  --> KTABLE-MERGE-0000000008
                  <-- KSTREAM-AGGREGATE-0000000005
                Processor: KTABLE-MERGE-0000000008 (stores: [])
                  --> KTABLE-TOSTREAM-0000000009
                  <-- KTABLE-JOINTHIS-0000000006, KTABLE-JOINOTHER-0000000007
                Processor: KTABLE-TOSTREAM-0000000009 (stores: [])
                  --> KSTREAM-SINK-0000000010
                  <-- KTABLE-MERGE-0000000008
                Sink: KSTREAM-SINK-0000000010 (topic: customer-summary)
                  <-- KTABLE-TOSTREAM-0000000009

        After:
            Topologies:
               Sub-topology: 0
                Source: KSTREAM-SOURCE-0000000000 (topics: [orders])
                  --> COGROUPKSTREAM-AGGREGATE-0000000003
                Source: KSTREAM-SOURCE-0000000001 (topics: [payments])
                  --> COGROUPKSTREAM-AGGREGATE-0000000004
                Processor: COGROUPKSTREAM-AGGREGATE-0000000003 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000002])
                  --> COGROUPKSTREAM-MERGE-0000000005
                  <-- KSTREAM-SOURCE-0000000000
                Processor: COGROUPKSTREAM-AGGREGATE-0000000004 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000002])
                  --> COGROUPKSTREAM-MERGE-0000000005
                  <-- KSTREAM-SOURCE-0000000001
                Processor: COGROUPKSTREAM-MERGE-0000000005 (stores: [])
                  --> KTABLE-TOSTREAM-0000000006
                  <-- COGROUPKSTREAM-AGGREGATE-0000000003, COGROUPKSTREAM-AGGREGATE-0000000004
                Processor: KTABLE-TOSTREAM-0000000006 (stores: [])
                  --> KSTREAM-SINK-0000000007
                  <-- COGROUPKSTREAM-MERGE-0000000005
                Sink: KSTREAM-SINK-0000000007 (topic: customer-summary)
                  <-- KTABLE-TOSTREAM-0000000006

    Fix: rebuild the new stores from the inputs before they serve results: reset the application
    (stop every instance, kafka-streams-application-reset, local state cleanup) or run the new
    version blue-green under a new ``application.id``; either way the replay reaches back only
    as far as the input topics' retention. Delete the old changelogs once the new version is
    live. If history cannot be replayed, keep the old operators.
    """
    app = subject.application_id
    for r in subject.diff.replaced:
        old = ", ".join(s.name for s in r.removed)
        new = ", ".join(s.name for s in r.added)
        inputs = ", ".join(sorted(r.inputs))
        outputs = f" and feed {', '.join(sorted(r.outputs))}" if r.outputs else ""
        logs = [changelog(app, s.name, s.topology) for s in r.removed]
        yield Hit(
            message=(
                f"State stores {old} were replaced by {new}: both read {inputs}{outputs}, but the "
                "new stores start empty, so the state built before the deploy is lost."
            ),
            resources=(
                *(store(s.name) for s in r.removed),
                *(store(s.name) for s in r.added),
                *logs,
            ),
            locations=(
                *(before(subject, s.line) for s in r.removed),
                *(after(subject, s.line) for s in r.added),
            ),
            remediation=(
                f"Rebuild {new} from the inputs (application reset or blue-green under a new "
                "application.id; the replay reaches back only as far as the input topics' "
                "retention), or keep the old operators."
            ),
            key=f"{r.topology or ''}|{old}->{new}",
            requires=DeployStrategy.RESET,
            steps=(
                f"Rebuild {new} by replaying {inputs}: reset the application with every instance "
                "stopped (kafka-streams-application-reset and local state cleanup), or run the "
                "new version blue-green under a new application.id.",
                *(
                    f"After the deploy, delete the orphaned changelog {log.name} and the store "
                    f"directories {task_dirs(subject, s.subtopology, s.name)}."
                    for s, log in zip(r.removed, logs, strict=True)
                ),
            ),
        )
