"""Gather what each captured output says, section by section, refusing contradictions."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest.api_versions import ApiVersionsOutput
from cluster_engine.ingest.configs import ConfigBlock, ConfigsDescribe
from cluster_engine.ingest.detect import Section
from cluster_engine.ingest.facts import Facts
from cluster_engine.ingest.features import FeaturesDescribe, level_of
from cluster_engine.ingest.log_dirs import LogDirsDescribe
from cluster_engine.ingest.partition_store import PartitionStore
from cluster_engine.ingest.quorum import ClusterId, Member, QuorumReplication, QuorumStatus
from cluster_engine.ingest.reassign import ReassignmentJson, ReassignOutput
from cluster_engine.ingest.topics import TopicsDescribe
from cluster_engine.snapshot import FeatureRange, LogDir, VendorFeature

# Sections that record actions or proposals, not the cluster's state.
INFORMATIONAL = frozenset({"feature-version-mapping", "feature-updates", "topics-to-move-json"})


class Builder:
    """What the captures say, gathered section by section for ``build``."""

    def __init__(self) -> None:
        self.facts = Facts()
        self.brokers: set[int] = set()
        self.voters: set[int] = set()
        self.observers: set[int] = set()
        self.feature_names: set[str] = set()
        self.vendor: set[str] = set()
        self.ranges: dict[str, list[int]] = {}
        self.node_ranges: defaultdict[int, dict[str, FeatureRange]] = defaultdict(dict)
        self.headers: dict[str, tuple[int, str, int]] = {}  # topic -> (count, path, line)
        self.partitions = PartitionStore()
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
        rows = d.rows

        def moving(j: int) -> None:
            if rows.adding[j] or rows.removing[j]:
                tp = (rows.topic[j], rows.number[j])
                replicas, adding, removing = rows.replicas[j], rows.adding[j], rows.removing[j]
                self._reassignment(
                    s.path, rows.line[j], tp, "in-progress", replicas, adding, removing
                )

        self.partitions.add(s.path, rows, moving)

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
