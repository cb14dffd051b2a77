"""KC101 throttle-below-produce-rate."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.knowledge import THROTTLE_RATE_KEYS
from cluster_engine.plan import AlterConfig, Reassign
from cluster_engine.reassignment import estimate, human_bytes
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, broker, names
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC101",
    name="throttle-below-produce-rate",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def throttle_below_produce_rate(t: Transition) -> Iterator[Hit]:
    """A replication throttle below what the moving partitions take in: the move never ends.

    Why: a new replica must copy the partition's log and then keep up with what producers
    append to it; only once it has caught up does it join the ISR and the reassignment
    complete. A destination broker fetching at ``follower.replication.throttled.rate`` (or a
    leader serving at ``leader.replication.throttled.rate``) below the bytes/s written to the
    partitions it moves falls further behind every second, so ``--verify`` never reports
    completion and the throttle stays on. Kafka's tools do not print produce rates: give them
    as ``produce-rates`` on the reassign step (topic -> bytes/s, e.g. from the brokers'
    ``BytesInPerSec`` metric per topic) or as ``produce_rate`` of a topic in a snapshot; they
    are spread evenly over each topic's partitions.

    Example:

        - add-broker: {id: 4}
        - reassign: {file: move.json, throttle: 1000000, produce-rates: {orders: 60000000}}

    Fix: throttle above the bytes/s the moving partitions take in, plus the rate the copy
    needs (for example twice the produce rate), or move fewer partitions per broker at a time.
    """
    step = t.step
    if t.refused or not t.after.moves:
        return
    if not (
        isinstance(step, Reassign)
        or (isinstance(step, AlterConfig) and step.key in THROTTLE_RATE_KEYS)
    ):
        return
    stalled = estimate(t.after, t.after.moves.values()).stalled
    if not stalled:
        return
    was = {(b, k) for b, k, _, _ in estimate(t.before, t.before.moves.values()).stalled}
    if isinstance(step, AlterConfig) and all((b, k) in was for b, k, _, _ in stalled):
        return  # already stalled before this step, and reported there
    parts = [
        f"broker {b} {key.split('.')[0]} throttle {human_bytes(rate)}/s not above "
        f"{human_bytes(round(writes))}/s written"
        for b, key, writes, rate in stalled
    ]
    yield at_step(
        t,
        f"The throttle is below the produce rate of the partitions it moves ({names(parts)}): "
        "the new replicas fall further behind every second, never join the ISR, and the "
        "reassignment never completes.",
        resources=[broker(b) for b in sorted({b for b, _, _, _ in stalled})],
        remediation="Raise the throttle above the moving partitions' produce rate with room "
        "for the copy (resubmit with --additional --throttle), or move fewer partitions at once.",
        data={
            "stalled": [
                {"broker": b, "key": key, "writes": writes, "rate": rate}
                for b, key, writes, rate in stalled
            ]
        },
    )
