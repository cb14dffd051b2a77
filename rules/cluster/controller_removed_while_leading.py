"""KC107 controller-removed-while-leading."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.plan import RemoveController
from cluster_engine.simulate import Simulation
from rules.cluster._common import CLUSTER, at_step
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KC107",
    name="controller-removed-while-leading",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER,
)
def controller_removed_while_leading(sim: Simulation) -> Iterator[Hit]:
    """``remove-controller`` removes the controller the snapshot shows as the quorum leader.

    Why: a leader that removes itself resigns once the new voter set commits, and the remaining
    voters elect a new leader (RemoveVoterHandler, raft/.../internals/RemoveVoterHandler.java:
    46-51): metadata changes wait for that election. The Kafka docs recommend shutting down the
    controller that will be removed before running the remove-controller command
    (kraft.md:194).

    Example:

        - remove-controller: {id: 101}     # 101 leads the metadata quorum

    Fix: stop the controller to be removed first (the others elect a new leader), then run
    remove-controller against the remaining voters.
    """
    quorum = sim.snapshot.quorum
    leader = quorum.leader_id if quorum else None
    if leader is None:
        return
    for t in sim.transitions:
        step = t.step
        if not isinstance(step, RemoveController) or t.refused or step.id != leader:
            continue
        if leader in t.before.down:
            continue  # already shut down, as the docs recommend
        yield at_step(
            t,
            f"remove-controller removes {leader}, the quorum leader in the snapshot, while it "
            "runs: it resigns after the change commits and the remaining voters elect a new "
            "leader. The docs recommend shutting down the controller to be removed first.",
            resources=[Resource(kind="controller", name=str(leader))],
            remediation=f"Stop controller {leader} before the remove-controller step.",
            key=str(leader),
            data={"controller": leader},
        )
