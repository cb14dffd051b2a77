"""KC005 release-version-side-effects."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.knowledge import ELR_FEATURE, FEATURES, KRAFT_VERSION, METADATA_VERSION
from cluster_engine.plan import UpdateFeature
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, feature
from rules.framework import Hit, Impact, Severity, rule


@rule(
    id="KC005",
    name="release-version-side-effects",
    severity=Severity.WARNING,
    impact=Impact.DOWNSTREAM,
    subject=CLUSTER_STEP,
)
def release_version_side_effects(t: Transition) -> Iterator[Hit]:
    """``--release-version`` finalizes every feature at once, not only metadata.version.

    Why: ``kafka-features.sh upgrade --release-version X`` sends metadata.version plus every
    production feature at its default level for X (4.1:tools/.../FeatureCommand.java:294-314):
    4.0 turns on the new consumer group protocol (group.version=1) and transactions v2
    (transaction.version=2); 4.1 also enables ELR, which rewrites min.insync.replicas configs;
    3.9 and later set kraft.version=1 (dynamic quorum).

    Example:

        - update-feature: {release-version: "4.1"}

    Fix: list the features you mean to change and bump them one at a time with ``--feature``,
    or accept every change listed in the finding.
    """
    step = t.step
    if not isinstance(step, UpdateFeature) or step.release_version is None or t.refused:
        return
    changes = []
    for name, level in sorted(t.after.features.items()):
        old = t.before.features.get(name, 0)
        if name == METADATA_VERSION or level == old:
            continue
        meaning = (
            next((fl.meaning for fl in FEATURES[name].levels if fl.level == level), "")
            if name in FEATURES
            else ""
        )
        changes.append((name, old, level, meaning))
    if not changes:
        return
    extra = []
    names = {c[0] for c in changes}
    if ELR_FEATURE in names:
        extra.append("enabling ELR rewrites min.insync.replicas configs (see KC025)")
    if KRAFT_VERSION in names:
        extra.append("kraft.version=1 makes the quorum dynamic: replace controller.quorum.voters")
    listed = "; ".join(
        f"{n} {o} -> {lv} ({m})" if m else f"{n} {o} -> {lv}" for n, o, lv, m in changes
    )
    yield at_step(
        t,
        f"--release-version {step.release_version} also finalizes: {listed}"
        + (f". Note: {'; '.join(extra)}." if extra else "."),
        resources=[feature(n) for n in sorted(names)],
        remediation="Use --feature metadata.version=<level> to bump only the metadata version, "
        "and enable the other features deliberately, one per step.",
        data={"changes": {n: [o, lv] for n, o, lv, _ in changes}},
    )
