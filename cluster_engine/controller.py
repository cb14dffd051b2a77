"""What the controller (and the Kafka tools) would refuse, as data the simulator and rules share.

Each check returns :class:`Refusal` objects carrying the exact message Kafka prints, so the
simulator knows a step did not apply and rules can quote why.
"""

from __future__ import annotations

from dataclasses import dataclass

from cluster_engine.knowledge import (
    FEATURES,
    LATEST_KNOWN_METADATA_VERSION,
    LATEST_TESTING,
    METADATA_VERSION,
    MIN_INSYNC_REPLICAS,
    MINIMUM_METADATA_VERSION,
    MSG_DOWNGRADE_REFUSED,
    MSG_ELR_BROKER_MIN_ISR,
    MSG_ELR_CLUSTER_MIN_ISR_REMOVAL,
    MSG_UNSAFE_DOWNGRADE,
    MSG_UPDATE_FAILED_PREFIX,
    downgrade_blocker,
    feature_dependencies,
    msg_feature_dependency,
    msg_invalid_mv,
    release_of,
    release_version_levels,
    supported_range,
)
from cluster_engine.plan import AlterConfig, UpdateFeature
from cluster_engine.state import ClusterState, NodeState

CONTROLLER_REGISTRATION_MV = 15  # 3.7-IV0: controllers are checked from here on (KIP-919)


@dataclass(frozen=True, slots=True)
class Refusal:
    """``kind``: ``unknown-level``, ``not-supported``, ``downgrade-blocked``,
    ``unsafe-downgrade``, ``dependency``, ``kraft-downgrade``, ``elr-broker-min-isr``,
    ``elr-cluster-min-isr-removal``."""

    kind: str
    feature: str
    level: int
    message: str
    node: int | None = None
    blocker: int | None = None  # the metadata.version level that changed metadata


def requested_levels(state: ClusterState, step: UpdateFeature) -> dict[str, int]:
    """The levels the request carries. ``--release-version`` sends metadata.version plus every
    production feature at its default for that version; on an upgrade the tool skips levels that
    are 0 and, here, the ones that would not change (4.1:tools/.../FeatureCommand.java:294-314)."""
    if step.release_level is None:
        assert step.feature is not None
        return {step.feature: step.target_level}
    mv = step.release_level
    upgrade = mv >= state.metadata_version
    out: dict[str, int] = {}
    for name, level in release_version_levels(mv).items():
        current = state.features.get(name, 0)
        if name == METADATA_VERSION or not upgrade or (level > 0 and level > current):
            out[name] = level
    return out


def node_range(node: NodeState, feature: str) -> tuple[int, int] | None:
    """What the node advertises; from its software version when the snapshot does not say.
    ``None``: not advertised (counts as 0-0), or unknown when the version is unknown too."""
    if feature in node.supported:
        return node.supported[feature]
    if node.version is None:
        return None
    return supported_range(feature, node.version)


def unsupported_nodes(state: ClusterState, feature: str, level: int) -> list[Refusal]:
    """Every node that does not support ``feature=level``, as ``reasonNotSupported`` words it
    (4.1:MC/FeatureControlManager.java:321-374). Controllers are checked from 3.7-IV0 on.
    Nodes whose ranges and version are both unknown are skipped."""
    if level == 0 and feature != METADATA_VERSION:
        return []
    check_controllers = state.metadata_version >= CONTROLLER_REGISTRATION_MV
    out: list[Refusal] = []
    for node in sorted(state.nodes.values(), key=lambda n: n.id):
        if not node.is_broker and not (node.is_controller and check_controllers):
            continue
        if feature not in node.supported and node.version is None:
            continue
        span = node_range(node, feature)
        who = "Broker" if node.is_broker else "Controller"
        if span is None or span[1] == 0:
            message = f"{who} {node.id} does not support this feature."
        elif not span[0] <= level <= span[1]:
            message = f"{who} {node.id} only supports versions {span[0]}-{span[1]}"
        else:
            continue
        out.append(Refusal("not-supported", feature, level, message, node=node.id))
    unknown = all(feature not in n.supported and n.version is None for n in state.nodes.values())
    span = state.described_ranges.get(feature)
    if not out and unknown and span is not None and not span[0] <= level <= span[1]:
        message = (
            f"The node that answered kafka-features.sh describe only supports versions "
            f"{span[0]}-{span[1]}"
        )
        out.append(Refusal("not-supported", feature, level, message))
    return out


