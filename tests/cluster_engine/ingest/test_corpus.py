"""Every real capture in ../shared/corpus/cli/ is read, and what it yields is pinned here.

Files are read in place (never copied). Several files hold captures of different clusters or
moments; reading them section by section works, and assembling them into one snapshot is
refused with an error naming both conflicting lines, which is also pinned.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest import assemble, load_snapshot
from cluster_engine.ingest.detect import Section, read_file, read_text
from cluster_engine.snapshot import ReassignmentState, Role, Snapshot
from tests.conftest import CLI_CORPUS, corpus_files, corpus_id

STALE_DOCS = "kafka-reassign-configs-topics_docs-4.1-stale-formats.txt"


def sections(corpus: Path, name: str) -> list[Section]:
    return read_file(corpus / name)


def kinds(found: list[Section]) -> list[tuple[str, int]]:
    return [(s.kind, s.line) for s in found]


@pytest.mark.parametrize("path", corpus_files("cli", "*.txt"), ids=corpus_id)
def test_every_corpus_file_is_read_to_the_end(path: Path) -> None:
    if path.name == STALE_DOCS:
        # The docs print log_dirs ["any"] for two-replica partitions: a JSON the tool refuses.
        with pytest.raises(ClusterInputError, match=r":19: foo1-0: Size of replicas list"):
            read_file(path)
    else:
        assert read_file(path)


def test_the_corpus_is_all_covered(cli_corpus: Path) -> None:
    names = {p.name for p in cli_corpus.iterdir() if p.suffix == ".txt"}
    assert names == set(EXPECTED_FILES)


def test_api_versions_4x(cli_corpus: Path) -> None:
    (s,) = sections(cli_corpus, "kafka-broker-api-versions_4.x.txt")
    (node,) = s.data.nodes
    assert (node.host, node.port, node.node_id, node.rack, node.fenced) == (
        "broker-1",
        19092,
        4,
        None,
        False,
    )
    assert len(node.apis) == 8
    assert (node.apis[1].name, node.apis[1].min, node.apis[1].max, node.apis[1].usable) == (
        "Fetch",
        4,
        18,
        18,
    )
    assert [a.name for a in node.apis if a.min is None] == [
        "GetTelemetrySubscriptions",
        "StreamsGroupHeartbeat",
    ]
    snap = load_snapshot(cli_corpus / "kafka-broker-api-versions_4.x.txt")
    assert [(n.id, n.host, n.port, n.fenced, n.roles) for n in snap.nodes] == [
        (4, "broker-1", 19092, False, frozenset({Role.BROKER}))
    ]


def test_configs_examples(cli_corpus: Path) -> None:
    found = sections(cli_corpus, "kafka-configs_describe_examples.txt")
    assert kinds(found) == [("configs", 13), ("configs", 20), ("configs", 24), ("configs", 27)]
    orphan = found[0].data.blocks[0]
    assert orphan.entity_type is None
    assert [(e.name, e.value, e.source) for e in orphan.entries][:2] == [
        ("consumer.session.timeout.ms", "50000", "DYNAMIC_GROUP_CONFIG"),
        ("metrics", "org.apache", "DYNAMIC_CLIENT_METRICS_CONFIG"),
    ]
    (broker,) = found[1].data.blocks
    assert (broker.entity_type, broker.entity_name) == ("broker", "1")
    assert broker.entries[0].synonyms == (
        ("DYNAMIC_BROKER_CONFIG", "log.cleaner.threads", "2"),
        ("DEFAULT_CONFIG", "log.cleaner.threads", "1"),
    )
    (topic,) = found[2].data.blocks
    assert (topic.entity_name, topic.entries[0].name, topic.entries[0].value) == (
        "configured-topic",
        "max.message.bytes",
        "64000",
    )
    override, empty = found[3].data.blocks
    assert (override.entity_name, override.entries[0].value) == (
        "platform.scooter.user.change",
        "2",
    )
    assert (empty.entity_name, empty.entries) == ("reviews.raw", ())
    # The test-assertion substrings have no header: their entity cannot be known.
    with pytest.raises(ClusterInputError, match=r"examples.txt:13: config entries without"):
        load_snapshot(cli_corpus / "kafka-configs_describe_examples.txt")
    rest = assemble_from(found[1:])
    assert rest.configs.brokers == {1: {"log.cleaner.threads": "2"}}
    assert rest.configs.topics == {
        "configured-topic": {"max.message.bytes": "64000"},
        "platform.scooter.user.change": {"min.insync.replicas": "2"},
        "reviews.raw": {},
    }
    assert rest.min_insync_replicas("platform.scooter.user.change") == 2
    assert rest.min_insync_replicas("reviews.raw") == 1


def assemble_from(found: list[Section]) -> Snapshot:
    return assemble(found)


def test_features_4_1_test_assertions(cli_corpus: Path) -> None:
    snap = load_snapshot(cli_corpus / "kafka-features_describe_4.1_test-assertions.txt")
    assert {k: v.level for k, v in snap.features.items()} == {
        "eligible.leader.replicas.version": 0,
        "group.version": 0,
        "kraft.version": 0,
        "metadata.version": 7,
        "share.version": 0,
        "streams.version": 0,
        "transaction.version": 0,
    }
    mv = snap.features["metadata.version"]
    assert (mv.label, mv.supported_min, mv.supported_max, mv.epoch) == ("3.3-IV3", 7, 29, None)
    assert snap.features["transaction.version"].supported_max == 2


def test_features_4_3_padded_and_version_mapping(cli_corpus: Path) -> None:
    found = sections(cli_corpus, "kafka-features_describe_4.3-padded_thirdparty.txt")
    assert kinds(found) == [("features", 9), ("feature-version-mapping", 16)]
    assert found[1].data.release == "4.3"
    assert dict(found[1].data.levels) == {
        "metadata.version": 30,
        "kraft.version": 1,
        "transaction.version": 2,
        "group.version": 1,
        "eligible.leader.replicas.version": 1,
        "share.version": 1,
        "streams.version": 1,
    }
    snap = load_snapshot(cli_corpus / "kafka-features_describe_4.3-padded_thirdparty.txt")
    assert snap.metadata_version is not None
    assert (snap.metadata_version.level, snap.metadata_version.label) == (30, "4.3-IV0")
    assert snap.metadata_version.epoch == 6420
    assert snap.elr_enabled
    assert snap.kraft_version == 0
    assert snap.feature_level("streams.version") == 1


def test_features_confluent_unknown_mv(cli_corpus: Path) -> None:
    snap = load_snapshot(cli_corpus / "kafka-features_describe_cp-8.1-unknown-mv_thirdparty.txt")
    mv = snap.features["metadata.version"]
    assert (mv.level, mv.label, mv.supported_max, mv.epoch) == (0, None, 27, 11368)
    cp = snap.vendor_features["confluent.metadata.version"]
    assert (cp.finalized, cp.supported_min, cp.supported_max) == (
        "CP-8.1-IV1A",
        "CP-7.3-IV3",
        "CP-8.1-IV1A",
    )
    assert len(snap.features) == 7


def test_features_docs_kraft_md(cli_corpus: Path) -> None:
    found = sections(cli_corpus, "kafka-features_describe_docs-4.1-kraft-md.txt")
    # Four captures (the docs' "..." and "# ---" lines separate them), of four clusters.
    assert kinds(found) == [("features", 8), ("features", 11), ("features", 14), ("features", 16)]
    levels = [{f.name: f.finalized for f in s.data.features} for s in found]
    assert levels == [
        {"kraft.version": "0", "metadata.version": "4.0-IV3"},
        {"kraft.version": "0", "metadata.version": "3.9-IV0"},
        {"metadata.version": "3.8-IV0"},
        {"kraft.version": "1", "metadata.version": "3.9-IV0"},
    ]
    dynamic = assemble_from(found[3:])
    assert dynamic.kraft_version == 1
    assert dynamic.features["metadata.version"].level == 21
    with pytest.raises(
        ClusterInputError,
        match=r"kraft-md.txt:11: finalized features epoch is 5 "
        r"here, but .*kraft-md.txt:8 says 7",
    ):
        assemble_from(found)


def test_feature_update_results(cli_corpus: Path) -> None:
    name = "kafka-features_upgrade-downgrade-errors_4.1_test-assertions.txt"
    found = sections(cli_corpus, name)
    assert {s.kind for s in found} == {"feature-updates"}
    updates = [u for s in found for u in s.data.updates]
    assert len(updates) == 15
    assert (updates[0].feature, updates[0].operation, updates[0].level, updates[0].ok) == (
        "metadata.version",
        "upgrade",
        7,
        True,
    )
    refused = [u for u in updates if not u.ok]
    assert [(u.operation, u.level) for u in refused] == [
        ("disable", None),
        ("downgrade", 7),
        ("downgrade", 7),
        ("upgrade", 18),
    ]
    assert refused[1].message is not None
    assert "Refusing to perform the requested downgrade" in refused[1].message
    assert [u.feature for u in updates[-7:]] == [
        "eligible.leader.replicas.version",
        "group.version",
        "kraft.version",
        "metadata.version",
        "share.version",
        "streams.version",
        "transaction.version",
    ]
    # Results of actions, not the cluster's state: the snapshot learns nothing from them.
    assert load_snapshot(cli_corpus / name).features == {}


def test_log_dirs_scala_era(cli_corpus: Path) -> None:
    (s,) = sections(cli_corpus, "kafka-log-dirs_describe_scala-era_thirdparty.txt")
    assert s.data.queried == (0,)
    (d,) = s.data.log_dirs
    assert (d.broker, d.path, d.error) == (0, "/tmp/kafka-logs", None)
    assert [(r.topic, r.partition) for r in d.replicas] == [
        ("t1", 0),
        ("t2", 0),
        ("t3", 0),
        ("t3", 1),
        ("t3", 2),
        ("t3", 3),
    ]
    assert all(r.size == 0 and not r.is_future for r in d.replicas)
    snap = load_snapshot(cli_corpus / "kafka-log-dirs_describe_scala-era_thirdparty.txt")
    assert snap.index.partition_size("t3", 2) == 0
    assert snap.index.broker_ids == (0,)


def test_quorum_replication_strimzi(cli_corpus: Path) -> None:
    name = "kafka-metadata-quorum_describe-replication_strimzi-proposal.txt"
    (s,) = sections(cli_corpus, name)
    rows = s.data.rows
    assert [(r.node_id, r.status) for r in rows] == [
        (3, "Leader"),
        (4, "Follower"),
        (5, "Follower"),
        (0, "Observer"),
        (1, "Observer"),
        (2, "Observer"),
    ]
    assert (rows[0].directory_id, rows[0].log_end_offset, rows[0].lag) == (
        "U3fHvCoMVWiCVYa2ri_K5w",
        875,
        0,
    )
    assert rows[-1].last_caught_up_timestamp == 1760635201883
    snap = load_snapshot(cli_corpus / name)
    assert snap.quorum is not None
    assert snap.quorum.leader_id == 3
    assert snap.quorum.voter_ids == {3, 4, 5}
    assert [o.id for o in snap.quorum.observers] == [0, 1, 2]
    assert snap.index.controller_ids == (3, 4, 5)
    assert snap.index.broker_ids == (0, 1, 2)


def test_quorum_status_3_9_directory_id_null(cli_corpus: Path) -> None:
    name = "kafka-metadata-quorum_describe-status_3.9-or-4.0-directoryId-null_thirdparty.txt"
    snap = load_snapshot(cli_corpus / name)
    q = snap.quorum
    assert q is not None
    assert snap.cluster_id == "uCTcACi4VDHJQ1KNvNxjrb"
    assert (
        q.leader_id,
        q.leader_epoch,
        q.high_watermark,
        q.max_follower_lag,
        q.max_follower_lag_time_ms,
    ) == (1, 6, 1130, 0, 28)
    assert [(v.id, v.directory_id) for v in q.voters] == [(0, None), (1, None), (2, None)]
    assert q.voters[0].endpoints == (
        "CONTROLLER://bitnami-kafka-controller-0.bitnami-kafka-controller-headless"
        ".kafka.svc.cluster.local:9093",
    )
    assert [(o.id, o.directory_id) for o in q.observers] == [
        (100, "4ES0SAcYLzFQVJ2diLkQ6A"),
        (101, "GMd5xaITd4TWXvhvAJ_VEQ"),
        (102, "Hw2L-tv6Xs9Ho7qENmW71g"),
    ]


def test_quorum_status_4_1_quorum_lost(cli_corpus: Path) -> None:
    name = "kafka-metadata-quorum_describe-status_4.1plus-quorum-lost_thirdparty.txt"
    (s,) = sections(cli_corpus, name)  # the stderr WARN line before it is recognised and dropped
    assert s.line == 6
    snap = load_snapshot(cli_corpus / name)
    q = snap.quorum
    assert q is not None
    assert snap.cluster_id == "11f1-88a2-9ae67b83fafw"
    assert (q.leader_id, q.leader_epoch, q.high_watermark, q.max_follower_lag) == (
        0,
        12,
        7412,
        7413,
    )
    assert q.max_follower_lag_time_ms == -1
    assert [(v.id, v.directory_id) for v in q.voters] == [(0, None), (1, None), (2, None)]
    assert q.observers == ()


def test_quorum_status_docs_wrapped_lists(cli_corpus: Path) -> None:
    snap = load_snapshot(cli_corpus / "kafka-metadata-quorum_describe-status_docs-4.1.txt")
    q = snap.quorum
    assert q is not None
    assert snap.cluster_id == "fMCL8kv1SWm87L_Md-I2hg"
    assert (q.leader_id, q.leader_epoch, q.high_watermark) == (3002, 2, 10)
    assert [(v.id, v.directory_id, v.endpoints) for v in q.voters] == [
        (3000, "ILZ5MPTeRWakmJu99uBJCA", ("CONTROLLER://localhost:9093",)),
        (3001, "b-DwmhtOheTqZzPoh52kfA", ("CONTROLLER://localhost:9094",)),
        (3002, "g42deArWBTRM5A1yuVpMCg", ("CONTROLLER://localhost:9095",)),
    ]
    assert [o.directory_id for o in q.observers] == [
        "3Db5QLSqSZieL3rJBUUegA",
        "UegA3Db5QLSqSZieL3rJBU",
        "L3rJBUUegA3Db5QLSqSZie",
    ]


def test_stale_docs_formats(cli_corpus: Path) -> None:
    path = cli_corpus / STALE_DOCS
    lines = path.read_text(encoding="utf-8").splitlines()
    # Without the self-contradicting --generate block (lines 17-37), the rest is read,
    # including the 2.x verify form, "Topic:foo" and the ZooKeeper-era configs lines.
    text = "\n".join("" if 17 <= n <= 37 else line for n, line in enumerate(lines, start=1))
    found = read_text(str(path), text)
    assert kinds(found) == [
        ("reassign", 41),
        ("topics", 51),
        ("reassign", 55),
        ("configs", 63),
        ("configs", 66),
        ("configs", 70),
    ]
    verify = found[0].data
    assert [(s.topic, s.partition, s.state) for s in verify.statuses] == [
        ("foo1", 0, "completed"),
        ("foo1", 1, "in-progress"),
        ("foo1", 2, "in-progress"),
        ("foo2", 0, "completed"),
        ("foo2", 1, "completed"),
        ("foo2", 2, "completed"),
    ]
    (header,) = found[1].data.headers
    (partition,) = found[1].data.partitions
    assert (header.topic, header.partition_count, header.replication_factor) == ("foo", 1, 3)
    assert (partition.leader, partition.replicas, partition.isr, partition.elr) == (
        5,
        (5, 6, 7),
        (5, 6, 7),
        None,
    )
    assert found[2].data.cleared_brokers == (1, 2, 3)
    assert found[2].data.cleared_topics == ("my-topic",)
    b2, _b1 = found[3].data.blocks
    assert (b2.entity_name, b2.legacy, {e.name: e.value for e in b2.entries}) == (
        "2",
        True,
        {
            "leader.replication.throttled.rate": "700000000",
            "follower.replication.throttled.rate": "700000000",
            "replica.alter.log.dirs.io.max.bytes.per.second": "1000000000",
        },
    )
    (topic,) = found[4].data.blocks
    assert {e.name: e.value for e in topic.entries} == {
        "leader.replication.throttled.replicas": "1:102,0:101",
        "follower.replication.throttled.replicas": "1:101,0:102",
    }
    (quota,) = found[5].data.blocks
    assert quota.entity_type == "quota"
    snap = assemble_from(found)
    assert snap.configs.brokers[2]["leader.replication.throttled.rate"] == "700000000"
    assert snap.configs.topics["my-topic"]["follower.replication.throttled.replicas"] == (
        "1:101,0:102"
    )
    assert [r.key for r in snap.index.in_flight()] == [("foo1", 1), ("foo1", 2)]


def test_reassign_session_with_describe(cli_corpus: Path) -> None:
    name = "kafka-reassign-partitions_generate-execute-verify_plus-describe_thirdparty.txt"
    found = sections(cli_corpus, name)
    assert kinds(found) == [
        ("reassign", 7),
        ("reassign", 14),
        ("reassign", 18),
        ("topics", 27),
        ("configs", 33),
        ("configs", 36),
    ]
    generate, execute, verify = (s.data for s in found[:3])
    assert generate.current is not None
    assert generate.proposed is not None
    assert [e.replicas for e in generate.current.partitions] == [(3,), (1,), (2,)]
    assert [e.replicas for e in generate.proposed.partitions] == [(1,), (2,), (3,)]
    assert generate.proposed.partitions[0].log_dirs == ("any",)
    assert execute.started == [("platform.scooter.user.change", p) for p in range(3)]
    assert [s.state for s in verify.statuses] == ["completed"] * 3
    assert verify.cleared_brokers == (1, 2, 3)
    topics = found[3].data
    assert topics.headers[0].topic_id == "vrQ9hID3Tf25PvxK_08Xsg"
    assert topics.headers[0].configs == (("segment.bytes", "1073741824"),)
    assert [
        (p.partition, p.leader, p.replicas, p.isr, p.elr, p.last_known_elr)
        for p in topics.partitions
    ] == [
        (0, 3, (1, 2, 3), (3, 2, 1), None, None),
        (1, 1, (2, 3, 1), (1, 2, 3), None, None),
        (2, 2, (3, 1, 2), (2, 1, 3), None, None),
    ]
    # The two kafka-configs captures (ports 9092 and 9093) disagree about the topic.
    with pytest.raises(
        ClusterInputError,
        match=r":36: the set of topic platform.scooter.user"
        r".change dynamic configs is \[min.insync.replicas\] here, but .*:33 says",
    ):
        load_snapshot(cli_corpus / name)
    snap = assemble_from(found[:5])
    (topic,) = snap.topics
    assert (topic.partition_count, topic.replication_factor) == (3, 3)
    assert snap.min_insync_replicas(topic.name) == 1
    assert [r.state for r in snap.reassignments] == [ReassignmentState.COMPLETED] * 3
    assert list(snap.index.in_flight()) == []


def test_reassign_verify_list_moves_unit_test(cli_corpus: Path) -> None:
    name = "kafka-reassign-partitions_verify-list-moves_4.1-unit-test.txt"
    found = sections(cli_corpus, name)
    assert kinds(found) == [
        ("reassign", 7),
        ("reassign", 12),
        ("reassign", 21),
        ("reassign", 27),
        ("reassign", 32),
    ]
    verify, moves, execute, listing, empty = (s.data for s in found)
    assert [(s.topic, s.partition, s.state) for s in verify.statuses] == [
        ("bar", 0, "in-progress"),
        ("foo", 0, "completed"),
        ("foo", 1, "in-progress"),
    ]
    assert len(moves.replica_moves) == 6
    assert execute.current is not None
    assert [(e.topic, e.partition, e.replicas) for e in execute.current.partitions] == [
        ("bar", 0, (7, 8)),
        ("foo", 1, (4, 5, 6)),
    ]
    assert [(r.topic, r.partition, r.replicas, r.adding, r.removing) for r in listing.listed] == [
        ("bar", 0, (2, 3, 0), (), (0,)),
        ("foo", 0, (0, 1, 2), (4,), ()),
        ("foo", 1, (1, 2, 3), (4, 5), (1, 2)),
    ]
    assert empty.listed_none
    snap = assemble_from([found[3]])
    assert [(r.key, r.adding, r.removing) for r in snap.index.in_flight()] == [
        (("bar", 0), (), (0,)),
        (("foo", 0), (4,), ()),
        (("foo", 1), (4, 5), (1, 2)),
    ]
    # Unit-test strings of different scenarios: --verify says foo-0 completed, --list in flight.
    with pytest.raises(
        ClusterInputError,
        match=r":29: reassignment of foo-0 is 'in-progress' "
        r"here, but .*:9 says 'completed'",
    ):
        load_snapshot(cli_corpus / name)
    with pytest.raises(ClusterInputError, match="No partition reassignments found"):
        assemble_from([found[3], found[4]])


def test_topics_4_0_elr_empty(cli_corpus: Path) -> None:
    snap = load_snapshot(cli_corpus / "kafka-topics_describe_4.0-elr-empty_thirdparty.txt")
    (t,) = snap.topics
    assert (t.name, t.topic_id, t.partition_count, t.replication_factor) == (
        "test.topic",
        "QmLwMsncTBWiSn2HoB0Kqg",
        6,
        1,
    )
    assert t.described_configs == {"segment.bytes": "1073741824"}
    assert [(p.partition, p.leader, p.replicas) for p in t.partitions] == [
        (0, 300, (300,)),
        (1, 100, (100,)),
        (2, 200, (200,)),
        (3, 300, (300,)),
        (4, 200, (200,)),
        (5, 100, (100,)),
    ]
    assert all(p.elr == () and p.last_known_elr == () for p in t.partitions)  # empty, not N/A
    assert snap.index.broker_ids == (100, 200, 300)
    assert [p.partition for p in snap.index.partitions_on(300)] == [0, 3]


def test_topics_cluster_min_isr(cli_corpus: Path) -> None:
    snap = load_snapshot(cli_corpus / "kafka-topics_describe_4.x-cluster-minisr_thirdparty.txt")
    (t,) = snap.topics
    assert t.described_configs == {
        "min.insync.replicas": "1",
        "segment.bytes": "1073741824",
        "min.compaction.lag.ms": "60000",
    }
    (p,) = t.partitions
    assert (p.leader, p.replicas, p.isr, p.elr, p.last_known_elr) == (
        1,
        (1, 2, 0),
        (1, 2, 0),
        (),
        (),
    )
    assert t.replication_factor == 3
    assert snap.min_insync_replicas("sample") == 1


def test_topics_metadata_api_fallback(cli_corpus: Path) -> None:
    name = "kafka-topics_describe_metadata-api-fallback-elr-na_thirdparty.txt"
    (s,) = sections(cli_corpus, name)  # the WARN line is the admin client's stderr
    assert s.line == 6
    snap = load_snapshot(cli_corpus / name)
    (t,) = snap.topics
    assert (t.name, t.partition_count, t.replication_factor, t.described_configs) == (
        "paytm-topic",
        3,
        1,
        {},
    )
    assert all(p.elr is None and p.last_known_elr is None for p in t.partitions)  # N/A: unknown
    assert all(p.leader == 0 and p.isr == (0,) for p in t.partitions)


EXPECTED_FILES = (
    "kafka-broker-api-versions_4.x.txt",
    "kafka-configs_describe_examples.txt",
    "kafka-features_describe_4.1_test-assertions.txt",
    "kafka-features_describe_4.3-padded_thirdparty.txt",
    "kafka-features_describe_cp-8.1-unknown-mv_thirdparty.txt",
    "kafka-features_describe_docs-4.1-kraft-md.txt",
    "kafka-features_upgrade-downgrade-errors_4.1_test-assertions.txt",
    "kafka-log-dirs_describe_scala-era_thirdparty.txt",
    "kafka-metadata-quorum_describe-replication_strimzi-proposal.txt",
    "kafka-metadata-quorum_describe-status_3.9-or-4.0-directoryId-null_thirdparty.txt",
    "kafka-metadata-quorum_describe-status_4.1plus-quorum-lost_thirdparty.txt",
    "kafka-metadata-quorum_describe-status_docs-4.1.txt",
    STALE_DOCS,
    "kafka-reassign-partitions_generate-execute-verify_plus-describe_thirdparty.txt",
    "kafka-reassign-partitions_verify-list-moves_4.1-unit-test.txt",
    "kafka-topics_describe_4.0-elr-empty_thirdparty.txt",
    "kafka-topics_describe_4.x-cluster-minisr_thirdparty.txt",
    "kafka-topics_describe_metadata-api-fallback-elr-na_thirdparty.txt",
)
assert CLI_CORPUS.name == "cli"
