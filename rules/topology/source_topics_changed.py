"""KS207 source-topics-changed."""

from __future__ import annotations

import re
from collections.abc import Iterator

from linter.topology.diff import SubtopologyInfo
from rules.framework import DeployStrategy, Hit, Impact, Resource, Severity, rule
from rules.topology.context import TOPOLOGY_DIFF, DiffSubject, after, before, subtopology, topic


@rule(
    id="KS207",
    name="source-topics-changed",
    severity=Severity.WARNING,
    impact=Impact.DATA_LOSS,
    subject=TOPOLOGY_DIFF,
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

    A subscription pattern (``topics: orders-.*`` on a source) is not a topic: which topics it
    matches depends on the cluster, so a changed pattern is reported as such, never as topics
    added or removed.

    Fix: check co-partitioning and decide where the new topic starts (``auto.offset.reset``, or
    reprocess with a reset); for a changed pattern, list the topics each pattern matches in the
    cluster first. Deploy with stop-and-restart.
    """
    diff = subject.diff
    # what either version reads anywhere: asked only when a pair's sources differ (rarely)
    consumed: tuple[set[str], set[str]] | None = None
    for pair in diff.subtopologies.pairs:
        b, a = pair.before, pair.after
        if b.is_global or not (b.stateful or a.stateful):
            continue
        sources_b, sources_a = b.external_sources, a.external_sources
        if b.patterns != a.patterns:
            yield _pattern_hit(subject, b, a)
        if sources_b == sources_a:  # then nothing is gone nor new
            continue
        if consumed is None:
            consumed = _consumed(subject)
        consumed_b, consumed_a = consumed
        # A topic a pattern of the other side matches may still be (or already was) read.
        gone = sorted(t for t in sources_b - sources_a - consumed_a if not _matched(t, a.patterns))
        new = sorted(t for t in sources_a - sources_b - consumed_b if not _matched(t, b.patterns))
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


def _consumed(subject: DiffSubject) -> tuple[set[str], set[str]]:
    """The external topics the before version reads, and those the after version reads."""
    subs = subject.diff.subtopologies
    consumed_b = {t for s in subs.pairs for t in s.before.external_sources} | {
        t for s in subs.removed for t in s.external_sources
    }
    consumed_a = {t for s in subs.pairs for t in s.after.external_sources} | {
        t for s in subs.added for t in s.external_sources
    }
    return consumed_b, consumed_a


def _matched(topic_name: str, patterns: frozenset[str]) -> bool:
    """True when one of the patterns matches the whole topic name (Java's ``Matcher#matches``;
    a pattern Python cannot compile is taken to match, so nothing is reported as gone on a
    guess)."""
    for p in patterns:
        try:
            if re.fullmatch(p, topic_name):
                return True
        except re.error:
            return True
    return False


def _pattern_hit(subject: DiffSubject, b: SubtopologyInfo, a: SubtopologyInfo) -> Hit:
    was = ", ".join(sorted(b.patterns)) or "no pattern"
    now = ", ".join(sorted(a.patterns)) or "no pattern"
    return Hit(
        message=(
            f"Stateful sub-topology {a.id} subscribes to {now} (was {was}): the topics a pattern "
            "matches cannot be known from the text, so which inputs are added or dropped is "
            "unchecked."
        ),
        resources=(
            subtopology(a.id, a.topology),
            *(Resource(kind="pattern", name=p) for p in sorted(b.patterns ^ a.patterns)),
        ),
        locations=(before(subject, b.line), after(subject, a.line)),
        remediation=(
            "List the topics each pattern matches in the cluster; a topic matched only now starts "
            "at auto.offset.reset and must be co-partitioned, one no longer matched leaves its "
            "contribution in the state."
        ),
        key=f"{a.topology or ''}|pattern|{was}->{now}",
        requires=DeployStrategy.STOP_AND_RESTART,
        steps=(
            f"Before deploying, list the topics matched by {was} and by {now} (kafka-topics.sh "
            "--list) and check the ones that differ.",
        ),
    )
