"""KC103 controller-not-caught-up."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.plan import AddController
from cluster_engine.simulate import Simulation
from rules.cluster._common import at_step
from rules.framework import Hit, Impact, Resource, Severity, rule

WAIT = (
    "Start the new controller (formatted with --no-initial-controllers) and wait until "
    "kafka-metadata-quorum.sh describe --replication lists it as an Observer with Lag 0 (its "
    "LastCaughtUpTimestamp current) before running add-controller."
)


@rule(
    id="KC103",
    name="controller-not-caught-up",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject="cluster",
)
def controller_not_caught_up(sim: Simulation) -> Iterator[Hit]:
    """A controller is added as a voter before the snapshot shows it caught up.

    Why: the quorum leader admits a new voter only once it has replicated the metadata log up
    to the leader's end offset; a lagging one makes ``add-controller`` fail with
    REQUEST_TIMED_OUT "Aborted add voter operation for ... since it is lagging behind"
    (AddVoterHandler, cluster-facts §6). A new controller first runs as an observer; its
    ``Lag`` column in ``kafka-metadata-quorum.sh describe --replication`` (leader LEO minus its
    LEO) says when it has caught up. The check is quiet when the snapshot shows the node as an
    observer with lag 0.

    Example:

        - add-controller: {id: 104}       # kraft.version 1; 104 not yet an observer

    Fix: start the new controller, wait until ``describe --replication`` shows it as an
    Observer with Lag 0, capture the snapshot again, then add it.
    """
    quorum = sim.snapshot.quorum
    observers = {m.id: m for m in quorum.observers} if quorum else {}
    for t in sim.transitions:
        step = t.step
        if not isinstance(step, AddController) or t.refused:
            continue
        seen = observers.get(step.id)
        if seen is not None and seen.lag == 0:
            continue
        if seen is None:
            state = "the snapshot does not show it as an observer of the metadata quorum"
        elif seen.lag is None:
            state = "the snapshot shows it as an observer but not its lag (no describe "
            state += "--replication capture)"
        else:
            state = f"the snapshot shows it {seen.lag} record(s) behind the leader"
        yield at_step(
            t,
            f"Controller {step.id} is added as a voter but {state}: the quorum leader aborts "
            'add-controller for a lagging node ("since it is lagging behind").',
            resources=[Resource(kind="controller", name=str(step.id))],
            remediation=WAIT,
            key=str(step.id),
            data={"controller": step.id, "lag": seen.lag if seen else None},
        )
