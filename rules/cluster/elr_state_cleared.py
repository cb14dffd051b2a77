"""KC024 elr-state-cleared."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.facts import ElrClearFacts
from cluster_engine.knowledge import MIN_INSYNC_REPLICAS
from cluster_engine.plan import AlterConfig
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, config, names, topic
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC024",
    name="elr-state-cleared",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def elr_state_cleared(t: Transition) -> Iterator[Hit]:
    """A ``min.insync.replicas`` write clears Eligible Leader Replicas, even with the same value.

    Why: the controller adds a ClearElrRecord for the topic (topic-level write) or for every
    topic (cluster- or broker-level write), even when the value does not change
    (4.1:MC/ConfigurationControlManager.java:228-248, KAFKA-14136). Until the ELRs are rebuilt,
    a partition that loses its ISR cannot elect a clean leader from them. Quiet when the
    snapshot shows no ELR in the write's scope: there is nothing to clear.

    Example:

        - alter-config: {scope: cluster, key: min.insync.replicas, value: 2}

    Fix: change min.insync.replicas only when every partition is fully in sync (no ELR in use),
    and never as a no-op "re-apply" in automation.
    """
    step = t.step
    if not isinstance(step, AlterConfig) or not isinstance(t.facts, ElrClearFacts):
        return
    scope, count = t.facts.scope, t.facts.partitions
    unknown = t.before.elr_unknown if scope == "*" else t.before.elr_unknown & {scope}
    if count == 0 and not unknown:
        return  # the snapshot shows no ELR in scope: nothing to clear
    where = "every topic" if scope == "*" else f"topic {scope}"
    yield at_step(
        t,
        f"Writing {MIN_INSYNC_REPLICAS} ({step.scope} level) clears the ELR state of {where}"
        f" ({count} partition(s) currently have eligible leader replicas"
        + (f"; the snapshot does not show the ELR of {names(unknown)}" if unknown else "")
        + ").",
        resources=[config(MIN_INSYNC_REPLICAS), *([topic(scope)] if scope != "*" else [])],
        remediation="Run it when no partition has an ELR (all ISRs full), and skip writes that "
        "do not change the value.",
        data={"scope": scope, "partitions_with_elr": count},
    )
