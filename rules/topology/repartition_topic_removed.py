"""KS205 repartition-topic-removed."""

from __future__ import annotations

from collections.abc import Iterator

from linter.topology import naming
from linter.topology.diff import Change
from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.runbook import RUNNING_PREFIX
from rules.topology.context import (
    TOPOLOGY_DIFF,
    DiffSubject,
    after,
    before,
    drain_step,
    repartition,
    topic,
)


@rule(
    id="KS205",
    name="repartition-topic-removed",
    severity=Severity.ERROR,
    impact=Impact.DATA_LOSS,
    subject=TOPOLOGY_DIFF,
)
def repartition_topic_removed(subject: DiffSubject) -> Iterator[Hit]:
    """A repartition topic is gone or renamed: records still in it are never processed.

    Why: a repartition topic carries records between two sub-topologies. The new version no
    longer reads the old topic, so whatever the old version wrote but did not consume yet is lost
    at the deploy (and the topic lingers). Causes: a generated name shifted (``KSTREAM-AGGREGATE-
    STATE-STORE-0000000002-repartition`` -> ``...0000000003-repartition``), a ``Grouped``/
    ``Repartitioned`` name changed, ``merge.repartition.topics`` was turned on, or the key change
    that needed it was removed.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [input])
                  --> by-user-repartition-sink
                Sink: by-user-repartition-sink (topic: by-user-repartition)
                  <-- in

              Sub-topology: 1
                Source: by-user-repartition-source (topics: [by-user-repartition])
                  --> none

        After:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [input])
                  --> by-account-repartition-sink
                Sink: by-account-repartition-sink (topic: by-account-repartition)
                  <-- in

              Sub-topology: 1
                Source: by-account-repartition-source (topics: [by-account-repartition])
                  --> none

    Fix: keep the topic name if you can. Otherwise drain it first: stop the flow into the input
    topics, let the old version consume the repartition topic to lag 0, stop it, deploy the new
    version, and delete the old topic.
    """
    app = subject.application_id
    renamed = [
        (p.before, p.after) for p in subject.diff.topics.pairs
        if p.before.role == "repartition" and Change.RENAMED in p.changes
    ]
    removed = [(t, None) for t in subject.diff.topics.removed if t.role == "repartition"]
    for b, a in renamed + removed:
        full = naming.internal_topic(app, b.name, b.topology)
        what = (
            f"renamed to {naming.internal_topic(app, a.name, a.topology)}"
            if a is not None
            else "no longer used"
        )
        resources = [repartition(app, b.name, b.topology), topic(b.name)]
        locations = [before(subject, b.line)]
        if a is not None:
            resources.append(repartition(app, a.name, a.topology))
            locations.append(after(subject, a.line))
        yield Hit(
            message=(
                f"Repartition topic {full} is {what}: records the old version wrote but did "
                "not consume yet are lost unless the topic is drained before the deploy."
            ),
            resources=tuple(resources),
            locations=tuple(locations),
            remediation="Drain the topic before deploying (or keep its name).",
            key=f"{b.topology or ''}|{b.name}",
            requires=DeployStrategy.STOP_AND_RESTART,
            steps=(
                drain_step(subject, [b.name], b.topology),
                f"{RUNNING_PREFIX}delete the unused topic {full}: kafka-topics.sh "
                f"--bootstrap-server <host:port> --delete --topic {full}",
            ),
        )
