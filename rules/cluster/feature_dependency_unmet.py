"""KC004 feature-dependency-unmet."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import RefusalKind, feature_refusals, tool_message
from cluster_engine.plan import UpdateFeature
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, feature
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC004",
    name="feature-dependency-unmet",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def feature_dependency_unmet(t: Transition) -> Iterator[Hit]:
    """A feature level depends on a metadata.version (or feature) the cluster does not have.

    Why: the controller validates each feature's declared dependencies against the proposed set
    (``Feature.validateVersion``, 4.1:SC/Feature.java:164-179) and refuses the whole request:
    ``eligible.leader.replicas.version=1`` needs metadata.version >= 23 (4.0-IV1), any level >= 1
    needs metadata.version >= 7.

    Example:

        - update-feature: {feature: eligible.leader.replicas.version, level: 1}   # MV 21

    Fix: bump metadata.version first (or in the same request), then the feature; or use
    ``--release-version``, which sends consistent levels.
    """
    step = t.step
    if not isinstance(step, UpdateFeature):
        return
    for r in feature_refusals(t.before, step):
        if r.kind != RefusalKind.DEPENDENCY:
            continue
        yield at_step(
            t,
            f"{r.feature}={r.level} is refused: {tool_message(r, False)}",
            resources=[feature(r.feature)],
            remediation="Raise the dependency first (e.g. metadata.version to 4.0-IV1 or later "
            "for ELR), in an earlier step or the same request.",
            key=f"{r.feature}={r.level}",
            data={"feature": r.feature, "level": r.level},
        )
