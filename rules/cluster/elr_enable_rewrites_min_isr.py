"""KC025 elr-enable-rewrites-min-isr."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.facts import ElrRewriteFacts
from cluster_engine.knowledge import MIN_INSYNC_REPLICAS
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, config, ids
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC025",
    name="elr-enable-rewrites-min-isr",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def elr_enable_rewrites_min_isr(t: Transition) -> Iterator[Hit]:
    """Enabling ELR rewrites ``min.insync.replicas`` configs.

    Why: when ``eligible.leader.replicas.version`` goes above 0 the controller creates a
    cluster-level min.insync.replicas from the active controller's static value (default 1) if
    there is none, and deletes every broker-level value
    (``maybeGenerateElrSafetyRecords``, 4.1:MC/ConfigurationControlManager.java:643-678).
    Topics that relied on a broker-level value silently get the cluster-level one.

    Example:

        - update-feature: {feature: eligible.leader.replicas.version, level: 1}

    Fix: before enabling ELR, set the cluster-level min.insync.replicas to the value you want
    (``--entity-default``) and move broker-level values to the cluster or topic level.
    """
    if not isinstance(t.facts, ElrRewriteFacts):
        return
    created, removed = t.facts.cluster_value, t.facts.removed_brokers
    if created is None and not removed:
        return
    parts = []
    if created is not None:
        parts.append(
            f"creates cluster-level {MIN_INSYNC_REPLICAS}={created} (the active controller's "
            "static value)"
        )
    if removed:
        parts.append(f"deletes the broker-level {MIN_INSYNC_REPLICAS} of broker(s) {ids(removed)}")
    yield at_step(
        t,
        "Enabling ELR " + " and ".join(parts) + ".",
        resources=[config(MIN_INSYNC_REPLICAS)],
        remediation="Set the cluster-level min.insync.replicas explicitly before enabling ELR.",
        data={"cluster_value": created, "removed_brokers": list(removed)},
    )
