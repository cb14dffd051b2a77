"""KC022 elr-broker-min-isr-refused."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import RefusalKind
from cluster_engine.knowledge import MIN_INSYNC_REPLICAS
from cluster_engine.plan import AlterConfig
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, broker, config
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC022",
    name="elr-broker-min-isr-refused",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def elr_broker_min_isr_refused(t: Transition) -> Iterator[Hit]:
    """A broker-level ``min.insync.replicas`` is written while ELR is enabled: refused.

    Why: with ``eligible.leader.replicas.version`` >= 1 the controller rejects any broker-level
    min.insync.replicas with INVALID_CONFIG "Broker-level min.insync.replicas cannot be altered
    while ELR is enabled." (4.1:MC/ConfigurationControlManager.java:394-396,406-415).

    Example:

        - alter-config: {scope: broker, entity: 1, key: min.insync.replicas, value: 2}

    Fix: set it at the cluster level (``--entity-type brokers --entity-default``) or per topic.
    """
    step = t.step
    if not isinstance(step, AlterConfig):
        return
    for r in t.refusals:
        if r.kind == RefusalKind.ELR_BROKER_MIN_ISR:
            yield at_step(
                t,
                f"Setting {MIN_INSYNC_REPLICAS} on broker {step.entity} is refused because ELR "
                f"is enabled: {r.message}",
                resources=[config(MIN_INSYNC_REPLICAS), broker(int(step.entity or 0))],
                remediation="Use scope: cluster (--entity-default) or scope: topic instead.",
            )
