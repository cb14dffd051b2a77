"""KC045 feature-update-refused."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import Refusal, RefusalKind, tool_message
from cluster_engine.knowledge import METADATA_VERSION
from cluster_engine.plan import UpdateFeature
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, feature
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC045",
    name="feature-update-refused",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def feature_update_refused(t: Transition) -> Iterator[Hit]:
    """A feature level some node does not support, or a kraft.version downgrade: refused.

    Why: every registered broker and (from 3.7-IV0) every controller must support the level
    (``reasonNotSupported``, 4.1:MC/FeatureControlManager.java:321-374; a feature a node does
    not advertise counts as 0-0: 4.1 nodes do not advertise ``streams.version``), and
    ``kraft.version`` can never be downgraded: "Can't downgrade the version of this feature."
    The request is all-or-nothing, so nothing in it is applied.

    Example:

        - update-feature: {feature: streams.version, level: 1}   # 4.1 nodes: not advertised

    Fix: upgrade the binaries of every node to a release that supports the level first; leave
    ``kraft.version`` where it is.
    """
    step = t.step
    if not isinstance(step, UpdateFeature):
        return
    by_feature: dict[tuple[str, int], list[Refusal]] = {}
    for r in t.refusals:
        if r.kind is RefusalKind.KRAFT_DOWNGRADE or (
            r.kind is RefusalKind.NOT_SUPPORTED and r.feature != METADATA_VERSION
        ):
            by_feature.setdefault((r.feature, r.level), []).append(r)
    for (name, level), found in sorted(by_feature.items()):
        downgrade = level < t.before.features.get(name, 0)
        # the controller names the first node it finds; the others are listed after
        others = [r.message for r in found[1:]]
        more = f" Also: {' '.join(others)}" if others else ""
        yield at_step(
            t,
            f"{name}={level} is refused: {tool_message(found[0], downgrade)}{more}",
            resources=[feature(name)],
            remediation="Upgrade every broker and controller to a release supporting the "
            "level first; kraft.version cannot be lowered.",
            key=f"{name}={level}",
            data={"feature": name, "level": level, "nodes": [r.node for r in found]},
        )
