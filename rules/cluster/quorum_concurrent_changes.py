"""KC017 quorum-concurrent-changes."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.plan import AddController, RemoveController
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KC017",
    name="quorum-concurrent-changes",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def quorum_concurrent_changes(t: Transition) -> Iterator[Hit]:
    """A controller quorum change starts before the previous one has committed.

    Why: KRaft changes one voter at a time. While a VotersRecord is uncommitted, or a voter
    change is pending, AddVoter/RemoveVoter time out: "Request timed out waiting for leader to
    handle previous voter change request" (4.1:raft/.../AddVoterHandler.java:129-142).

    Example:

        - add-controller: {id: 104, wait: false}
        - add-controller: {id: 105}

    Fix: after each add-controller/remove-controller, wait until
    ``kafka-metadata-quorum.sh describe --status`` shows the new voter set and the new voter has
    caught up, then make the next change.
    """
    step = t.step
    if not isinstance(step, AddController | RemoveController):
        return
    if not t.before.pending_voter_change:
        return
    yield at_step(
        t,
        f"{step.action} {step.id} runs while the previous voter change is still pending: "
        "Request timed out waiting for leader to handle previous voter change request.",
        resources=[Resource(kind="controller", name=str(step.id))],
        remediation="Wait for the previous change to commit (wait: true) before this one.",
    )
