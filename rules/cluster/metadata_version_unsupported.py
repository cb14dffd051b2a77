"""KC001 metadata-version-unsupported."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import feature_refusals, tool_message, unsupported_nodes
from cluster_engine.knowledge import METADATA_VERSION, mv_name
from cluster_engine.plan import UpdateFeature
from cluster_engine.simulate import Transition
from rules.cluster._common import at_step, broker, feature
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KC001",
    name="metadata-version-unsupported",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject="cluster-step",
)
def metadata_version_unsupported(t: Transition) -> Iterator[Hit]:
    """The target metadata.version is not supported by every broker and controller.

    Why: before finalizing a level the controller checks that every registered broker and (from
    3.7-IV0) every controller advertises it, and refuses with INVALID_UPDATE_VERSION otherwise
    (``reasonNotSupported``, 4.1:MC/FeatureControlManager.java:321-374). A node advertises
    ``[7, LATEST_PRODUCTION]`` of its own release: a level above the latest production one of the
    oldest binary, below 7, or unknown to the controller is refused. Roll the binaries first.

    Example:

        - update-feature: {feature: metadata.version, level: 4.3-IV0}
        - upgrade-binaries: {nodes: [3], version: 4.3.0}    # too late: broker 3 still runs 4.1

    Fix: upgrade the binaries of every broker and controller to a release whose latest
    production metadata.version is at least the target, wait until the cluster is stable, then
    run ``kafka-features.sh upgrade --metadata <level>``.
    """
    step = t.step
    if not isinstance(step, UpdateFeature):
        return
    refusals = [
        r
        for r in feature_refusals(t.before, step)
        if r.feature == METADATA_VERSION and r.kind in ("not-supported", "unknown-level")
    ]
    if not refusals:
        return
    level = refusals[0].level
    if refusals[0].kind == "unknown-level":
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
    who = "nodes " + ", ".join(map(str, ids)) if ids else "every broker and controller"
    versions = {i: t.before.nodes[i].version for i in ids if i in t.before.nodes}
    detail = "; ".join(
        n.message + (f" (runs {versions[n.node]})" if n.node in versions else "") for n in nodes
    )
    yield at_step(
        t,
        f"metadata.version {mv_name(level)} is not supported by every node, so the controller "
        f"refuses the update: {detail}.",
        resources=[
            feature(METADATA_VERSION),
            *(_node(t, i) for i in ids),
        ],
        remediation=f"Upgrade the binaries of {who} first (upgrade-binaries before "
        "update-feature), then bump metadata.version.",
        key=f"{METADATA_VERSION}={level}",
        data={"level": level, "nodes": sorted(n.node for n in nodes if n.node is not None)},
    )


def _node(t: Transition, node_id: int) -> Resource:
    node = t.before.nodes.get(node_id)
    if node is not None and not node.is_broker:
        return Resource(kind="controller", name=str(node_id))
    return broker(node_id)
