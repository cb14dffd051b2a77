"""KC046 config-value-invalid."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import RefusalKind
from cluster_engine.plan import AlterConfig, CreateTopic
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, config, topic
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC046",
    name="config-value-invalid",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def config_value_invalid(t: Transition) -> Iterator[Hit]:
    """A config value Kafka's own validation refuses (INVALID_CONFIG).

    Why: every broker and topic config has a type and often a range in its ``ConfigDef``;
    ``kafka-configs.sh --alter`` and ``kafka-topics.sh --create --config`` with a value that
    does not parse or is out of range fail with "Invalid value abc for configuration
    min.insync.replicas: Not a number of type INT" or "... Value must be at least 1"
    (clients/.../config/ConfigDef.java parseType and Range; min.insync.replicas is an INT of at
    least 1, 4.1:storage/.../LogConfig.java:221). The step does nothing, and what the plan meant
    to protect (durability, a throttle) is not in force.

    Example:

        - alter-config: {scope: topic, entity: orders, key: min.insync.replicas, value: "0"}

    Fix: use a value of the config's type and range (``kafka-configs.sh --describe --all``
    shows the current one and ``ksafe explain`` the rule that reads it).
    """
    step = t.step
    if not isinstance(step, AlterConfig | CreateTopic):
        return
    for r in t.refusals:
        if r.kind is not RefusalKind.INVALID_CONFIG:
            continue
        where = (
            f"topic {step.topic}"
            if isinstance(step, CreateTopic)
            else "the cluster default"
            if step.scope == "cluster"
            else f"{step.scope} {step.entity}"
        )
        resources = [config(r.feature)]
        if isinstance(step, CreateTopic):
            resources.append(topic(step.topic))
        elif step.scope == "topic" and step.entity is not None:
            resources.append(topic(step.entity))
        yield at_step(
            t,
            f"{r.feature} on {where} is refused: {r.message}",
            resources=resources,
            remediation="Give a value of the config's type and range.",
            key=f"{r.feature}@{where}",
        )
