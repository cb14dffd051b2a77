"""KC003 metadata-version-irreversible."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.knowledge import METADATA_VERSION, lowest_reachable, mv_name
from cluster_engine.plan import UpdateFeature
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, feature
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC003",
    name="metadata-version-irreversible",
    severity=Severity.WARNING,
    impact=Impact.IRREVERSIBLE,
    subject=CLUSTER_STEP,
)
def metadata_version_irreversible(t: Transition) -> Iterator[Hit]:
    """A metadata.version bump: treat it as one-way and validate the release before it.

    Why: raising metadata.version switches on new record formats. A downgrade is only accepted
    when no level in between changed metadata, and never across 4.0-IV1 or 4.3-IV0; binaries can
    be rolled back only while the old level is still finalized.

    Example:

        - upgrade-binaries: {nodes: [1, 2, 3, 101, 102, 103], version: 4.3.0}
        - update-feature: {feature: metadata.version, level: 4.3-IV0}

    Fix: run the new binaries at the old metadata.version long enough to validate them (clients,
    monitoring, tiered storage, connectors), confirm every node is upgraded with
    ``kafka-features.sh describe``, take note that rollback means a restore, then bump.
    """
    step = t.step
    if not isinstance(step, UpdateFeature) or t.refused:
        return
    before, after = t.before.metadata_version, t.after.metadata_version
    if after <= before:
        return
    floor = lowest_reachable(after)
    if before == 0:
        way_back = (
            f"the snapshot does not say the current level; from {mv_name(after)} the lowest "
            f"reachable level is {mv_name(floor)}"
        )
    elif floor > before:
        way_back = (
            f"once at {mv_name(after)} the cluster can never go below {mv_name(floor)}, so "
            f"{mv_name(before)} is gone for good"
        )
    else:
        way_back = (
            f"a downgrade back to {mv_name(before)} is still accepted today (no level in between "
            "changed metadata), but any later bump may close it"
        )
    yield at_step(
        t,
        f"metadata.version {mv_name(before) if before else '?'} -> {mv_name(after)} is one-way: "
        f"{way_back}.",
        resources=[feature(METADATA_VERSION)],
        remediation="Before this step: every broker and controller runs the new binaries and has "
        "been stable at the old level; clients and tooling are validated against the new release; "
        "rollback of binaries is no longer possible after it.",
        key=f"{METADATA_VERSION}:{before}->{after}",
        data={"from": before, "to": after, "lowest_reachable": floor},
    )
