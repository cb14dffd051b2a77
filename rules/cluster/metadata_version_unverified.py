"""KC040 metadata-version-unverified."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import requested_levels, unverified_nodes
from cluster_engine.knowledge import METADATA_VERSION, mv_name
from cluster_engine.plan import UpdateFeature
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, feature, ids
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC040",
    name="metadata-version-unverified",
    severity=Severity.WARNING,
    impact=Impact.IRREVERSIBLE,
    subject=CLUSTER_STEP,
)
def metadata_version_unverified(t: Transition) -> Iterator[Hit]:
    """A metadata.version bump whose support by some nodes nothing in the inputs tells.

    Why: the controller accepts the bump only if every registered broker and (from 3.7-IV0)
    every controller supports the level (4.1:MC/FeatureControlManager.java:321-374), and the
    bump is one-way. A node the plan does not upgrade runs what the snapshot says it supports:
    its own ranges (``kafka-features.sh describe --node-id``, 4.2+), its software version, or
    the ranges ``kafka-features.sh describe`` printed. When none of these exists for a node,
    ksafe cannot tell whether the bump is accepted, and says so instead of passing it.

    Example:

        - upgrade-binaries: {nodes: [1, 2], version: 4.3.0}
        - update-feature: {feature: metadata.version, level: 4.3-IV0}   # node 3: nothing known

    Fix: capture ``kafka-features.sh describe`` (and, on 4.2+, ``describe --node-id N`` for
    each node) into the snapshot, or give each node's ``software_version``; or list every node
    in an upgrade-binaries step before the bump.
    """
    step = t.step
    if not isinstance(step, UpdateFeature) or t.refused:
        return
    level = requested_levels(t.before, step).get(METADATA_VERSION)
    if level is None or level <= t.before.metadata_version:
        return
    nodes = unverified_nodes(t.before, METADATA_VERSION, level)
    if nodes == []:
        return
    who = (
        f"{'node' if len(nodes) == 1 else 'nodes'} {ids(nodes)} (no advertised ranges, no "
        "software version, no "
        "kafka-features.sh describe output)"
        if nodes
        else "any node (the snapshot lists no node and no kafka-features.sh describe output)"
    )
    yield at_step(
        t,
        f"metadata.version {mv_name(level)} cannot be checked against {who}: if one of them "
        "runs an older release, the controller refuses the bump; once accepted it cannot be "
        "undone.",
        resources=[feature(METADATA_VERSION)],
        remediation="Add kafka-features.sh describe (and describe --node-id N on 4.2+) to the "
        "captures, or upgrade those nodes' binaries in the plan before the bump.",
        key=f"{METADATA_VERSION}={level}",
        data={"level": level, "nodes": list(nodes or [])},
    )
