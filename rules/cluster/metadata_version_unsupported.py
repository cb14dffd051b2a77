"""KC001 metadata-version-unsupported."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import (
    RefusalKind,
    feature_refusals,
    node_support,
    tool_message,
    unsupported_nodes,
)
from cluster_engine.knowledge import METADATA_VERSION, mv_name
from cluster_engine.plan import UpdateFeature
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, broker, feature
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KC001",
    name="metadata-version-unsupported",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def metadata_version_unsupported(t: Transition) -> Iterator[Hit]:
    """The target metadata.version is not supported by every broker and controller.

    Why: before finalizing a level the controller checks that every registered broker and (from
    3.7-IV0) every controller advertises it, and refuses with INVALID_UPDATE_VERSION otherwise
    (``reasonNotSupported``, 4.1:MC/FeatureControlManager.java:321-374). A node advertises
    ``[7, LATEST_PRODUCTION]`` of its own release: a level above the latest production one of the
    oldest binary, below 7, or unknown to the controller is refused. Roll the binaries first.

    A node the plan does not upgrade runs what the snapshot says: its own ranges, its software
    version, or the ranges ``kafka-features.sh describe`` printed.

    Example:

        - upgrade-binaries: {nodes: [1, 2, 101, 102, 103], version: 4.3.0}
        - update-feature: {feature: metadata.version, level: 4.3-IV0}   # broker 3 still on 4.1

    Fix: upgrade the binaries of every broker and controller to a release whose latest
    production metadata.version is at least the target, wait until the cluster is stable, then
    run ``kafka-features.sh upgrade --release-version 4.3`` (or ``--feature
    metadata.version=30``; the ``--metadata`` flag is deprecated).
    """
    step = t.step
    if not isinstance(step, UpdateFeature):
        return
    refusals = [
        r
        for r in feature_refusals(t.before, step)
        if r.feature == METADATA_VERSION
        and r.kind in (RefusalKind.NOT_SUPPORTED, RefusalKind.UNKNOWN_LEVEL)
    ]
    if not refusals:
        return
    level = refusals[0].level
    if refusals[0].kind is RefusalKind.UNKNOWN_LEVEL:
        yield at_step(
            t,
            f"metadata.version {level} does not exist: "
            + tool_message(refusals[0], level < t.before.metadata_version),
            resources=[feature(METADATA_VERSION)],
            remediation="Use a level from the metadata.version table (7 to the latest production "
            "level of the binaries), e.g. --release-version 4.1.",
            data={"level": level},
        )
        return
    nodes = unsupported_nodes(t.before, METADATA_VERSION, level)
    ids = [n.node for n in nodes if n.node is not None]
    who = (
        ("node " if len(ids) == 1 else "nodes ") + ", ".join(map(str, ids))
        if ids
        else "every broker and controller"
    )
    detail = "; ".join(n.message + _source(t, n.node) for n in nodes)
    yield at_step(
        t,
        f"metadata.version {mv_name(level)} is not supported by every node, so the controller "
        f"refuses the update: {detail}.",
        resources=[
            feature(METADATA_VERSION),
            *(_node(t, i) for i in ids),
        ],
        remediation=f"Upgrade the binaries of {who} first (upgrade-binaries before "
        f"update-feature), then bump metadata.version (kafka-features.sh upgrade "
        f"--feature metadata.version={level}, or --release-version <release>).",
        key=f"{METADATA_VERSION}={level}",
        data={"level": level, "nodes": sorted(n.node for n in nodes if n.node is not None)},
    )


def _source(t: Transition, node_id: int | None) -> str:
    """How the node's range is known, when it is not its own advertised one."""
    node = t.before.nodes.get(node_id) if node_id is not None else None
    if node is None:
        return ""
    support = node_support(t.before, node, METADATA_VERSION)
    if support.source == "version":
        return f" (runs {node.version})"
    if support.source == "described":
        return " (as kafka-features.sh describe printed; the plan does not upgrade it)"
    return ""


def _node(t: Transition, node_id: int) -> Resource:
    node = t.before.nodes.get(node_id)
    if node is not None and not node.is_broker:
        return Resource(kind="controller", name=str(node_id))
    return broker(node_id)
