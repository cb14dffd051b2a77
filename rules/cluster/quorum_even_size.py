"""KC018 quorum-even-size."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.plan import AddController, RemoveController
from cluster_engine.simulate import Simulation
from rules.cluster._common import CLUSTER, at_step, ids, on_snapshot
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KC018",
    name="quorum-even-size",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER,
)
def quorum_even_size(sim: Simulation) -> Iterator[Hit]:
    """The controller quorum has an even number of voters.

    Why: a majority of 2n voters is n+1, so 2n voters survive as many failures as 2n-1 while
    adding one more node that can fail; during a 1 -> 3 growth the 2-voter state cannot lose
    either controller.

    Example:

        - add-controller: {id: 102}      # 1 voter -> 2, and the plan stops there

    Fix: keep 1, 3 or 5 voters; grow 1 -> 3 by adding two voters back to back, each caught up
    before the next, and plan the even step as short as possible.
    """
    voters = sim.initial.voters
    if voters and len(voters) % 2 == 0:
        yield on_snapshot(
            f"The controller quorum has {len(voters)} voters ({ids(voters)}): it tolerates no "
            "more failures than an odd quorum one smaller.",
            resources=[Resource(kind="quorum", name="voters")],
            remediation="Add or remove one controller to get an odd number of voters.",
            key="snapshot",
        )
    changes = [
        t
        for t in sim.transitions
        if isinstance(t.step, AddController | RemoveController) and not t.refused
    ]
    if changes and len(sim.final.voters) % 2 == 0:
        # a transient even size (growing 1 -> 3) is unavoidable; ending even is not
        t = changes[-1]
        n = len(t.after.voters)
        yield at_step(
            t,
            f"The plan leaves the quorum with {n} voters ({ids(t.after.voters)}): it tolerates "
            f"only {(n - 1) // 2} failure(s), no more than {n - 1} voters would.",
            resources=[Resource(kind="quorum", name="voters")],
            remediation="Add or remove one more controller so the quorum is odd.",
        )
