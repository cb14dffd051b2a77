"""KC103 controller-not-caught-up."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.plan import AddController
from cluster_engine.simulate import Simulation, Transition
from rules.cluster._common import CLUSTER, at_step
from rules.framework import Hit, Impact, Resource, Severity, rule

WAIT = (
    "Start the new controller (formatted with --no-initial-controllers) and wait until "
    "kafka-metadata-quorum.sh describe --replication lists it as an Observer with Lag 0 (its "
    "LastCaughtUpTimestamp current) before running add-controller."
)


@rule(
    id="KC103",
    name="controller-not-caught-up",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER,
)
def controller_not_caught_up(sim: Simulation) -> Iterator[Hit]:
    """A controller is added as a voter while the snapshot shows it lagging behind the leader.

    Why: the quorum leader admits a new voter only once it has replicated the metadata log up
    to the leader's end offset; a lagging one makes ``add-controller`` fail with
    REQUEST_TIMED_OUT "Aborted add voter operation for ... since it is lagging behind"
    (AddVoterHandler). A new controller first runs as an observer; its
    ``Lag`` column in ``kafka-metadata-quorum.sh describe --replication`` (leader LEO minus its
    LEO) says when it has caught up. This rule fires when the snapshot shows a lag above 0;
    KC106 controller-lag-unknown warns when the snapshot does not show the lag.

    Example:

        - add-controller: {id: 104}       # describe --replication: 104 Observer, Lag 3140

    Fix: start the new controller, wait until ``describe --replication`` shows it as an
    Observer with Lag 0, capture the snapshot again, then add it.
    """
    for t, node, lag in _added(sim):
        if lag is None or lag == 0:
            continue
        yield at_step(
            t,
            f"Controller {node} is added as a voter but the snapshot shows it {lag} record(s) "
            "behind the leader: the quorum leader aborts add-controller for a lagging node "
            '("since it is lagging behind").',
            resources=[Resource(kind="controller", name=str(node))],
            remediation=WAIT,
            key=str(node),
            data={"controller": node, "lag": lag},
        )


def _added(sim: Simulation) -> Iterator[tuple[Transition, int, int | None]]:
    """Each accepted add-controller step, its node and the lag the snapshot shows (None: the
    snapshot does not show the node as an observer, or not its lag)."""
    quorum = sim.snapshot.quorum
    observers = {m.id: m for m in quorum.observers} if quorum else {}
    for t in sim.transitions:
        step = t.step
        if not isinstance(step, AddController) or t.refused:
            continue
        seen = observers.get(step.id)
        yield t, step.id, seen.lag if seen is not None else None


@rule(
    id="KC106",
    name="controller-lag-unknown",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER,
)
def controller_lag_unknown(sim: Simulation) -> Iterator[Hit]:
    """A controller is added as a voter but the snapshot does not show whether it caught up.

    Why: the quorum leader aborts ``add-controller`` for a node that has not replicated the
    metadata log up to its end offset (KC103 controller-not-caught-up). Without
    a ``kafka-metadata-quorum.sh describe --replication`` capture listing the node as an
    observer, the check cannot tell whether the step will succeed.

    Example:

        - add-controller: {id: 104}       # kraft.version 1; 104 not yet an observer

    Fix: start the new controller, wait until ``describe --replication`` shows it as an
    Observer with Lag 0, capture the snapshot again, then add it.
    """
    quorum = sim.snapshot.quorum
    observers = {m.id for m in quorum.observers} if quorum else set()
    for t, node, lag in _added(sim):
        if lag is not None:
            continue
        state = (
            "the snapshot shows it as an observer but not its lag (no describe --replication "
            "capture)"
            if node in observers
            else "the snapshot does not show it as an observer of the metadata quorum"
        )
        yield at_step(
            t,
            f"Controller {node} is added as a voter but {state}: the quorum leader aborts "
            "add-controller for a node lagging behind, so check its lag first.",
            resources=[Resource(kind="controller", name=str(node))],
            remediation=WAIT,
            key=str(node),
            data={"controller": node, "lag": None},
        )
