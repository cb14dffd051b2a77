"""KC044 quorum-change-refused."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import RefusalKind
from cluster_engine.plan import AddController, RemoveController
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, ids
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KC044",
    name="quorum-change-refused",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def quorum_change_refused(t: Transition) -> Iterator[Hit]:
    """A controller is added that already votes, or removed that does not: refused.

    Why: AddRaftVoter answers DUPLICATE_VOTER for an id already in the voter set and
    RemoveRaftVoter answers VOTER_NOT_FOUND for an id that is not in it
    (4.1:raft/.../AddVoterHandler.java:92-156, RemoveVoterHandler.java). The quorum does not
    change, so a plan that counts on it (to replace a controller, to reach 3 or 5 voters) is
    wrong from that step on.

    Example:

        - add-controller: {id: 101}   # 101 is a voter already

    Fix: check ``kafka-metadata-quorum.sh describe --status`` (CurrentVoters) and use the ids
    it shows.
    """
    step = t.step
    if not isinstance(step, AddController | RemoveController):
        return
    for r in t.refusals:
        if r.kind not in (RefusalKind.DUPLICATE_VOTER, RefusalKind.VOTER_NOT_FOUND):
            continue
        yield at_step(
            t,
            f"{step.action} {step.id} is refused: {r.message}; the voters are "
            f"{ids(t.before.voters) or 'unknown'}.",
            resources=[Resource(kind="controller", name=str(step.id))],
            remediation="Use an id that is not a voter to add, and a voter's id to remove.",
            key=f"{step.action}:{step.id}",
        )
