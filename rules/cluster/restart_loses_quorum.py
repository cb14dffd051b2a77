"""KC030 restart-loses-quorum."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.facts import RestartFacts
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, ids
from rules.framework import Hit, Impact, Resource, Severity, rule


@rule(
    id="KC030",
    name="restart-loses-quorum",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def restart_loses_quorum(t: Transition) -> Iterator[Hit]:
    """A restart stops a majority of the controller voters at once: the quorum is lost.

    Why: KRaft needs a majority of voters to elect a leader and commit metadata. Without it no
    broker can register, unfence or change ISRs, no topic can be created and no feature or config
    can change until enough controllers are back.

    Example:

        - upgrade-binaries: {nodes: [101, 102, 103], version: 4.3.0, at-once: 2}

    Fix: restart controllers one at a time and wait until the restarted one has caught up
    (``kafka-metadata-quorum.sh describe --replication`` shows small lag) before the next.
    """
    if not isinstance(t.facts, RestartFacts):
        return
    voters = set(t.before.voters)
    if not voters:
        return
    majority = len(voters) // 2 + 1
    for batch in t.facts.batches:
        stopped = voters & set(batch)
        if len(voters) - len(stopped) < majority:
            yield at_step(
                t,
                f"Controllers {ids(stopped)} stop together: {len(voters) - len(stopped)} of "
                f"{len(voters)} voters remain, below the majority of {majority}, so the cluster "
                "cannot change any metadata until they are back.",
                resources=[Resource(kind="controller", name=str(v)) for v in sorted(stopped)],
                remediation="Restart controllers one at a time, each caught up before the next.",
                key=ids(stopped),
            )
