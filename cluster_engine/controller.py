"""What the controller (and the Kafka tools) would refuse, as data the simulator and rules share.

Each check returns :class:`Refusal` objects carrying the exact message Kafka prints, so the
simulator knows a step did not apply and rules can quote why.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cluster_engine.config_types import invalid_config_value
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


class RefusalKind(StrEnum):
    """Every reason the simulator knows Kafka refuses a step for. Each one is reported by a rule
    (``rules.cluster.REFUSAL_RULES``); a test holds that."""

    # UpdateFeatures (INVALID_UPDATE_VERSION), 4.1:MC/FeatureControlManager.java:237-426
    UNKNOWN_LEVEL = "unknown-level"
    NOT_SUPPORTED = "not-supported"
    DOWNGRADE_BLOCKED = "downgrade-blocked"
    UNSAFE_DOWNGRADE = "unsafe-downgrade"
    DEPENDENCY = "dependency"
    KRAFT_DOWNGRADE = "kraft-downgrade"
    # broker and controller registration, 4.1:MC/ClusterControlManager.java:406-427,498-526
    REGISTRATION = "registration"
    # configs (INVALID_CONFIG): ConfigDef parsing/validators, and ELR's rules
    INVALID_CONFIG = "invalid-config"
    ELR_BROKER_MIN_ISR = "elr-broker-min-isr"
    ELR_CLUSTER_MIN_ISR_REMOVAL = "elr-cluster-min-isr-removal"
    # kafka-reassign-partitions.sh and AlterPartitionReassignments
    EXISTING_REASSIGNMENT = "existing-reassignment"
    UNKNOWN_BROKER = "unknown-broker"
    UNKNOWN_PARTITION = "unknown-partition"
    CANCEL_UNCLEAN = "cancel-unclean"
    # KRaft voter changes (KIP-853)
    KRAFT_VERSION_0 = "kraft-version-0"
    VOTER_CHANGE_PENDING = "voter-change-pending"
    DUPLICATE_VOTER = "duplicate-voter"
    VOTER_NOT_FOUND = "voter-not-found"
    # topic creation and partition increases
    TOPIC_EXISTS = "topic-exists"
    PARTITION_COUNT = "partition-count"
    REPLICATION_FACTOR = "replication-factor"


@dataclass(frozen=True, slots=True)
class Refusal:
    """What Kafka refuses and the message it gives; ``feature`` names what is refused (a
    feature, a topic, a config key, ``reassign``)."""

    kind: RefusalKind
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


@dataclass(frozen=True, slots=True)
class NodeSupport:
    """What a node supports of one feature and how ksafe knows it. ``span`` None: not advertised
    (counts as 0-0) or, with ``source`` ``unknown``, nothing says."""

    span: tuple[int, int] | None
    source: str  # "advertised", "version" (its software version), "described", "unknown"


def node_support(state: ClusterState, node: NodeState, feature: str) -> NodeSupport:
    """The node's own advertised range, else its software version's, else (a snapshot node the
    snapshot knows nothing else about) what ``kafka-features.sh describe`` printed: the answering
    node's ranges, assumed for the nodes the plan does not upgrade."""
    if feature in node.supported:
        return NodeSupport(node.supported[feature], "advertised")
    if node.version is not None:
        return NodeSupport(supported_range(feature, node.version), "version")
    if node.id in state.described_nodes and state.described_ranges:
        return NodeSupport(state.described_ranges.get(feature), "described")
    return NodeSupport(None, "unknown")


def _checked_nodes(state: ClusterState) -> list[NodeState]:
    """The nodes whose ranges the controller checks: brokers, and controllers from 3.7-IV0."""
    check_controllers = state.metadata_version >= CONTROLLER_REGISTRATION_MV
    return [
        n
        for n in sorted(state.nodes.values(), key=lambda n: n.id)
        if n.is_broker or (n.is_controller and check_controllers)
    ]


