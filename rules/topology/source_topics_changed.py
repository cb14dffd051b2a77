"""KS207 source-topics-changed."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.topology.context import DiffSubject, after, before, subtopology, topic


@rule(
    id="KS207",
    name="source-topics-changed",
    severity=Severity.WARNING,
    impact=Impact.DATA_LOSS,
    subject="topology-diff",
)
def source_topics_changed(subject: DiffSubject) -> Iterator[Hit]:
    """The input topics of a stateful sub-topology changed.

    Why: a stateful sub-topology's state was built from its inputs. A new input topic has no
    committed offsets (it starts at ``auto.offset.reset``, so its history is either skipped or
    replayed into existing state) and must be co-partitioned with the others; a removed one leaves
    its contribution in the state for ever. The streams rebalance protocol needs a new group when
    source topics are added.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: payments (topics: [payments-eu])
                  --> total
                Processor: total (stores: [totals])
                  --> none
                  <-- payments

        After:
            Topologies:
               Sub-topology: 0
                Source: payments (topics: [payments-eu, payments-us])
                  --> total
                Processor: total (stores: [totals])
                  --> none
                  <-- payments

    Fix: check co-partitioning and decide where the new topic starts (``auto.offset.reset``, or
    reprocess with a reset). Deploy with stop-and-restart.
    """
    diff = subject.diff
    consumed_b = {t for s in diff.subtopologies.pairs for t in s.before.external_sources} | {
        t for s in diff.subtopologies.removed for t in s.external_sources
    }
    consumed_a = {t for s in diff.subtopologies.pairs for t in s.after.external_sources} | {
        t for s in diff.subtopologies.added for t in s.external_sources
    }
    for pair in diff.subtopologies.pairs:
        b, a = pair.before, pair.after
        if b.is_global or not (b.stateful or a.stateful):
            continue
        sources_b, sources_a = b.external_sources, a.external_sources
        gone = sorted(sources_b - sources_a - consumed_a)
        new = sorted(sources_a - sources_b - consumed_b)
        if not gone and not new:
            continue
        parts = []
        if new:
            parts.append(f"now also reads {', '.join(new)}")
        if gone:
            parts.append(f"no longer reads {', '.join(gone)}")
        yield Hit(
            message=f"Stateful sub-topology {a.id} {' and '.join(parts)}.",
            resources=(subtopology(a.id, a.topology), *(topic(t) for t in gone + new)),
            locations=(before(subject, b.line), after(subject, a.line)),
            remediation="Check co-partitioning and where new inputs start; stop and restart.",
            key=f"{a.topology or ''}|{'+'.join(new)}|{'-'.join(gone)}",
            requires=DeployStrategy.STOP_AND_RESTART,
            steps=tuple(
                f"Decide where {t} starts (auto.offset.reset) and check it has as many "
                "partitions as the other inputs of the sub-topology." for t in new
            ),
        )
