"""KC041 node-cannot-register."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import Refusal, RefusalKind
from cluster_engine.knowledge import METADATA_VERSION, mv_name
from cluster_engine.plan import AddBroker, AddController, UpgradeBinaries
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, broker, feature
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KC041",
    name="node-cannot-register",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def node_cannot_register(t: Transition) -> Iterator[Hit]:
    """A node starts with a binary that does not support a finalized feature level.

    Why: a broker registering with the controller must support every finalized level; otherwise
    the controller answers UnsupportedVersionException "Unable to register because the broker
    does not support finalized version 27 of metadata.version. The broker wants a version
    between 7 and 25, inclusive." (4.1:MC/ClusterControlManager.java:406-427,498-526) and the
    broker never comes back. So once metadata.version is bumped, rolling a node back to an
    older release, or adding a broker of an older release, takes it out of the cluster; a
    controller cannot replay a level its binary does not know.

    Example:

        - upgrade-binaries: {nodes: [1], version: 4.0.0}   # metadata.version is 4.1-IV1

    Fix: roll back binaries only while metadata.version is still at a level the old release
    supports (validate a release before bumping it); add brokers running the cluster's release.
    """
    step = t.step
    if not isinstance(step, UpgradeBinaries | AddBroker | AddController):
        return
    by_node: dict[int, list[Refusal]] = {}
    for r in t.refusals:
        if r.kind is RefusalKind.REGISTRATION and r.node is not None:
            by_node.setdefault(r.node, []).append(r)
    for node_id, found in sorted(by_node.items()):
        # metadata.version first: it is the one an operator rolled back from
        found.sort(key=lambda r: (r.feature != METADATA_VERSION, r.feature))
        first = found[0]
        node = t.after.nodes.get(node_id) or t.before.nodes.get(node_id)
        controller_only = isinstance(step, AddController) or (
            node is not None and not node.is_broker
        )
        who = f"Controller {node_id}" if controller_only else f"Broker {node_id}"
        version = step.version or (node.version if node else None)
        runs = f" on {version}" if version else ""
        verb = (
            "cannot run with what the cluster has finalized"
            if controller_only
            else "cannot register with the controller"
        )
        level = mv_name(first.level) if first.feature == METADATA_VERSION else str(first.level)
        others = [r.feature for r in found[1:]]
        also = f" Nor does it support the finalized {', '.join(others)}." if others else ""
        yield at_step(
            t,
            f"{who}{runs} {verb}: {first.feature} is finalized at {level}. {first.message}{also}",
            resources=[
                Resource(kind="controller", name=str(node_id))
                if controller_only
                else broker(node_id),
                *(feature(r.feature) for r in found),
            ],
            remediation="Run a release that supports the finalized levels (the cluster's current "
            "release); metadata.version cannot be lowered past a level that changed metadata.",
            key=str(node_id),
            data={"node": node_id, "features": [r.feature for r in found], "version": version},
        )
