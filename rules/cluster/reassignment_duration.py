"""KC029 reassignment-duration."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.plan import Reassign
from cluster_engine.reassignment import estimate, human_bytes, human_duration
from cluster_engine.simulate import Transition
from rules.cluster._common import at_step, names, topic
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC029",
    name="reassignment-duration",
    severity=Severity.INFO,
    impact=Impact.AVAILABILITY,
    subject="cluster-step",
)
def reassignment_duration(t: Transition) -> Iterator[Hit]:
    """How long a reassignment takes, from partition sizes and the throttle in force.

    Why: each destination broker fetches its new replicas at ``follower.replication.throttled.
    rate`` and each leader serves them at ``leader.replication.throttled.rate``; the busiest
    broker sets the pace. Sizes come from ``kafka-log-dirs.sh --describe``.

    Example:

        - reassign: {file: move.json, throttle: 50000000}

    Fix: nothing to fix; plan the maintenance window (and the throttle) from the estimate.
    """
    step = t.step
    if not isinstance(step, Reassign) or t.refused:
        return
    moves = t.notes.get("moves", ())
    if not moves:
        return
    est = estimate(t.after, moves)
    unknown = f" ({est.unknown_sizes} partition size(s) unknown)" if est.unknown_sizes else ""
    where = f", slowest broker {est.bottleneck}" if est.bottleneck is not None else ""
    yield at_step(
        t,
        f"Reassigning {len(moves)} partition(s) of {names({m.key[0] for m in moves})} copies "
        f"{human_bytes(est.bytes)}{unknown}: about {human_duration(est.seconds)}{where}.",
        resources=[topic(n) for n in sorted({m.key[0] for m in moves})],
        remediation="Plan the window from this estimate; to go faster, resubmit the same JSON "
        "with --additional and a higher --throttle.",
        data={
            "partitions": len(moves),
            "bytes": est.bytes,
            "seconds": est.seconds,
            "bottleneck": est.bottleneck,
        },
    )
