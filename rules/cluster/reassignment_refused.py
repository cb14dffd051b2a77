"""KC042 reassignment-refused."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import RefusalKind
from cluster_engine.facts import ReassignFacts
from cluster_engine.plan import Reassign
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, broker, names, topic
from rules.framework import Hit, Impact, Resource, Severity, rule

KINDS = (
    RefusalKind.EXISTING_REASSIGNMENT,
    RefusalKind.UNKNOWN_BROKER,
    RefusalKind.UNKNOWN_PARTITION,
)


@rule(
    id="KC042",
    name="reassignment-refused",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def reassignment_refused(t: Transition) -> Iterator[Hit]:
    """kafka-reassign-partitions.sh --execute refuses the reassignment: nothing moves.

    Why: before submitting, the tool refuses a new reassignment while one is in flight unless
    ``--additional`` is given ("Cannot execute because there is an existing partition
    assignment. ..."), a target broker that is not registered ("Unknown broker id 7"), and a
    partition or topic that does not exist ("Unable to find partition: orders-9")
    (4.1:tools/.../ReassignPartitionsCommand.java:124-127,772-774,910-917, and
    getReplicaAssignmentForPartitions). Every later step that counts on the move is wrong.

    Example:

        - reassign:
            partitions: [{topic: orders, partition: 0, replicas: [1, 2, 7]}]   # no broker 7

    Fix: add the broker (and wait for it to register) before moving replicas to it; fix the
    topic or partition names; wait for the reassignment in flight to finish (verify-reassignment)
    or pass ``additional: true`` on purpose.
    """
    step = t.step
    if not isinstance(step, Reassign) or not isinstance(t.facts, ReassignFacts):
        return
    for r in t.refusals:
        if r.kind not in KINDS:
            continue
        resources: list[Resource] = []
        if r.kind is RefusalKind.UNKNOWN_BROKER:
            resources = [broker(b) for b in t.facts.unknown_brokers]
            what = "a target broker is not registered"
        elif r.kind is RefusalKind.UNKNOWN_PARTITION:
            missing = t.facts.missing
            resources = [topic(n) for n in sorted({p.rsplit("-", 1)[0] for p in missing})]
            what = f"partition(s) {names(missing)} not in the cluster"
        else:
            resources = [topic(n) for n in sorted({m.topic for m in step.partitions})]
            what = "another reassignment is in flight and --additional is not given"
        yield at_step(
            t,
            f"The reassignment is refused ({what}): {r.message}",
            resources=resources,
            remediation="Fix the reassignment JSON, or wait for the reassignment in flight "
            "(verify-reassignment) before submitting the next one.",
            key=r.kind.value,
            data={"refusal": r.kind.value},
        )
