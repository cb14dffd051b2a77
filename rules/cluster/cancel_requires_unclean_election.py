"""KC010 cancel-requires-unclean-election."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.facts import CancelFacts
from cluster_engine.knowledge import msg_cancel_unclean
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, names, topic
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC010",
    name="cancel-requires-unclean-election",
    severity=Severity.ERROR,
    impact=Impact.DATA_LOSS,
    subject=CLUSTER_STEP,
)
def cancel_requires_unclean_election(t: Transition) -> Iterator[Hit]:
    """Cancelling a reassignment would need an unclean leader election.

    Why: a cancel reverts to the original replicas with ISR = ISR minus the adding replicas. When
    only adding replicas are in sync, that ISR is empty and the controller refuses: "Unable to
    revert partition assignment for T:P because it would require an unclean leader election."
    (4.1:MC/ReplicationControlManager.java:2120-2153) - unless the topic allows unclean
    election, in which case the revert elects an out-of-sync replica and loses records.

    Example:

        - cancel-reassignment: {}   # orders-0 moving from [1,2,3] to [4,5,6]; ISR is [4,5,6]

    Fix: let the reassignment finish instead (or reassign again to a set that includes the
    in-sync replicas); never enable unclean election just to cancel.
    """
    if not isinstance(t.facts, CancelFacts):
        return
    keys = t.facts.unclean
    if not keys:
        return
    refused = [k for k in keys if k in t.after.moves]
    lossy = [k for k in keys if k not in t.after.moves]
    parts = []
    if refused:
        parts.append(
            f"the controller refuses {len(refused)} partition(s): {msg_cancel_unclean(*refused[0])}"
        )
    if lossy:
        parts.append(
            f"{len(lossy)} partition(s) of topics allowing unclean election revert to an "
            "out-of-sync replica and lose records"
        )
    yield at_step(
        t,
        "Cancelling the reassignment of "
        + names(f"{k[0]}-{k[1]}" for k in keys)
        + " requires an unclean leader election: "
        + "; ".join(parts)
        + ".",
        resources=[topic(n) for n in sorted({k[0] for k in keys})],
        remediation="Let the reassignment complete, or submit a new one whose replicas include "
        "the current in-sync ones.",
        data={"partitions": [f"{k[0]}-{k[1]}" for k in keys]},
    )
