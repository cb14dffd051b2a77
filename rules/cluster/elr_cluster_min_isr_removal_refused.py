"""KC023 elr-cluster-min-isr-removal-refused."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import RefusalKind
from cluster_engine.knowledge import MIN_INSYNC_REPLICAS
from cluster_engine.plan import AlterConfig
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, config
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC023",
    name="elr-cluster-min-isr-removal-refused",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def elr_cluster_min_isr_removal_refused(t: Transition) -> Iterator[Hit]:
    """The cluster-level ``min.insync.replicas`` is deleted while ELR is enabled: refused.

    Why: ELR's safety relies on a cluster-level value; the controller answers INVALID_CONFIG
    "Cluster-level min.insync.replicas cannot be removed while ELR is enabled."
    (4.1:MC/ConfigurationControlManager.java:398-400,417-427).

    Example:

        - alter-config: {scope: cluster, key: min.insync.replicas, delete: true}

    Fix: set the value you want instead of deleting it, or disable ELR first
    (``eligible.leader.replicas.version=0``).
    """
    if not isinstance(t.step, AlterConfig):
        return
    for r in t.refusals:
        if r.kind == RefusalKind.ELR_CLUSTER_MIN_ISR_REMOVAL:
            yield at_step(
                t,
                f"Deleting the cluster-level {MIN_INSYNC_REPLICAS} is refused because ELR is "
                f"enabled: {r.message}",
                resources=[config(MIN_INSYNC_REPLICAS)],
                remediation="Alter the value instead of deleting it.",
            )
