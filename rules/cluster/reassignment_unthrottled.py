"""KC007 reassignment-unthrottled."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.facts import ReassignFacts
from cluster_engine.knowledge import THROTTLE_RATE_KEYS
from cluster_engine.plan import Reassign
from cluster_engine.reassignment import human_bytes
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, names
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KC007",
    name="reassignment-unthrottled",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def reassignment_unthrottled(t: Transition) -> Iterator[Hit]:
    """A reassignment copies data without a replication throttle.

    Why: unthrottled, new followers fetch as fast as the leader can serve, competing with
    consumers and normal replication and able to saturate the leader's network; produce and fetch
    latency rise on every broker of the move.

    Example:

        - reassign: {file: move.json}

    Fix: pass ``throttle:`` (``--throttle`` bytes/s, at least 1 MB/s) and run
    ``verify-reassignment`` after it completes to remove the throttle.
    """
    step = t.step
    if not isinstance(step, Reassign) or t.refused or step.throttle is not None:
        return
    if not isinstance(t.facts, ReassignFacts):
        return
    # a move that only drops replicas, or whose known size is 0, copies nothing to throttle
    moves = [m for m in t.facts.moves if m.adding and (m.bytes_left or not m.size_known)]
    if not moves:
        return
    brokers = sorted({b for m in moves for b in (*m.original, *m.adding)})
    throttled = [b for b in brokers if t.after.rate_on(b, THROTTLE_RATE_KEYS[1]) is not None]
    if len(throttled) == len(brokers):
        return  # rates already in force (set by hand or by an earlier --throttle)
    size = sum(m.bytes_left for m in moves)
    topics = {m.key[0] for m in moves}
    yield at_step(
        t,
        f"Reassigning {len(moves)} partition(s) of {names(topics)} copies "
        f"{human_bytes(size)} with no replication throttle on brokers "
        f"{', '.join(str(b) for b in brokers if b not in throttled)}.",
        resources=[Resource(kind="topic", name=n) for n in sorted(topics)],
        remediation="Add throttle: <bytes/s> to the reassign step (the tool's --throttle) and "
        "verify-reassignment afterwards so the throttle is removed.",
        data={"partitions": len(moves), "bytes": size},
    )
