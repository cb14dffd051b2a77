"""What ksafe knows about Kafka, as data: version and feature tables, defaults, controller messages.

Every entry cites the Apache Kafka source it was read from, as ``branch:path:line`` where
``SC`` is ``server-common/src/main/java/org/apache/kafka/server/common/`` and ``MC`` is
``metadata/src/main/java/org/apache/kafka/controller/``. Rules read these tables; they never
carry their own copies of a level, a default or a message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

# --------------------------------------------------------------------------------------------
# metadata.version


@dataclass(frozen=True, slots=True)
class MetadataVersion:
    """One ``IBP_x_y_IVn(featureLevel, release, subVersion, didMetadataChange)`` entry."""

    level: int
    name: str  # "3.3-IV3"
    release: str  # "3.3"
    did_metadata_change: bool
    adds: str
    source: str


_MV_SRC = "4.1:SC/MetadataVersion.java:45-140; master:SC/MetadataVersion.java:50-134"


def _mv(level: int, name: str, changed: bool, adds: str, source: str = _MV_SRC) -> MetadataVersion:
    return MetadataVersion(level, name, name.split("-", 1)[0], changed, adds, source)


# The flag is the one the version shipped with as production; unstable versions were rewritten
# between branches (3.8-IV0, 3.9-IV0, 4.0-IV0, 4.0-IV1, 4.3-IV0).
METADATA_VERSIONS: tuple[MetadataVersion, ...] = (
    _mv(7, "3.3-IV3", True, "InControlledShutdown broker state (KIP-841)"),
    _mv(8, "3.4-IV0", True, "ZooKeeper to KRaft migration (KIP-866)"),
    _mv(9, "3.5-IV0", False, "tiered storage (KIP-405)"),
    _mv(10, "3.5-IV1", False, "replica epoch in Fetch (KIP-903)"),
    _mv(11, "3.5-IV2", True, "KRaft SCRAM"),
    _mv(12, "3.6-IV0", False, "no leader-epoch bump on ISR shrink"),
    _mv(13, "3.6-IV1", True, "metadata transactions"),
    _mv(14, "3.6-IV2", True, "KRaft delegation tokens"),
    _mv(15, "3.7-IV0", True, "controller registration (KIP-919)"),
    _mv(16, "3.7-IV1", False, "reserved"),
    _mv(17, "3.7-IV2", True, "JBOD in KRaft"),
    _mv(18, "3.7-IV3", False, "empty (was reserved for ELR; MVs are not reused)"),
    _mv(19, "3.7-IV4", False, "Fetch version for KIP-951"),
    _mv(20, "3.8-IV0", False, "the 3.8.0 release", "3.8:SC/MetadataVersion.java:213"),
    _mv(21, "3.9-IV0", False, "ListOffsets v9 (KIP-1005)", "3.9:SC/MetadataVersion.java:218"),
    _mv(22, "4.0-IV0", False, "bootstrap version of group.version 1 (KIP-848)"),
    _mv(23, "4.0-IV1", True, "ELR records (PartitionRecord v2, ClearElrRecord)"),
    _mv(24, "4.0-IV2", False, "bootstrap version of transaction.version 1 and 2 (KIP-890)"),
    _mv(25, "4.0-IV3", False, "async remote LIST_OFFSETS (KIP-1075)"),
    _mv(26, "4.1-IV0", False, "ELR on by default for new clusters (KIP-966)"),
    _mv(27, "4.1-IV1", False, "Fetch v18 in the replica fetcher (KIP-1166)"),
    _mv(28, "4.2-IV0", False, "share groups on by default for new clusters (KIP-932)"),
    _mv(29, "4.2-IV1", False, "streams groups on by default for new clusters (KIP-1071)"),
    _mv(
        30,
        "4.3-IV0",
        True,
        "cordoned log dirs (KIP-1066); broker registration records change",
        "4.3:SC/MetadataVersion.java; master:SC/MetadataVersion.java:125",
    ),
    _mv(31, "4.4-IV0", False, "DLQ for share groups (KIP-1191)"),
    _mv(32, "4.4-IV1", True, "CIDR ACL host patterns (KIP-1276)"),
    _mv(33, "4.4-IV2", True, "controller unregistration (KIP-1312)"),
)

MV_BY_LEVEL: Mapping[int, MetadataVersion] = MappingProxyType(
    {mv.level: mv for mv in METADATA_VERSIONS}
)
MV_BY_NAME: Mapping[str, MetadataVersion] = MappingProxyType(
    {mv.name: mv for mv in METADATA_VERSIONS}
)

# Levels below the KRaft minimum still print in old captures (3.9:SC/MetadataVersion.java,
# IBP_3_0_IV1 .. IBP_3_3_IV2). Readers of tool output need them; a plan may not target them.
_PRE_KRAFT_LEVELS = {
    "3.0-IV1": 1, "3.1-IV0": 2, "3.2-IV0": 3, "3.3-IV0": 4, "3.3-IV1": 5, "3.3-IV2": 6,
}  # fmt: skip
METADATA_VERSION_LEVELS: Mapping[str, int] = MappingProxyType(
    _PRE_KRAFT_LEVELS | {mv.name: mv.level for mv in METADATA_VERSIONS}
)

MINIMUM_METADATA_VERSION = 7  # 4.1:SC/MetadataVersion.java:150 (IBP_3_3_IV3)
LATEST_KNOWN_METADATA_VERSION = 33  # master:SC/MetadataVersion.java:401-403 (latestTesting)

# LATEST_PRODUCTION per release branch. Before 3.7 there was no such constant: latest() was the
# last enum entry of the branch (derived from the table above).
LATEST_PRODUCTION: Mapping[str, int] = MappingProxyType(
    {
        "3.3": 7,  # derived: last 3.3 entry
        "3.4": 8,  # derived
        "3.5": 11,  # derived
        "3.6": 14,  # derived
        "3.7": 19,  # 3.7:SC/MetadataVersion.java:231
        "3.8": 20,  # 3.8:SC/MetadataVersion.java:239
        "3.9": 21,  # 3.9:SC/MetadataVersion.java:247
        "4.0": 25,  # 4.0:SC/MetadataVersion.java:135
        "4.1": 27,  # 4.1:SC/MetadataVersion.java:160
        "4.2": 29,  # 4.2:SC/MetadataVersion.java:151
        "4.3": 30,  # 4.3:SC/MetadataVersion.java:154
        "4.4": 30,  # 4.4:SC/MetadataVersion.java:160 (unreleased branch, UNVERIFIED what ships)
        "4.5": 33,  # master (4.5.0-SNAPSHOT):SC/MetadataVersion.java:160
    }
)

# latestTesting(): the last enum entry of each branch (master:SC/MetadataVersion.java:401-403);
# reachable only with unstable.feature.versions.enable=true (4.1:.../ServerConfigs.java:111).
LATEST_TESTING: Mapping[str, int] = MappingProxyType(
    {
        "3.9": 23,
        "4.0": 26,
        "4.1": 29,
        "4.2": 30,
        "4.3": 31,
        "4.4": 33,
        "4.5": 33,
    }
)

_RELEASE_RE = re.compile(r"^\s*v?(\d+)\.(\d+)")


def release_of(version: str) -> str | None:
    """``"4.1.2"``, ``"4.1"``, ``"8.1.0-ccs"`` (not mapped) -> ``"4.1"``; None if unparseable."""
    match = _RELEASE_RE.match(version)
    return f"{match.group(1)}.{match.group(2)}" if match else None


def _release_key(release: str) -> tuple[int, int]:
    major, minor = release.split(".")
    return int(major), int(minor)


def latest_production_of(version: str) -> int | None:
    """The highest production metadata.version a binary of ``version`` supports."""
    release = release_of(version)
    if release is None:
        return None
    if release in LATEST_PRODUCTION:
        return LATEST_PRODUCTION[release]
    known = sorted(LATEST_PRODUCTION, key=_release_key)
    if _release_key(release) > _release_key(known[-1]):
        return LATEST_PRODUCTION[known[-1]]
    return None


def parse_metadata_version(text: str | int) -> int | None:
    """A level from ``30``, ``"30"``, ``"4.3-IV0"`` or a release ``"4.3"`` (its latest
    production level)."""
    if isinstance(text, int):
        return text
    value = text.strip()
    if value.isdigit():
        return int(value)
    if value in MV_BY_NAME:
        return MV_BY_NAME[value].level
    if re.fullmatch(r"\d+\.\d+(\.\d+)?", value):
        return latest_production_of(value)
    return None


def mv_name(level: int) -> str:
    mv = MV_BY_LEVEL.get(level)
    return f"{mv.name} ({level})" if mv else str(level)


def downgrade_blocker(current: int, target: int) -> MetadataVersion | None:
    """The version that makes ``current -> target`` a metadata-changing downgrade, else None.

    ``checkIfMetadataChanged``: a downgrade H->L is allowed iff no V with L < V <= H has
    didMetadataChange (4.1:SC/MetadataVersion.java:379-405). Unknown levels count as changed.
    """
    for level in range(current, target, -1):
        mv = MV_BY_LEVEL.get(level)
        if mv is None or mv.did_metadata_change:
            return mv or _mv(level, f"?-{level}", True, "unknown level")
    return None


def lowest_reachable(current: int) -> int:
    """The lowest level a cluster at ``current`` can be downgraded to."""
    level = current
    while level - 1 >= MINIMUM_METADATA_VERSION and downgrade_blocker(current, level - 1) is None:
        level -= 1
    return level


# Controller refusals (all INVALID_UPDATE_VERSION, 95), 4.1:MC/FeatureControlManager.java:385-426.
MSG_DOWNGRADE_REFUSED = (
    "Refusing to perform the requested downgrade because it might delete metadata information."
)
MSG_UNSAFE_DOWNGRADE = "Unsafe metadata downgrade is not supported in this version."
MSG_UPDATE_FAILED_PREFIX = (  # 4.1:MC/QuorumController.java:2056
    "The update failed for all features since the following feature had an error: "
)


def msg_invalid_mv(level: int, reason: str, current: int | None = None) -> str:
    """The controller's wrapper: 3.9-4.1 ``Invalid metadata.version %d. %s``
    (4.1:MC/FeatureControlManager.java:426); 4.2+ for downgrades ``Unsupported metadata.version
    downgrade from %s to %s. %s`` (4.2:MC/FeatureControlManager.java:432)."""
    if current is not None:
        return f"Unsupported metadata.version downgrade from {current} to {level}. {reason}"
    return f"Invalid metadata.version {level}. {reason}"


# --------------------------------------------------------------------------------------------
# Finalizable features (4.1:SC/Feature.java:46-51)


@dataclass(frozen=True, slots=True)
class FeatureLevel:
    level: int
    bootstrap_mv: int  # Feature.defaultVersion(mv) picks the highest level with bootstrap <= mv
    depends: Mapping[str, int]
    meaning: str


@dataclass(frozen=True, slots=True)
class FeatureInfo:
    name: str
    levels: tuple[FeatureLevel, ...]
    latest_production: Mapping[str, int]  # per release branch; absent: the feature does not exist
    source: str
    downgradable: bool = True


def _levels(*entries: tuple[int, int, dict[str, int], str]) -> tuple[FeatureLevel, ...]:
    return tuple(FeatureLevel(lvl, mv, MappingProxyType(dep), why) for lvl, mv, dep, why in entries)


_ALL_4X = {"4.0": 0, "4.1": 0, "4.2": 0, "4.3": 0, "4.4": 0, "4.5": 0}

FEATURES: Mapping[str, FeatureInfo] = MappingProxyType(
    {
        "kraft.version": FeatureInfo(
            "kraft.version",
            _levels(
                (0, 7, {}, "static quorum (controller.quorum.voters)"),
                (1, 21, {}, "dynamic quorum (KIP-853): add/remove controllers"),
            ),
            MappingProxyType({"3.9": 1, **dict.fromkeys(_ALL_4X, 1)}),
            "4.1:SC/KRaftVersion.java:23-30,74-75; 4.1:raft/.../LeaderState.java:505-586",
            downgradable=False,  # "Can't downgrade the version of this feature." (4.1+)
        ),
        "transaction.version": FeatureInfo(
            "transaction.version",
            _levels(
                (0, 7, {}, "classic transactions"),
                (1, 24, {}, "KIP-890 part 1"),
                (2, 24, {}, "KIP-890 part 2: new transaction protocol"),
            ),
            MappingProxyType({"3.9": 0, **dict.fromkeys(_ALL_4X, 2)}),
            "4.1:SC/TransactionVersion.java:27-35",
        ),
        "group.version": FeatureInfo(
            "group.version",
            _levels(
                (0, 7, {}, "classic group protocol only"),
                (1, 22, {}, "new consumer group protocol (KIP-848)"),
            ),
            MappingProxyType(dict.fromkeys(_ALL_4X, 1)),
            "4.1:SC/GroupVersion.java:24-31",
        ),
        "eligible.leader.replicas.version": FeatureInfo(
            "eligible.leader.replicas.version",
            _levels(
                (0, 7, {}, "ELR off"),
                (1, 26, {"metadata.version": 23}, "Eligible Leader Replicas (KIP-966)"),
            ),
            MappingProxyType(dict.fromkeys(_ALL_4X, 1)),
            "4.1:SC/EligibleLeaderReplicasVersion.java:24-31",
        ),
        "share.version": FeatureInfo(
            "share.version",
            _levels(
                (0, 7, {}, "share groups off"),
                (1, 28, {}, "share groups (KIP-932)"),
                (2, 31, {}, "share groups DLQ (KIP-1191)"),
            ),
            MappingProxyType({"4.1": 1, "4.2": 1, "4.3": 1, "4.4": 1, "4.5": 2}),
            "4.1:SC/ShareVersion.java:24-32; master:SC/ShareVersion.java:24-35",
        ),
        "streams.version": FeatureInfo(
            "streams.version",
            _levels(
                (0, 7, {}, "streams groups off"),
                (1, 29, {}, "streams groups (KIP-1071)"),
            ),
            MappingProxyType({"4.1": 0, "4.2": 1, "4.3": 1, "4.4": 1, "4.5": 1}),
            "4.1:SC/StreamsVersion.java:24-36; 4.2:SC/StreamsVersion.java:24-32",
        ),
    }
)

METADATA_VERSION = "metadata.version"
KRAFT_VERSION = "kraft.version"
ELR_FEATURE = "eligible.leader.replicas.version"
ELR_MIN_METADATA_VERSION = 23  # 4.1:SC/EligibleLeaderReplicasVersion.java:24-31 (4.0-IV1)
FEATURE_MIN_METADATA_VERSION = 7  # any level >= 1 needs MV >= 3.3-IV3, 4.1:SC/Feature.java:164-179
KRAFT_UPGRADE_MIN_RELEASE = "4.1"  # static -> dynamic quorum, 4.1:docs/operations/kraft.md:67-103


def feature_default(feature: str, mv: int) -> int:
    """``Feature.defaultVersion(mv)`` (4.1:SC/Feature.java:191-201)."""
    info = FEATURES[feature]
    return max((fl.level for fl in info.levels if fl.bootstrap_mv <= mv), default=0)


def feature_dependencies(feature: str, level: int) -> Mapping[str, int]:
    """What ``feature=level`` depends on, including MV >= 7 for any level >= 1."""
    deps: dict[str, int] = {}
    if level >= 1:
        deps[METADATA_VERSION] = FEATURE_MIN_METADATA_VERSION
    for fl in FEATURES[feature].levels if feature in FEATURES else ():
        if fl.level == level:
            deps.update({k: max(v, deps.get(k, 0)) for k, v in fl.depends.items()})
    return deps


def msg_feature_dependency(feature: str, level: int, dep: str, dep_level: int) -> str:
    """``Feature.validateVersion`` (4.1:SC/Feature.java:164-179)."""
    if dep == METADATA_VERSION:
        return (
            f"{feature} could not be set to {level} because it depends on "
            f"metadata.version={dep_level} ({MV_BY_LEVEL[dep_level].name})"
            if dep_level in MV_BY_LEVEL
            else f"{feature} could not be set to {level} because it depends on "
            f"metadata.version={dep_level}"
        )
    return f"{feature} could not be set to {level} because it depends on {dep} level {dep_level}"


@cache
def release_version_levels(mv: int) -> Mapping[str, int]:
    """What ``kafka-features.sh upgrade --release-version`` sends for ``mv``: metadata.version
    plus every production feature at its default for ``mv`` (4.1:tools/.../FeatureCommand.java:
    294-314; on an upgrade, 0 levels are skipped by the tool, the caller decides)."""
    levels = {METADATA_VERSION: mv}
    for name in FEATURES:
        levels[name] = feature_default(name, mv)
    return MappingProxyType(levels)


def supported_range(feature: str, version: str) -> tuple[int, int] | None:
    """The range a node of software ``version`` advertises for ``feature`` (None: not advertised).

    metadata.version: ``[7, LATEST_PRODUCTION]``; others ``[0, latestProduction]``, and a feature
    whose latestProduction is 0 is not advertised (4.1:server/.../BrokerFeatures.java:67-81).
    """
    release = release_of(version)
    if release is None:
        return None
    if feature == METADATA_VERSION:
        top = latest_production_of(version)
        return None if top is None else (MINIMUM_METADATA_VERSION, top)
    info = FEATURES.get(feature)
    if info is None:
        return None
    known = sorted(info.latest_production, key=_release_key)
    if release not in info.latest_production:
        if not known or _release_key(release) < _release_key(known[0]):
            return None
        release = known[-1] if _release_key(release) > _release_key(known[-1]) else release
    top = info.latest_production.get(release, 0)
    return (0, top) if top > 0 else None


# --------------------------------------------------------------------------------------------
# Configs


@dataclass(frozen=True, slots=True)
class ConfigDefault:
    name: str
    default: str
    scopes: tuple[str, ...]
    source: str


CONFIG_DEFAULTS: Mapping[str, ConfigDefault] = MappingProxyType(
    {
        c.name: c
        for c in (
            ConfigDefault(
                "unclean.leader.election.enable",
                "false",
                ("broker", "topic"),
                "4.1:storage/.../LogConfig.java:133; ReplicationConfigs.java:118,158",
            ),
            ConfigDefault(
                "min.insync.replicas",
                "1",
                ("broker", "topic"),
                "4.1:server-common/.../ServerLogConfigs.java:138-139; LogConfig.java:221",
            ),
            ConfigDefault(
                "default.replication.factor", "1", ("broker",), "ReplicationConfigs.java:41-44"
            ),
            ConfigDefault("num.partitions", "1", ("broker",), "ServerLogConfigs.java:33-34"),
            ConfigDefault(
                "broker.session.timeout.ms", "9000", ("broker",), "4.1:KRaftConfigs.java:43-44"
            ),
            ConfigDefault(
                "replica.lag.time.max.ms", "30000", ("broker",), "ReplicationConfigs.java:46-47"
            ),
            ConfigDefault(
                "auto.leader.rebalance.enable",
                "true",
                ("broker",),
                "ReplicationConfigs.java:135-136",
            ),
            ConfigDefault(
                "leader.replication.throttled.rate",
                str(2**63 - 1),
                ("broker",),
                "4.1:server-common/.../QuotaConfig.java:75-78",
            ),
            ConfigDefault(
                "follower.replication.throttled.rate",
                str(2**63 - 1),
                ("broker",),
                "4.1:server-common/.../QuotaConfig.java:80-83",
            ),
            ConfigDefault(
                "replica.alter.log.dirs.io.max.bytes.per.second",
                str(2**63 - 1),
                ("broker",),
                "4.1:server-common/.../QuotaConfig.java:84-86",
            ),
            ConfigDefault(
                "leader.replication.throttled.replicas", "", ("topic",), "QuotaConfig.java:60-65"
            ),
            ConfigDefault(
                "follower.replication.throttled.replicas", "", ("topic",), "QuotaConfig.java:67-72"
            ),
            ConfigDefault(
                "enable.under.replicated.topic.creation",
                "false",
                ("broker",),
                "KIP-409 draft (not implemented in any Apache branch)",
            ),
        )
    }
)

MIN_INSYNC_REPLICAS = "min.insync.replicas"
UNCLEAN_LEADER_ELECTION = "unclean.leader.election.enable"
UNDER_REPLICATED_CREATION = "enable.under.replicated.topic.creation"
THROTTLE_RATE_KEYS = (
    "leader.replication.throttled.rate",
    "follower.replication.throttled.rate",
    "replica.alter.log.dirs.io.max.bytes.per.second",
)
THROTTLED_REPLICAS_KEYS = (
    "leader.replication.throttled.replicas",
    "follower.replication.throttled.replicas",
)

# "It is suggested that the limit be kept above 1MB/s for accurate behaviour."
# (4.1:server-common/.../QuotaConfig.java:78,83,86; the CLI help says 1 KB/s)
THROTTLE_MIN_RECOMMENDED = 1_000_000

# Disk usage alert levels of the Kafka lifecycle operations guide ("Alert at 70% / 85%").
DISK_WARN_RATIO = 0.70
DISK_CRITICAL_RATIO = 0.85

# Config refusals while ELR is enabled, INVALID_CONFIG (40),
# 4.1:MC/ConfigurationControlManager.java:394-427.
MSG_ELR_BROKER_MIN_ISR = "Broker-level min.insync.replicas cannot be altered while ELR is enabled."
MSG_ELR_CLUSTER_MIN_ISR_REMOVAL = (
    "Cluster-level min.insync.replicas cannot be removed while ELR is enabled."
)

# Other controller messages.
MSG_ADD_VOTER_KRAFT0 = (  # 4.1:raft/.../internals/AddVoterHandler.java:113-126
    "Cluster doesn't support adding voter because the kraft.version feature is 0"
)
MSG_REMOVE_VOTER_KRAFT0 = (  # 4.1:raft/.../internals/RemoveVoterHandler.java:108-110
    "Cluster doesn't support removing voter because the kraft.version feature is 0"
)
MSG_VOTER_CHANGE_PENDING = (  # 4.1:raft/.../internals/AddVoterHandler.java:129-142
    "Request timed out waiting for leader to handle previous voter change request"
)


def msg_cancel_unclean(topic: str, partition: int) -> str:
    """4.1:MC/ReplicationControlManager.java:2120-2153 (INVALID_REPLICA_ASSIGNMENT)."""
    return (
        f"Unable to revert partition assignment for {topic}:{partition} because it would "
        "require an unclean leader election."
    )


def msg_rf_unreachable(rf: int, registered: int) -> str:
    """4.1:metadata/.../placement/StripedReplicaPlacer.java:411-417 (INVALID_REPLICATION_FACTOR)."""
    return (
        f"Unable to replicate the partition {rf} time(s): The target replication factor of {rf} "
        f"cannot be reached because only {registered} broker(s) are registered."
    )
