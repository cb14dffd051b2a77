"""KC009 throttle-removed-mid-reassignment."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.knowledge import THROTTLE_RATE_KEYS, THROTTLED_REPLICAS_KEYS
from cluster_engine.plan import AlterConfig
from cluster_engine.reassignment import estimate, human_bytes, human_duration
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, config
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC009",
    name="throttle-removed-mid-reassignment",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def throttle_removed_mid_reassignment(t: Transition) -> Iterator[Hit]:
    """A throttle config is removed while reassignments are still copying data.

    Why: the remaining bytes then move at full speed and compete with live traffic; the estimate
    in the finding compares the time left with and without the throttle.

    Example:

        - reassign: {file: move.json, throttle: 50000000}
        - alter-config: {scope: broker, entity: 1, key: follower.replication.throttled.rate,
                         delete: true}

    Fix: keep the throttle until ``verify-reassignment`` reports completion; to speed up, resubmit
    the same JSON with ``--additional --throttle <higher>``.
    """
    step = t.step
    if not isinstance(step, AlterConfig) or not t.before.moves or t.refused:
        return
    if step.key not in (*THROTTLE_RATE_KEYS, *THROTTLED_REPLICAS_KEYS) or not step.delete:
        return
    before = estimate(t.before, t.before.moves.values())
    after = estimate(t.after, t.after.moves.values())
    yield at_step(
        t,
        f"Deleting {step.key} on {step.scope} {step.entity or ''} while "
        f"{len(t.before.moves)} reassignment(s) still move {human_bytes(before.bytes)}: "
        f"estimated time left {human_duration(before.seconds)} throttled, "
        f"{human_duration(after.seconds)} after this step.".replace("  ", " "),
        resources=[config(step.key)],
        remediation="Keep the throttle until the reassignment completes (verify-reassignment), "
        "or raise it by resubmitting with --additional --throttle.",
        data={
            "bytes": before.bytes,
            "seconds_before": before.seconds,
            "seconds_after": after.seconds,
        },
    )
