"""KC019 quorum-static-config."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.knowledge import KRAFT_VERSION
from cluster_engine.plan import AddController, RemoveController, UpdateFeature
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, config
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC019",
    name="quorum-static-config",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def quorum_static_config(t: Transition) -> Iterator[Hit]:
    """The quorum is still configured statically (``controller.quorum.voters``) when dynamic.

    Why: ``controller.quorum.voters`` "should NOT be set if using dynamic quorums"
    (4.2:raft/.../QuorumConfig.java:58-120). After ``kraft.version`` goes to 1 every node must
    switch to ``controller.quorum.bootstrap.servers``; a node still reading the static list
    ignores voters added later and can try to elect from a stale set.

    Example:

        - update-feature: {feature: kraft.version, level: 1}
        - add-controller: {id: 104}

    Fix: after the kraft.version upgrade, replace ``controller.quorum.voters`` with
    ``controller.quorum.bootstrap.servers`` on every broker and controller (a rolling restart),
    then change the voter set.
    """
    step = t.step
    if not t.before.static_quorum or t.refused:
        return
    if isinstance(step, UpdateFeature):
        if t.after.kraft_version >= 1 > t.before.kraft_version:
            yield at_step(
                t,
                f"{KRAFT_VERSION} becomes 1 (dynamic quorum) but the nodes are configured with "
                "controller.quorum.voters: replace it with controller.quorum.bootstrap.servers on "
                "every node before changing the quorum.",
                resources=[config("controller.quorum.voters")],
                remediation="Roll every node with controller.quorum.bootstrap.servers instead of "
                "controller.quorum.voters.",
                key="kraft-upgrade",
            )
    elif isinstance(step, AddController | RemoveController) and t.before.kraft_version >= 1:
        yield at_step(
            t,
            f"{step.action} {step.id} on a quorum still configured with controller.quorum.voters: "
            "nodes reading the static list do not learn the new voter set.",
            resources=[config("controller.quorum.voters")],
            remediation="Switch every node to controller.quorum.bootstrap.servers first.",
            key=f"{step.action}-{step.id}",
        )
