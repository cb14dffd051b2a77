"""KC029 reassignment-duration."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.facts import ReassignFacts
from cluster_engine.plan import Reassign
from cluster_engine.reassignment import estimate, human_bytes, human_duration
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, names, topic
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC029",
    name="reassignment-duration",
    severity=Severity.INFO,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def reassignment_duration(t: Transition) -> Iterator[Hit]:
    """How long a reassignment takes, from partition sizes and the throttle in force.

    Why: each destination broker fetches its new replicas at ``follower.replication.throttled.
    rate`` and each leader serves them at ``leader.replication.throttled.rate``; the busiest
    broker sets the pace. Sizes come from ``kafka-log-dirs.sh --describe``. A new replica also
    copies what producers write while it catches up: with produce rates (``produce-rates`` on
    the step, or ``produce_rate`` of a topic in the snapshot) the estimate counts them, spread
    evenly over the partitions; without, it says it assumes no writes.

    Example:

        - reassign: {file: move.json, throttle: 50000000}

    Fix: nothing to fix; plan the maintenance window (and the throttle) from the estimate.
    """
    step = t.step
    if not isinstance(step, Reassign) or t.refused or not isinstance(t.facts, ReassignFacts):
        return
    moves = t.facts.moves
    if not moves:
        return
    est = estimate(t.after, moves)
    unknown = f" ({est.unknown_sizes} partition size(s) unknown)" if est.unknown_sizes else ""
    where = f", slowest broker {est.bottleneck}" if est.bottleneck is not None else ""
    topics = sorted({m.key[0] for m in moves})
    unrated = [n for n in topics if n not in t.after.produce_rates]
    if est.seconds is None:
        assumption = ""
    elif not unrated:
        pids = t.after.table.pids_of_topic
        rates = t.after.produce_rates
        written = sum(rates[m.key[0]] / max(len(pids.get(m.key[0], ())), 1) for m in moves)
        assumption = (
            f", counting the {human_bytes(round(written))}/s written to the moving partitions "
            "meanwhile (spread evenly over each topic's partitions)"
        )
    else:
        assumption = (
            f", assuming no writes to {names(unrated)} meanwhile (give their produce-rates to "
            "count them: a new replica must also copy what is written while it catches up)"
        )
    duration = (
        "never: the throttle is below what the moving partitions take in"
        if est.stalled
        else f"about {human_duration(est.seconds)}"
    )
    yield at_step(
        t,
        f"Reassigning {len(moves)} partition(s) of {names(topics)} copies "
        f"{human_bytes(est.bytes)}{unknown}: {duration}{where}{assumption}.",
        resources=[topic(n) for n in topics],
        remediation="Plan the window from this estimate; to go faster, resubmit the same JSON "
        "with --additional and a higher --throttle.",
        data={
            "partitions": len(moves),
            "bytes": est.bytes,
            "seconds": est.seconds,
            "bottleneck": est.bottleneck,
            "assumes_no_writes": unrated,
        },
    )
