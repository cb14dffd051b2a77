"""KC016 quorum-change-unsupported."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.controller import RefusalKind, requested_levels
from cluster_engine.knowledge import KRAFT_UPGRADE_MIN_RELEASE, KRAFT_VERSION, release_of
from cluster_engine.plan import AddController, RemoveController, UpdateFeature
from cluster_engine.simulate import Transition
from rules.cluster._common import CLUSTER_STEP, at_step, feature
from rules.framework import Hit, Impact, Severity, rule


def _key(release: str) -> tuple[int, int]:
    major, minor = release.split(".")
    return int(major), int(minor)


@rule(
    id="KC016",
    name="quorum-change-unsupported",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER_STEP,
)
def quorum_change_unsupported(t: Transition) -> Iterator[Hit]:
    """A controller is added or removed while ``kraft.version`` is 0 (a static quorum).

    Why: AddRaftVoter and RemoveRaftVoter answer UNSUPPORTED_VERSION "Cluster doesn't support
    adding voter because the kraft.version feature is 0" (4.1:raft/.../AddVoterHandler.java:
    113-126). Moving a static quorum to kraft.version=1 is supported only from 4.1 controllers
    (4.1:docs/operations/kraft.md:67-103); on 3.9/4.0 it is not a supported migration.

    Example:

        - add-controller: {id: 104}      # kraft.version=0

    Fix: on 4.1 or later controllers, ``kafka-features.sh upgrade --feature kraft.version=1``,
    replace ``controller.quorum.voters`` with ``controller.quorum.bootstrap.servers`` on every
    node, then add or remove controllers one at a time.
    """
    step = t.step
    if isinstance(step, AddController | RemoveController):
        for r in t.refusals:
            if r.kind == RefusalKind.KRAFT_VERSION_0:
                verb = "Adding" if isinstance(step, AddController) else "Removing"
                yield at_step(
                    t,
                    f"{verb} controller {step.id} is refused: {r.message} (UNSUPPORTED_VERSION).",
                    resources=[feature(KRAFT_VERSION)],
                    remediation="Upgrade kraft.version to 1 first (controllers on 4.1 or later), "
                    "switch every node to controller.quorum.bootstrap.servers, then change the "
                    "quorum.",
                    key=f"{verb.lower()}-{step.id}",
                )
        return
    if not isinstance(step, UpdateFeature) or t.refused:
        return
    if requested_levels(t.before, step).get(KRAFT_VERSION, 0) < 1 or t.before.kraft_version >= 1:
        return
    old = sorted(
        {
            rel
            for n in t.before.nodes.values()
            if n.is_controller and n.version and (rel := release_of(n.version)) is not None
        },
        key=_key,
    )
    if old and _key(old[0]) < _key(KRAFT_UPGRADE_MIN_RELEASE):
        yield at_step(
            t,
            f"kraft.version 0 -> 1 with controllers on {old[0]}: the static-to-dynamic quorum "
            "upgrade is supported only from 4.1 (KAFKA-18979: earlier controllers write it "
            "incorrectly).",
            resources=[feature(KRAFT_VERSION)],
            remediation="Upgrade every controller to 4.1 or later before raising kraft.version.",
            key="kraft-upgrade",
        )
