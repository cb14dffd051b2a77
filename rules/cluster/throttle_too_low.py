"""KC006 throttle-too-low."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.knowledge import THROTTLE_MIN_RECOMMENDED, THROTTLE_RATE_KEYS
from cluster_engine.plan import AlterConfig, Reassign
from cluster_engine.reassignment import estimate, human_bytes, human_duration
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, config
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC006",
    name="throttle-too-low",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def throttle_too_low(t: Transition) -> Iterator[Hit]:
    """A replication throttle below 1 MB/s: sampling is too coarse and the move may never finish.

    Why: the throttle rate configs advise "It is suggested that the limit be kept above 1MB/s for
    accurate behaviour" (4.1:server-common/.../QuotaConfig.java:78). The quota is measured over
    11 one-second windows; below the partition's own produce rate the new replica never catches
    up, so the reassignment never reaches its last stage (and 0 B/s stops replication).

    Example:

        - reassign: {file: move.json, throttle: 500000}

    Fix: throttle at the spare bandwidth of the busiest source broker, at least 1 MB/s (for
    example 50000000 for 50 MB/s), and watch ``ReassigningPartitions``.
    """
    step = t.step
    rate: int | None = None
    what = ""
    if isinstance(step, Reassign) and step.throttle is not None and not t.refused:
        rate, what = step.throttle, "--throttle"
    elif (
        isinstance(step, AlterConfig)
        and step.key in THROTTLE_RATE_KEYS
        and step.value is not None
        and step.value.strip().isdigit()
    ):
        rate, what = int(step.value), step.key
    if rate is None or rate >= THROTTLE_MIN_RECOMMENDED:
        return
    est = estimate(t.after, t.after.moves.values())
    eta = (
        f"; moving {human_bytes(est.bytes)} at this rate takes {human_duration(est.seconds)}"
        if est.bytes
        else ""
    )
    yield at_step(
        t,
        f"{what} {rate} B/s is below the 1 MB/s Kafka recommends{eta}, and a move never "
        "finishes while producers write to the partition faster than that.",
        resources=[config(what.lstrip("-"))],
        remediation="Raise the throttle to at least 1000000 B/s (1 MB/s), ideally the source "
        "brokers' spare bandwidth; resubmit with --additional --throttle to change it mid-flight.",
        data={"rate": rate, "bytes": est.bytes, "seconds": est.seconds},
    )
