"""KC002 metadata-version-downgrade-blocked."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import RefusalKind, feature_refusals, tool_message
from cluster_engine.knowledge import METADATA_VERSION, lowest_reachable, mv_name
from cluster_engine.plan import UpdateFeature
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, feature
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC002",
    name="metadata-version-downgrade-blocked",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def metadata_version_downgrade_blocked(t: Transition) -> Iterator[Hit]:
    """A metadata.version downgrade crosses a level that changed metadata: the controller refuses.

    Why: ``checkIfMetadataChanged`` walks from the current level down to the target; if any level
    above the target (the current one included) has ``didMetadataChange``, the controller answers
    "Refusing to perform the requested downgrade because it might delete metadata information."
    With ``--unsafe`` it answers "Unsafe metadata downgrade is not supported in this version.":
    unsafe downgrade was never implemented (KAFKA-13896). 4.0-IV1 (23) and 4.3-IV0 (30) are such
    levels: a 4.3 cluster can never go back to 4.1.

    Example:

        - update-feature: {feature: metadata.version, level: 4.1-IV1}   # cluster at 4.3-IV0

    Fix: there is no way back across such a level; restore from backups into a cluster formatted
    at the older version, or stay at the current level (binaries can still be older ones that
    support it).
    """
    step = t.step
    if not isinstance(step, UpdateFeature):
        return
    for r in feature_refusals(t.before, step):
        if r.feature != METADATA_VERSION or r.kind not in (
            RefusalKind.DOWNGRADE_BLOCKED,
            RefusalKind.UNSAFE_DOWNGRADE,
        ):
            continue
        current = t.before.metadata_version
        floor = lowest_reachable(current)
        unsafe = (
            " --unsafe does not help: unsafe metadata downgrade is not implemented (KAFKA-13896)."
            if step.unsafe
            else ""
        )
        yield at_step(
            t,
            f"Downgrading metadata.version from {mv_name(current)} to {mv_name(r.level)} is "
            f"refused because {mv_name(r.blocker or current)} changed metadata. Kafka prints: "
            f"{tool_message(r, True)}{unsafe} The lowest level reachable from {current} is "
            f"{mv_name(floor)}.",
            resources=[feature(METADATA_VERSION)],
            remediation=f"Do not plan this downgrade; the lowest reachable level is {floor}. "
            "Keep binaries that support the current level.",
            key=f"{METADATA_VERSION}:{current}->{r.level}",
            data={"from": current, "to": r.level, "blocker": r.blocker, "lowest_reachable": floor},
        )
