"""KS208 sink-topic-changed."""

from __future__ import annotations

from collections.abc import Iterator

from linter.topology.diff import Change
from rules.framework import Hit, Impact, Location, Severity, rule
from rules.topology.context import TOPOLOGY_DIFF, DiffSubject, after, before, node, topic


@rule(
    id="KS208",
    name="sink-topic-changed",
    severity=Severity.WARNING,
    impact=Impact.DOWNSTREAM,
    subject=TOPOLOGY_DIFF,
)
def sink_topic_changed(subject: DiffSubject) -> Iterator[Hit]:
    """An output topic was removed or renamed, or the key of its records now changes.

    Why: downstream consumers (other applications, connectors, other Streams apps that may be
    stateful) read these topics. A removed or renamed output silently stops their data; a new
    record key changes partitioning and the meaning of every keyed downstream state.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [orders])
                  --> out
                Sink: out (topic: orders-enriched)
                  <-- in

        After:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [orders])
                  --> out
                Sink: out (topic: orders-enriched-v2)
                  <-- in

    Fix: coordinate with the consumers: keep writing the old topic during a transition (two
    sinks), or move consumers over after the deploy; announce key changes.
    """
    diff = subject.diff
    for pair in diff.topics.pairs:
        b, a = pair.before, pair.after
        if b.role != "sink" or Change.RENAMED not in pair.changes:
            continue
        yield Hit(
            message=f"Output topic {b.name} is now {a.name}: its consumers stop receiving data.",
            resources=(topic(b.name), topic(a.name)),
            locations=(before(subject, b.line), after(subject, a.line)),
            remediation="Move the consumers of the old topic, or keep writing it for a while.",
            key=f"{b.topology or ''}|{b.name}->{a.name}",
            steps=(f"Tell the consumers of {b.name} to read {a.name} from the deploy on.",),
        )
    for t in diff.topics.removed:
        if t.role != "sink":
            continue
        yield Hit(
            message=f"Output topic {t.name} is no longer written.",
            resources=(topic(t.name),),
            locations=(before(subject, t.line),),
            remediation="Make sure no consumer still depends on it.",
            key=f"{t.topology or ''}|{t.name}",
        )
    for kc in diff.key_changes:
        if kc.sink_topic is None or not kc.certain:  # uncertain ones: key-change-unverified
            continue
        was = ", ".join(sorted(kc.before)) or "nothing"
        now = ", ".join(sorted(kc.after)) or "nothing"
        yield Hit(
            message=(
                f"Records written to {kc.sink_topic} were keyed by {was} and are now keyed by "
                f"{now}: partitioning and keyed state downstream change."
            ),
            resources=(topic(kc.sink_topic), node(kc.node)),
            locations=(Location(path=diff.after.path, line=kc.line, side="after"),),
            remediation="Announce the key change to the consumers of the topic.",
            key=f"{kc.topology or ''}|{kc.sink_topic}|key",
        )
