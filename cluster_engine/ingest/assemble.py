"""Merge what the captured outputs say into one snapshot, refusing contradictions.

Every fact is recorded with the file and line it came from; a second source that says
something different is an error naming both. Outputs that describe an action or a proposal
rather than the cluster's state (feature updates, version mapping, ``--generate`` proposals,
``--execute`` rollback blocks, throttle-clearing lines) are read and checked, but add no facts.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Hashable, Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest.api_versions import ApiVersionsOutput
from cluster_engine.ingest.configs import ConfigBlock, ConfigsDescribe
from cluster_engine.ingest.detect import Section, read_file
from cluster_engine.ingest.features import FeaturesDescribe, level_of
from cluster_engine.ingest.log_dirs import LogDirsDescribe
from cluster_engine.ingest.quorum import ClusterId, Member, QuorumReplication, QuorumStatus
from cluster_engine.ingest.reassign import ReassignmentJson, ReassignOutput
from cluster_engine.ingest.topics import PartitionLine, TopicsDescribe
from cluster_engine.snapshot import (
    FACT_KINDS,
    FactKind,
    FeatureRange,
    LogDir,
    Snapshot,
    UnreadFile,
    VendorFeature,
)

PARTITION_FIELDS = (
    "Replicas",
    "Leader",
    "Isr",
    "Adding Replicas",
    "Removing Replicas",
    "MarkedForDeletion",
    "Elr",
    "LastKnownElr",
)

# Sections that record actions or proposals, not the cluster's state.
INFORMATIONAL = frozenset({"feature-version-mapping", "feature-updates", "topics-to-move-json"})


class _Facts:
    """Values keyed by what they describe, each remembering where it was read."""

    def __init__(self) -> None:
        self.values: dict[Hashable, tuple[Any, str, int]] = {}

    def put(self, key: Hashable, value: Any, path: str, line: int, what: str) -> None:
        old = self.values.get(key)
        if old is None:
            self.values[key] = (value, path, line)
        elif old[0] != value:
            raise ClusterInputError(
                path,
                line,
                f"{what} is {_show(value)} here, but {old[1]}:{old[2]} says {_show(old[0])}",
            )

    def get(self, key: Hashable, default: Any = None) -> Any:
        found = self.values.get(key)
        return found[0] if found is not None else default

    def has(self, key: Hashable) -> bool:
        return key in self.values


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ",".join(str(v) for v in value) + "]"
    return repr(value) if isinstance(value, str) else str(value)


# The kinds of facts each kind of capture gives (Snapshot.facts).
FACTS_OF: dict[str, tuple[FactKind, ...]] = {
    "topics": ("topics",),
    "configs": ("configs",),
    "features": ("features",),
    "quorum-status": ("quorum",),
    "quorum-replication": ("quorum",),
    "log-dirs": ("log-dirs",),
    "reassign": ("reassignments",),
    "api-versions": ("nodes",),
}


def assemble_dir(directory: Path) -> Snapshot:
    """A snapshot from the files at the top of a folder of captures.

    Hidden files, subdirectories, other non-regular files and files the system refuses to read
    are not read: the snapshot names each with the reason (``Snapshot.unread``)."""
    if not directory.is_dir():
        raise ClusterInputError(str(directory), None, "not a directory of captured outputs")
    sections: list[Section] = []
    unread: list[UnreadFile] = []
    for path in sorted(directory.iterdir()):
        reason = _skipped(path)
        if reason is None:
            try:
                sections.extend(read_file(path))
                continue
            except OSError as error:
                reason = f"cannot read it: {error.strerror or error}"
        unread.append(UnreadFile(path=str(path), reason=reason))
    if not sections:
        skipped = "; ".join(f"{Path(u.path).name}: {u.reason}" for u in unread)
        detail = f" ({skipped})" if skipped else ""
        raise ClusterInputError(
            str(directory), None, f"no captured outputs in this directory{detail}"
        )
    return assemble(sections, unread=unread)


def _skipped(path: Path) -> str | None:
    if path.name.startswith("."):
        return "a hidden file"
    if path.is_dir():
        return "a subdirectory: only the files at the top of the capture directory are read"
    if not path.is_file():
        return "not a regular file"
    return None


def assemble(sections: Iterable[Section], *, unread: Iterable[UnreadFile] = ()) -> Snapshot:
    builder = _Builder()
    paths: list[str] = []
    kinds: set[FactKind] = set()
    for section in sections:
        try:
            builder.add(section)
        except ValidationError as error:  # a value out of its Kafka range, in this section
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            message = f"impossible value: {error.title}.{where}: {first['msg']}"
            raise ClusterInputError(section.path, section.line, message) from None
        paths.append(section.path)
        kinds.update(FACTS_OF.get(section.kind, ()))
    try:
        snapshot = builder.build()
        return snapshot.model_copy(
            update={
                "facts": tuple(k for k in FACT_KINDS if k in kinds),
                "unread": tuple(unread),
            }
        )
    except ValidationError as error:  # a value no cluster can have, that no reader caught
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        source = os.path.commonpath(paths) if paths else "<captures>"
        message = f"impossible value in the assembled snapshot: {where}: {first['msg']}"
        raise ClusterInputError(source, None, message) from None


class _Builder:
    def __init__(self) -> None:
        self.facts = _Facts()
        self.brokers: set[int] = set()
        self.voters: set[int] = set()
        self.observers: set[int] = set()
        self.feature_names: set[str] = set()
        self.vendor: set[str] = set()
        self.ranges: dict[str, list[int]] = {}
        self.node_ranges: defaultdict[int, dict[str, FeatureRange]] = defaultdict(dict)
        self.headers: dict[str, tuple[int, str, int]] = {}  # topic -> (count, path, line)
        self.partitions: dict[tuple[str, int], tuple[tuple[Any, ...], str, int]] = {}
        self.topic_configs: defaultdict[str, dict[str, str]] = defaultdict(dict)
        self.configs: dict[str, defaultdict[Any, dict[str, str | None]]] = {
            scope: defaultdict(dict) for scope in ("cluster", "broker", "static", "topic")
        }
        self.reassign: dict[tuple[str, int], tuple[str, int]] = {}
        self.no_reassignments: tuple[str, int] | None = None
        self.plans: list[tuple[ReassignmentJson, str]] = []
        self.log_dirs: dict[tuple[int, str], LogDir] = {}
        self.nodes_seen: set[int] = set()

    # -- per kind ------------------------------------------------------------------------------

    def add(self, s: Section) -> None:
        if s.kind in INFORMATIONAL:
            return
        handler = getattr(self, "_" + s.kind.replace("-", "_"))
        handler(s, s.data)

    def _features(self, s: Section, d: FeaturesDescribe) -> None:
        f = self.facts
        for line in d.features:
            level = level_of(line.name, line.finalized)
            lo, hi = (
                level_of(line.name, line.supported_min),
                level_of(line.name, line.supported_max),
            )
            if level is None or lo is None or hi is None:
                if line.name.startswith("confluent.") or not line.name.endswith(".version"):
                    f.put(
                        ("vendor", line.name),
                        VendorFeature(
                            finalized=line.finalized,
                            supported_min=line.supported_min,
                            supported_max=line.supported_max,
                            epoch=line.epoch,
                        ),
                        s.path,
                        line.line,
                        f"feature {line.name}",
                    )
                    self.vendor.add(line.name)
                    continue
                bad = next(
                    v
                    for v, lv in (
                        (line.finalized, level),
                        (line.supported_min, lo),
                        (line.supported_max, hi),
                    )
                    if lv is None
                )
                raise ClusterInputError(s.path, line.line, f"{line.name}: unknown level {bad!r}")
            self.feature_names.add(line.name)
            f.put(("feature", line.name), level, s.path, line.line, f"finalized {line.name}")
            if not line.finalized.isdigit() and not line.finalized.startswith("UNKNOWN"):
                f.put(
                    ("feature-label", line.name),
                    line.finalized,
                    s.path,
                    line.line,
                    f"{line.name} label",
                )
            if line.epoch is not None:
                f.put(("feature-epoch",), line.epoch, s.path, line.line, "finalized features epoch")
            if d.node_id is not None:
                self.node_ranges[d.node_id][line.name] = FeatureRange(min=lo, max=hi)
                self.nodes_seen.add(d.node_id)
            # Several answering nodes: keep what all of them support.
            old = self.ranges.get(line.name)
            self.ranges[line.name] = [max(lo, old[0]), min(hi, old[1])] if old else [lo, hi]

    def _topics(self, s: Section, d: TopicsDescribe) -> None:
        f = self.facts
        for h in d.headers:
            t = h.topic
            f.put(("topic-count", t), h.partition_count, s.path, h.line, f"{t} PartitionCount")
            if h.topic_id is not None:
                f.put(("topic-id", t), h.topic_id, s.path, h.line, f"{t} TopicId")
            f.put(
                ("topic-deleting", t),
                h.marked_for_deletion,
                s.path,
                h.line,
                f"{t} MarkedForDeletion",
            )
            for name, value in h.configs:
                f.put(("topic-described", t, name), value, s.path, h.line, f"{t} config {name}")
                self.topic_configs[t][name] = value
            self.headers.setdefault(t, (h.partition_count, s.path, h.line))
            f.put(("topic-rf", t), h.replication_factor, s.path, h.line, f"{t} ReplicationFactor")
        for p in d.partitions:
            self._partition(s, p)

    def _partition(self, s: Section, p: PartitionLine) -> None:
        # One record per partition (not one fact per field): describes can be 200k lines long.
        tp = (p.topic, p.partition)
        new = (
            p.replicas,
            p.leader,
            p.isr,
            p.adding,
            p.removing,
            p.marked_for_deletion,
            p.elr,
            p.last_known_elr,
        )
        old = self.partitions.get(tp)
        if old is None:
            self.partitions[tp] = (new, s.path, p.line)
        elif old[0] != new:
            merged = list(old[0])
            for k, (was, now) in enumerate(zip(old[0], new, strict=True)):
                if was == now:
                    continue
                if PARTITION_FIELDS[k] in ("Elr", "LastKnownElr") and None in (was, now):
                    merged[k] = was if now is None else now  # N/A: unknown, not empty
                    continue
                raise ClusterInputError(
                    s.path,
                    p.line,
                    f"{p.topic}-{p.partition} {PARTITION_FIELDS[k]} is "
                    f"{_show(now)} here, but {old[1]}:{old[2]} says {_show(was)}",
                )
            self.partitions[tp] = (tuple(merged), old[1], old[2])
        self.brokers.update(p.replicas, p.isr, p.elr or (), p.last_known_elr or ())
        if p.leader is not None:
            self.brokers.add(p.leader)
        if p.adding or p.removing:
            self._reassignment(s.path, p.line, tp, "in-progress", p.replicas, p.adding, p.removing)

    def _reassignment(
        self,
        path: str,
        line: int,
        tp: tuple[str, int],
        state: str,
        replicas: tuple[int, ...] | None = None,
        adding: tuple[int, ...] = (),
        removing: tuple[int, ...] = (),
        target: tuple[int, ...] | None = None,
    ) -> None:
        f, at = self.facts, f"{tp[0]}-{tp[1]}"
        f.put(("reassign", tp, "state"), state, path, line, f"reassignment of {at}")
        if replicas is not None:
            f.put(("reassign", tp, "replicas"), replicas, path, line, f"{at} replicas")
        if state == "in-progress" and (adding or removing or replicas is not None):
            f.put(("reassign", tp, "adding"), adding, path, line, f"{at} adding replicas")
            f.put(("reassign", tp, "removing"), removing, path, line, f"{at} removing replicas")
        if target is not None:
            f.put(("reassign", tp, "target"), target, path, line, f"{at} target replicas")
        self.reassign.setdefault(tp, (path, line))

    def _reassign(self, s: Section, d: ReassignOutput) -> None:
        for st in d.statuses:
            self._reassignment(
                s.path,
                st.line,
                (st.topic, st.partition),
                st.state,
                replicas=st.current,
                target=st.target,
            )
        for r in d.listed:
            self._reassignment(
                s.path,
                r.line,
                (r.topic, r.partition),
                "in-progress",
                r.replicas,
                r.adding,
                r.removing,
            )
        if d.listed_none and self.no_reassignments is None:
            self.no_reassignments = (s.path, s.line)

    def _reassignment_json(self, s: Section, d: ReassignmentJson) -> None:
        self.plans.append((d, s.path))

    def _configs(self, s: Section, d: ConfigsDescribe) -> None:
        for block in d.blocks:
            self._config_block(s.path, block)

    def _config_block(self, path: str, b: ConfigBlock) -> None:
        if b.entity_type is None:
            raise ClusterInputError(
                path,
                b.line,
                "config entries without a 'Dynamic configs "
                "for <entity> are:' header: their entity is unknown",
            )
        if b.missing or b.entity_type not in ("broker", "broker-default", "topic"):
            return  # groups, client metrics, quotas, users: not part of the snapshot
        own = {
            "broker": "DYNAMIC_BROKER_CONFIG",
            "broker-default": "DYNAMIC_DEFAULT_BROKER_CONFIG",
            "topic": "DYNAMIC_TOPIC_CONFIG",
        }[b.entity_type]
        scope = {"broker": "broker", "broker-default": "cluster", "topic": "topic"}[b.entity_type]
        entity: Any = None
        if b.entity_type == "broker":
            if b.entity_name is None or not b.entity_name.lstrip("-").isdigit():
                raise ClusterInputError(path, b.line, f"broker {b.entity_name!r}: expected an id")
            entity = int(b.entity_name)
        elif b.entity_type == "topic":
            entity = b.entity_name
        self.configs[scope][entity]  # an entity described with no override has none: record it
        mine = [
            e for e in b.entries if b.legacy or e.source == own or (not b.all and e.source is None)
        ]
        # The block lists every dynamic value of its entity: a second block must list the same.
        where = "cluster default" if entity is None else f"{b.entity_type} {entity}"
        self.facts.put(
            ("config-set", scope, entity),
            tuple(sorted(e.name for e in mine)),
            path,
            b.line,
            f"the set of {where} dynamic configs",
        )
        for e in mine:
            self._config(path, e.line, scope, entity, e.name, e.value)
        for e in b.entries:
            for source, name, value in e.synonyms:
                if source == "DYNAMIC_DEFAULT_BROKER_CONFIG":
                    self._config(path, e.line, "cluster", None, name, value)
                elif b.entity_type == "broker" and source == "STATIC_BROKER_CONFIG":
                    self._config(path, e.line, "static", entity, name, value)
                elif b.entity_type == "broker" and source == "DYNAMIC_BROKER_CONFIG":
                    self._config(path, e.line, "broker", entity, name, value)

    def _config(
        self, path: str, line: int, scope: str, entity: Any, name: str, value: str | None
    ) -> None:
        where = {
            "cluster": "cluster default",
            "broker": f"broker {entity}",
            "static": f"broker {entity} static",
            "topic": f"topic {entity}",
        }[scope]
        self.facts.put(("config", scope, entity, name), value, path, line, f"{where} {name}")
        self.configs[scope][entity][name] = value

    def _quorum_status(self, s: Section, d: QuorumStatus) -> None:
        f = self.facts
        if d.cluster_id is not None:
            f.put(("cluster-id",), d.cluster_id, s.path, d.line, "ClusterId")
        for key, value in (
            ("LeaderId", d.leader_id),
            ("LeaderEpoch", d.leader_epoch),
            ("HighWatermark", d.high_watermark),
            ("MaxFollowerLag", d.max_follower_lag),
            ("MaxFollowerLagTimeMs", d.max_follower_lag_time_ms),
        ):
            if value is not None:
                f.put(("quorum", key), value, s.path, d.line, key)
        for members, role in ((d.voters, "voter"), (d.observers, "observer")):
            for m in members or ():
                self._member(s, d.line, m, role)

    def _member(self, s: Section, line: int, m: Member, role: str) -> None:
        f = self.facts
        f.put(("member", m.id), role, s.path, line, f"node {m.id} quorum role")
        (self.voters if role == "voter" else self.observers).add(m.id)
        if m.directory_id is not None:
            f.put(
                ("member", m.id, "dir"), m.directory_id, s.path, line, f"node {m.id} directory id"
            )
        if m.endpoints:
            f.put(
                ("member", m.id, "endpoints"), m.endpoints, s.path, line, f"node {m.id} endpoints"
            )

    def _quorum_replication(self, s: Section, d: QuorumReplication) -> None:
        f = self.facts
        for r in d.rows:
            role = "observer" if r.status == "Observer" else "voter"
            self._member(s, r.line, Member(r.node_id, r.directory_id, ()), role)
            if r.status == "Leader":
                f.put(("quorum", "LeaderId"), r.node_id, s.path, r.line, "LeaderId")
            for key, value in (
                ("leo", r.log_end_offset),
                ("lag", r.lag),
                ("fetch", r.last_fetch_timestamp),
                ("caught-up", r.last_caught_up_timestamp),
            ):
                if value is not None:
                    f.put(
                        ("member", r.node_id, key), value, s.path, r.line, f"node {r.node_id} {key}"
                    )

    def _cluster_id(self, s: Section, d: ClusterId) -> None:
        self.facts.put(("cluster-id",), d.cluster_id, s.path, d.line, "cluster id")

    def _log_dirs(self, s: Section, d: LogDirsDescribe) -> None:
        for ld in d.log_dirs:
            old = self.log_dirs.get((ld.broker, ld.path))
            if old is not None and old != ld:
                raise ClusterInputError(
                    s.path,
                    d.line,
                    f"broker {ld.broker} log dir {ld.path} "
                    "differs from an earlier kafka-log-dirs output",
                )
            self.log_dirs[(ld.broker, ld.path)] = ld
            self.brokers.add(ld.broker)

    def _api_versions(self, s: Section, d: ApiVersionsOutput) -> None:
        f = self.facts
        for n in d.nodes:
            if n.node_id < 0:
                continue  # the bootstrap connection, not a registered node
            self.brokers.add(n.node_id)
            f.put(
                ("node", n.node_id, "host"),
                (n.host, n.port),
                s.path,
                n.line,
                f"node {n.node_id} address",
            )
            f.put(("node", n.node_id, "rack"), n.rack, s.path, n.line, f"node {n.node_id} rack")
            if n.fenced is not None:
                f.put(
                    ("node", n.node_id, "fenced"),
                    n.fenced,
                    s.path,
                    n.line,
                    f"node {n.node_id} isFenced",
                )

    # -- the snapshot --------------------------------------------------------------------------

    def build(self) -> Snapshot:
        from cluster_engine.ingest.build import build

        return build(self)