def _not_supported(state: ClusterState, feature: str, level: int) -> Refusal | None:
    found = unsupported_nodes(state, feature, level)
    return found[0] if found else None


def feature_refusals(state: ClusterState, step: UpdateFeature) -> list[Refusal]:
    """Why the controller would refuse this UpdateFeatures request (empty: it is accepted).
    The request is all-or-nothing (4.1:MC/FeatureControlManager.java:207-211)."""
    levels = requested_levels(state, step)
    out: list[Refusal] = []
    mv = levels.get(METADATA_VERSION)
    if mv is not None:
        current = state.metadata_version
        if not MINIMUM_METADATA_VERSION <= mv <= LATEST_KNOWN_METADATA_VERSION:
            release = _controller_release(state) or ""
            top = LATEST_TESTING.get(release, LATEST_KNOWN_METADATA_VERSION)
            reason = f"Valid versions are from {MINIMUM_METADATA_VERSION} to {top}"
            out.append(Refusal("unknown-level", METADATA_VERSION, mv, msg_invalid_mv(mv, reason)))
        elif mv < current:
            blocker = downgrade_blocker(current, mv)
            if blocker is not None:
                kind = "unsafe-downgrade" if step.unsafe else "downgrade-blocked"
                reason = MSG_UNSAFE_DOWNGRADE if step.unsafe else MSG_DOWNGRADE_REFUSED
                message = _wrap(state, mv, reason, current)
                out.append(Refusal(kind, METADATA_VERSION, mv, message, None, blocker.level))
        if not out and mv > current:
            missing = _not_supported(state, METADATA_VERSION, mv)
            if missing is not None:
                out.append(missing)
    effective_mv = mv if mv is not None else state.metadata_version
    for name, level in sorted(levels.items()):
        if name == METADATA_VERSION:
            continue
        current = state.features.get(name, 0)
        if name in FEATURES and not FEATURES[name].downgradable and level < current:
            message = (
                f"Invalid update version {level} for feature {name}. "
                "Can't downgrade the version of this feature."
            )
            out.append(Refusal("kraft-downgrade", name, level, message))
            continue
        for dep, dep_level in feature_dependencies(name, level).items():
            have = (
                effective_mv
                if dep == METADATA_VERSION
                else levels.get(dep, state.features.get(dep, 0))
            )
            if have < dep_level:
                message = (
                    f"Invalid update version {level} for feature {name}. "
                    + msg_feature_dependency(name, level, dep, dep_level)
                )
                out.append(Refusal("dependency", name, level, message))
        if level > current:
            missing = _not_supported(state, name, level)
            if missing is not None:
                out.append(missing)
    return out


def _controller_release(state: ClusterState) -> str | None:
    versions = [n.version for n in state.nodes.values() if n.is_controller and n.version]
    releases = [r for r in map(release_of, versions) if r is not None]
    return min(releases, key=lambda r: tuple(int(x) for x in r.split("."))) if releases else None


def _wrap(state: ClusterState, level: int, reason: str, current: int) -> str:
    """3.9-4.1 wrap as ``Invalid metadata.version``; 4.2+ name both levels of a downgrade."""
    release = _controller_release(state)
    new_style = release is not None and tuple(int(x) for x in release.split(".")) >= (4, 2)
    return msg_invalid_mv(level, reason, current if new_style else None)


def tool_message(refusal: Refusal, downgrade: bool) -> str:
    """How kafka-features.sh prints it (4.1:tools/.../FeatureCommand.java:429-466)."""
    verb = "downgrade" if downgrade else "upgrade"
    return (
        f"Could not {verb} {refusal.feature} to {refusal.level}. "
        f"{MSG_UPDATE_FAILED_PREFIX}{refusal.message}"
    )


def config_refusal(state: ClusterState, step: AlterConfig) -> Refusal | None:
    """INVALID_CONFIG refusals while ELR is enabled (4.1:MC/ConfigurationControlManager.java:
    394-427)."""
    if step.key != MIN_INSYNC_REPLICAS or not state.elr_enabled:
        return None
    if step.scope == "broker":
        return Refusal("elr-broker-min-isr", MIN_INSYNC_REPLICAS, 0, MSG_ELR_BROKER_MIN_ISR)
    if step.scope == "cluster" and step.delete:
        return Refusal(
            "elr-cluster-min-isr-removal", MIN_INSYNC_REPLICAS, 0, MSG_ELR_CLUSTER_MIN_ISR_REMOVAL
        )
    return None