def unsupported_nodes(state: ClusterState, feature: str, level: int) -> list[Refusal]:
    """Every node that does not support ``feature=level``, as ``reasonNotSupported`` words it
    (4.1:MC/FeatureControlManager.java:321-374). Controllers are checked from 3.7-IV0 on.
    Nodes nothing is known about are skipped: :func:`unverified_nodes` names them."""
    if level == 0 and feature != METADATA_VERSION:
        return []
    out: list[Refusal] = []
    checked = 0
    for node in _checked_nodes(state):
        support = node_support(state, node, feature)
        if support.source == "unknown":
            continue
        checked += 1
        span = support.span
        who = "Broker" if node.is_broker else "Controller"
        if span is None or span[1] == 0:
            message = f"{who} {node.id} does not support this feature."
        elif not span[0] <= level <= span[1]:
            message = f"{who} {node.id} only supports versions {span[0]}-{span[1]}"
        else:
            continue
        out.append(Refusal(RefusalKind.NOT_SUPPORTED, feature, level, message, node=node.id))
    span = state.described_ranges.get(feature)
    if not checked and span is not None and not span[0] <= level <= span[1]:
        message = (
            f"The node that answered kafka-features.sh describe only supports versions "
            f"{span[0]}-{span[1]}"
        )
        out.append(Refusal(RefusalKind.NOT_SUPPORTED, feature, level, message))
    return out


def unverified_nodes(state: ClusterState, feature: str, level: int) -> list[int] | None:
    """The checked nodes whose support of ``feature=level`` nothing in the snapshot or the plan
    tells (no advertised range, no software version, no describe output). ``None``: the
    snapshot knows no node at all and no describe output either."""
    if level == 0 and feature != METADATA_VERSION:
        return []
    nodes = _checked_nodes(state)
    if not nodes:
        return [] if feature in state.described_ranges else None
    return [n.id for n in nodes if node_support(state, n, feature).source == "unknown"]


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
            out.append(
                Refusal(RefusalKind.UNKNOWN_LEVEL, METADATA_VERSION, mv, msg_invalid_mv(mv, reason))
            )
        elif mv < current:
            blocker = downgrade_blocker(current, mv)
            if blocker is not None:
                kind = (
                    RefusalKind.UNSAFE_DOWNGRADE if step.unsafe else RefusalKind.DOWNGRADE_BLOCKED
                )
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
            out.append(Refusal(RefusalKind.KRAFT_DOWNGRADE, name, level, message))
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
                out.append(Refusal(RefusalKind.DEPENDENCY, name, level, message))
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
    """INVALID_CONFIG refusals: a value Kafka's config definition does not parse or accept
    (:mod:`cluster_engine.config_types`), and ELR's rules (4.1:MC/ConfigurationControlManager.java:
    394-427)."""
    if step.value is not None:
        invalid = invalid_config_value(step.key, step.value)
        if invalid is not None:
            return Refusal(RefusalKind.INVALID_CONFIG, step.key, 0, invalid)
    if step.key != MIN_INSYNC_REPLICAS or not state.elr_enabled:
        return None
    if step.scope == "broker":
        return Refusal(
            RefusalKind.ELR_BROKER_MIN_ISR, MIN_INSYNC_REPLICAS, 0, MSG_ELR_BROKER_MIN_ISR
        )
    if step.scope == "cluster" and step.delete:
        return Refusal(
            RefusalKind.ELR_CLUSTER_MIN_ISR_REMOVAL,
            MIN_INSYNC_REPLICAS,
            0,
            MSG_ELR_CLUSTER_MIN_ISR_REMOVAL,
        )
    return None


def registration_refusals(state: ClusterState, node: NodeState) -> list[Refusal]:
    """Why ``node`` (with the binary it starts with) cannot register: a finalized level outside
    what it supports; a feature it does not advertise counts as 0-0
    (4.1:MC/ClusterControlManager.java:406-427,498-526). Unknown support is not judged."""
    out: list[Refusal] = []
    for name, level in sorted(state.features.items()):
        if level == 0 and name != METADATA_VERSION:
            continue
        support = node_support(state, node, name)
        if support.source == "unknown":
            continue
        low, high = support.span or (0, 0)
        if low <= level <= high:
            continue
        if node.is_broker:
            message = (
                f"Unable to register because the broker does not support finalized version "
                f"{level} of {name}. The broker wants a version between {low} and {high}, "
                "inclusive."
            )
        else:  # a controller cannot replay a level its binary does not know either
            message = (
                f"Controller {node.id} does not support finalized version {level} of {name}: it "
                f"supports {low} to {high}."
            )
        out.append(Refusal(RefusalKind.REGISTRATION, name, level, message, node=node.id))
    return out
