"""Each reader on small hand-made texts: the messy forms it must accept, and located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest import assemble
from cluster_engine.ingest.detect import read_text
from cluster_engine.ingest.features import METADATA_VERSION_LEVELS, level_of


def test_command_lines_comments_log_lines_and_trailing_spaces_are_tolerated() -> None:
    text = (
        "# captured on prod-eu, 2026-11-20\n"
        "[kafka@broker-1 bin]$ ./kafka-features.sh --bootstrap-server b:9092 describe   \n"
        "[2026-11-20 10:00:00,000] WARN something on stderr (org.apache.kafka.X)\n"
        "\n"
        "Feature: metadata.version\tSupportedMinVersion: 3.3-IV3\tSupportedMaxVersion: 4.1-IV1"
        "\tFinalizedVersionLevel: 4.1-IV1\tEpoch: 12   \n"
    )
    (section,) = read_text("f.txt", text)
    assert (section.kind, section.line) == ("features", 5)
    assert assemble([section]).feature_level("metadata.version") == 27


def test_padded_feature_format_with_unknown_level() -> None:
    line = (
        f"Feature: {'metadata.version':<40}  SupportedMinVersion: {'3.3-IV3':<15}  "
        f"SupportedMaxVersion: {'4.3-IV0':<15}  FinalizedVersionLevel: {'UNKNOWN 99':<15}  "
        "Epoch: -"
    )
    (section,) = read_text("f.txt", line)
    (f,) = section.data.features
    assert (f.finalized, f.epoch) == ("UNKNOWN 99", None)
    assert level_of("metadata.version", f.finalized) == 99


def test_unknown_metadata_version_label_is_an_error() -> None:
    text = (
        "Feature: metadata.version\tSupportedMinVersion: 3.3-IV3\tSupportedMaxVersion: 4.5-IV0"
        "\tFinalizedVersionLevel: 4.1-IV1\tEpoch: 3"
    )
    with pytest.raises(
        ClusterInputError, match=r"^f.txt:1: metadata.version: unknown level '4.5-IV0'"
    ):
        assemble(read_text("f.txt", text))


def test_metadata_version_table_is_dense() -> None:
    assert sorted(METADATA_VERSION_LEVELS.values()) == list(range(1, 34))


def test_a_malformed_line_inside_an_output_is_located() -> None:
    text = (
        "Topic: t\tTopicId: AAAAAAAAAAAAAAAAAAAAAB\tPartitionCount: 1\tReplicationFactor: 1"
        "\tConfigs:\n"
        "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1,x\tIsr: 1\tElr: \tLastKnownElr: \n"
    )
    with pytest.raises(ClusterInputError, match=r"^t.txt:2: Replicas: expected comma-separated"):
        read_text("t.txt", text)


def test_an_unrecognised_line_after_an_output_is_located() -> None:
    text = "ClusterId:              abc\nLeaderId:               1\nsomething else entirely\n"
    with pytest.raises(ClusterInputError, match=r"^q.txt:3: cannot read this line"):
        read_text("q.txt", text)


def test_a_file_of_no_known_kind_names_the_file() -> None:
    with pytest.raises(ClusterInputError, match=r"^notes.txt:1: not a known Kafka tool output"):
        read_text("notes.txt", "remember to restart broker 3\n")
    with pytest.raises(ClusterInputError, match=r"^empty.txt: no Kafka tool output"):
        read_text("empty.txt", "# nothing\n$ kafka-topics.sh --describe\n")


def test_topics_leader_none_adding_removing_and_marked_for_deletion() -> None:
    text = (
        "Topic: t\tPartitionCount: 2\tReplicationFactor: 3\tConfigs: \tMarkedForDeletion: true\n"
        "\tTopic: t\tPartition: 0\tLeader: none\tReplicas: 1,2,3\tIsr: \tElr: 2\tLastKnownElr: 3\n"
        "\tTopic: t\tPartition: 1\tLeader: 1\tReplicas: 1,2,3,4\tIsr: 1,2,3\t"
        "Adding Replicas: 4\tRemoving Replicas: 3\tElr: \tLastKnownElr: \n"
    )
    snap = assemble(read_text("t.txt", text))
    (t,) = snap.topics
    p0, p1 = t.partitions
    assert (p0.leader, p0.isr, p0.elr, p0.last_known_elr) == (None, (), (2,), (3,))
    assert (p1.adding_replicas, p1.removing_replicas, p1.replication_factor) == ((4,), (3,), 3)
    assert t.marked_for_deletion
    assert [(r.key, r.adding, r.removing) for r in snap.index.in_flight()] == [
        (("t", 1), (4,), (3,))
    ]


def test_topic_header_count_must_match_the_partition_lines() -> None:
    text = (
        "Topic: t\tPartitionCount: 2\tReplicationFactor: 1\tConfigs:\n"
        "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n"
    )
    with pytest.raises(ClusterInputError, match=r"^t.txt:1: topic t: PartitionCount is 2 but 1"):
        assemble(read_text("t.txt", text))


def test_configs_all_with_sources_and_sensitive_values() -> None:
    text = (
        "All configs for broker 1 are:\n"
        "  min.insync.replicas=2 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:"
        "min.insync.replicas=2, STATIC_BROKER_CONFIG:min.insync.replicas=1, "
        "DEFAULT_CONFIG:min.insync.replicas=1}\n"
        "  leader.replication.throttled.rate=1000000 sensitive=false synonyms="
        "{DYNAMIC_BROKER_CONFIG:leader.replication.throttled.rate=1000000}\n"
        "  ssl.keystore.password=null sensitive=true synonyms={STATIC_BROKER_CONFIG:"
        "ssl.keystore.password=null}\n"
        "  num.partitions=1 sensitive=false synonyms={DEFAULT_CONFIG:num.partitions=1}\n"
    )
    snap = assemble(read_text("c.txt", text))
    assert snap.configs.cluster_default == {"min.insync.replicas": "2"}
    assert snap.configs.brokers == {1: {"leader.replication.throttled.rate": "1000000"}}
    assert snap.configs.broker_static == {
        1: {"min.insync.replicas": "1", "ssl.keystore.password": None}
    }
    assert snap.min_insync_replicas("any", broker=1) == 2


def test_default_entity_header_and_broker_conflict_names_both_lines() -> None:
    text = (
        "Default configs for brokers in the cluster are:\n"
        "  min.insync.replicas=2 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:"
        "min.insync.replicas=2}\n"
    )
    other = text.replace("=2", "=3")
    with pytest.raises(
        ClusterInputError,
        match=r"^b.txt:2: cluster default min.insync.replicas is '3' here, but a.txt:2 says '2'",
    ):
        assemble(read_text("a.txt", text) + read_text("b.txt", other))


def test_quorum_status_with_plain_id_lists_3_8() -> None:
    text = (
        "ClusterId:              abc\nLeaderId:               3000\nLeaderEpoch:            1\n"
        "HighWatermark:          5\nMaxFollowerLag:         0\nMaxFollowerLagTimeMs:   0\n"
        "CurrentVoters:          [3000,3001,3002]\nCurrentObservers:       [0,1]\n"
    )
    snap = assemble(read_text("q.txt", text))
    assert snap.quorum is not None
    assert snap.quorum.voter_ids == {3000, 3001, 3002}
    assert snap.index.broker_ids == (0, 1)


def test_quorum_replication_without_directory_column_and_human_readable() -> None:
    text = (
        "NodeId\tLogEndOffset\tLag\tLastFetchTimestamp\tLastCaughtUpTimestamp\tStatus\t\n"
        "1     \t10          \t0  \t5 ms ago          \t5 ms ago             \tLeader\t\n"
        "2     \t9           \t1  \t-1                \t-1                   \tObserver\t\n"
    )
    (s,) = read_text("r.txt", text)
    leader, observer = s.data.rows
    assert (leader.node_id, leader.directory_id, leader.last_fetch_timestamp) == (1, None, None)
    assert (observer.lag, observer.last_caught_up_timestamp, observer.status) == (
        1,
        None,
        "Observer",
    )


def test_reassignment_json_file_gives_the_target_of_in_flight_partitions() -> None:
    listing = (
        "Current partition reassignments:\nfoo-0: replicas: 0,1,2,4. adding: 4. removing: 0.\n"
    )
    plan = (
        '{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[1,2,4]},'
        '{"topic":"foo","partition":1,"replicas":[1,2,3],"log_dirs":["any","any","any"]}]}'
    )
    sections = read_text("list.txt", listing) + read_text("plan.json", plan)
    assert [s.kind for s in sections] == ["reassign", "reassignment-json"]
    (r,) = assemble(sections).reassignments
    assert (r.key, r.replicas, r.target) == (("foo", 0), (0, 1, 2, 4), (1, 2, 4))


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        ('{"version":2,"partitions":[]}', "Not supported version field value 2"),
        ('{"partitions":[{"topic":"a","partition":0,"replicas":[]}]}', "a-0: empty replica list"),
        ('{"partitions":[{"topic":"a","partition":0,"replicas":[1,1]}]}', "duplicate broker"),
        (
            '{"partitions":[{"topic":"a","partition":0,"replicas":[1],"log_dirs":["any","any"]}]}',
            "Size of replicas list",
        ),
        (
            '{"partitions":[{"topic":"a","partition":0,"replicas":[1]},'
            '{"topic":"a","partition":0,"replicas":[2]}]}',
            "listed twice",
        ),
        ('{"partitions":[{"topic":"a","partition":0,"replicas":[1]}', "expected a JSON document"),
    ],
)
def test_reassignment_json_is_checked_like_the_tool(plan: str, message: str) -> None:
    with pytest.raises(ClusterInputError, match=r"^p.json:1: .*" + message):
        read_text("p.json", plan)


def test_cancel_output_with_the_missing_newline() -> None:
    text = (
        "Successfully cancelled partition reassignments for: foo-0,foo-1\n"
        "None of the specified partition moves are active.Clearing broker-level throttles on "
        "brokers 1,2,3\nClearing topic-level throttles on topic foo\n"
    )
    (s,) = read_text("c.txt", text)
    assert s.data.cancelled == [("foo", 0), ("foo", 1)]
    assert s.data.cleared_brokers == (1, 2, 3)


def test_execute_output_records_the_throttle() -> None:
    text = (
        "Current partition replica assignment\n\n"
        '{"version":1,"partitions":[{"topic":"a","partition":0,"replicas":[1],"log_dirs":["any"]}]}'
        "\n\nSave this to use as the --reassignment-json-file option during rollback\n"
        "Warning: You must run --verify periodically, until the reassignment completes, to ensure "
        "the throttle is removed.\nThe inter-broker throttle limit was set to 500000 B/s\n"
        "Successfully started partition reassignment for a-0\n"
    )
    (s,) = read_text("e.txt", text)
    assert (s.data.throttle, s.data.started) == (500000, [("a", 0)])


def test_api_versions_error_node_and_3x_form() -> None:
    text = (
        "b1:9092 (id: 1 rack: r1) -> (\n\tProduce(0): 0 to 9 [usable: 9],\n"
        "\tFetch(1): 12 [usable: 12],\n\tX(99): 0 to 1 [unusable: node too new]\n)\n"
        "b2:9092 (id: 2 rack: null isFenced: true) -> "
        "ERROR: org.apache.kafka.common.errors.Timeout\n"
    )
    (s,) = read_text("a.txt", text)
    n1, n2 = s.data.nodes
    assert (n1.rack, n1.fenced, [a.max for a in n1.apis]) == ("r1", None, [9, 12, 1])
    assert (n2.fenced, n2.error) == (True, "org.apache.kafka.common.errors.Timeout")
    snap = assemble([s])
    assert [(n.id, n.rack, n.fenced) for n in snap.nodes] == [(1, "r1", False), (2, None, True)]


def test_log_dirs_java_key_order_and_future_replicas() -> None:
    text = (
        "Querying brokers for log directories information\n"
        "Received log directory information from brokers 1\n"
        '{"brokers":[{"broker":1,"logDirs":[{"partitions":[{"partition":"my-topic-0","size":10,'
        '"offsetLag":0,"isFuture":false},{"partition":"my-topic-0","size":4,"offsetLag":0,'
        '"isFuture":true}],"error":"org.apache.kafka.common.errors.KafkaStorageException",'
        '"logDir":"/d1"}]}],"version":1}\n'
    )
    snap = assemble(read_text("l.txt", text))
    (d,) = snap.log_dirs
    assert d.error == "org.apache.kafka.common.errors.KafkaStorageException"
    assert [(r.topic, r.partition, r.is_future) for r in d.replicas] == [
        ("my-topic", 0, False),
        ("my-topic", 0, True),
    ]
    assert snap.index.partition_size("my-topic", 0) == 10


def test_static_quorum_voters_come_from_a_controllers_static_config() -> None:
    configs = (
        "All configs for broker 101 are:\n"
        "  controller.quorum.voters=101@ctl-1:9093,102@ctl-2:9093 sensitive=false synonyms="
        "{STATIC_BROKER_CONFIG:controller.quorum.voters=101@ctl-1:9093,102@ctl-2:9093, "
        "DEFAULT_CONFIG:controller.quorum.voters=}\n"
    )
    status = (
        "ClusterId:              abc\nLeaderId:               101\n"
        'CurrentVoters:          [{"id": 101, "endpoints": ["CONTROLLER://ctl-1:9093"]}, '
        '{"id": 102, "endpoints": ["CONTROLLER://ctl-2:9093"]}]\n'
        "CurrentObservers:       []\n"
    )
    snap = assemble(read_text("c.txt", configs) + read_text("q.txt", status))
    assert snap.quorum is not None
    assert snap.quorum.static_voters == "101@ctl-1:9093,102@ctl-2:9093"
    assert snap.index.controller_ids == (101, 102)
    assert snap.index.broker_ids == ()


def test_a_failed_command_is_reported_as_such() -> None:
    text = (
        "$ kafka-topics.sh --create --topic t --replication-factor 3\n"
        "Error while executing topic command : Unable to replicate the partition 3 time(s): The "
        "target replication factor of 3 cannot be reached because only 2 broker(s) are "
        "registered.\n"
    )
    with pytest.raises(ClusterInputError, match=r"^e.txt:2: the captured command failed: "):
        read_text("e.txt", text)


def test_features_per_node_ranges_from_node_id_describes() -> None:
    def describe(node: int, top: str) -> str:
        return (
            f"$ kafka-features.sh --bootstrap-server b:9092 describe --node-id {node}\n"
            f"Feature: metadata.version\tSupportedMinVersion: 3.3-IV3\tSupportedMaxVersion: {top}"
            "\tFinalizedVersionLevel: 4.1-IV1\tEpoch: 9\n"
        )

    snap = assemble(
        read_text("a.txt", describe(1, "4.2-IV1")) + read_text("b.txt", describe(2, "4.1-IV1"))
    )
    assert {n.id: n.supported_features["metadata.version"].max for n in snap.nodes} == {
        1: 29,
        2: 27,
    }
    mv = snap.features["metadata.version"]
    assert (mv.level, mv.supported_min, mv.supported_max) == (27, 7, 27)


CAPTURE = (
    "Topic: t\tTopicId: QmLwMsncTBWiSn2HoB0Kqg\tPartitionCount: 1\tReplicationFactor: 1\t"
    "Configs: \n\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n"
)


def test_regression_capture_invalid_utf8_raised_unicode_decode_error(tmp_path: Path) -> None:
    from cluster_engine.ingest import load_snapshot

    path = tmp_path / "topics.txt"
    path.write_bytes(CAPTURE.encode() + b"# caf\xe9\n")
    with pytest.raises(ClusterInputError, match=r"topics\.txt:3: .*not UTF-8"):
        load_snapshot(path)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig"])
def test_regression_capture_utf16_with_bom_was_not_read(tmp_path: Path, encoding: str) -> None:
    from cluster_engine.ingest import read_file

    path = tmp_path / "topics.txt"
    path.write_bytes(CAPTURE.encode(encoding))
    assert [s.kind for s in read_file(path)] == ["topics"]


def test_regression_quorum_voters_deep_json_raised_recursion_error(tmp_path: Path) -> None:
    from cluster_engine.ingest import read_file

    path = tmp_path / "quorum.txt"
    path.write_text(
        "ClusterId:              q1Sh-9_ISia_zwGINzRvyQ\nLeaderId:               101\n"
        "CurrentVoters:          " + "[" * 100_000 + "]" * 100_000 + "\n",
        encoding="utf-8",
    )
    with pytest.raises(ClusterInputError, match=r"quorum\.txt:3: "):
        read_file(path)


def test_regression_log_dirs_negative_size_raised_validation_error(tmp_path: Path) -> None:
    from cluster_engine.ingest import read_file

    path = tmp_path / "log-dirs.txt"
    path.write_text(
        '{"version":1,"brokers":[{"broker":1,"logDirs":[{"logDir":"/data","error":null,'
        '"partitions":[{"partition":"t-0","size":-1,"offsetLag":0,"isFuture":false}]}]}]}\n',
        encoding="utf-8",
    )
    with pytest.raises(ClusterInputError, match=r"log-dirs\.txt:1: .*size"):
        read_file(path)


def test_regression_native_snapshot_invalid_utf8_raised_unicode_decode_error(
    tmp_path: Path,
) -> None:
    from cluster_engine.ingest import load_snapshot

    path = tmp_path / "snap.yaml"
    path.write_bytes(b"snapshot_version: 1\n# caf\xe9\n")
    with pytest.raises(ClusterInputError, match=r"snap\.yaml:2: .*not UTF-8"):
        load_snapshot(path)


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_regression_native_snapshot_deep_nesting_raised_recursion_error(
    tmp_path: Path, suffix: str
) -> None:
    from cluster_engine.ingest import load_snapshot

    path = tmp_path / f"snap{suffix}"
    path.write_text('{"nodes": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    with pytest.raises(ClusterInputError, match=r"nested"):
        load_snapshot(path)


def test_regression_native_snapshot_deep_block_nesting_raised_recursion_error(
    tmp_path: Path,
) -> None:
    from cluster_engine.ingest import load_snapshot

    path = tmp_path / "snap.yaml"
    path.write_text("nodes:\n  " + "- " * 2_500 + "1\n", encoding="utf-8")
    with pytest.raises(ClusterInputError, match=r"snap\.yaml:2:\d+: nested"):
        load_snapshot(path)


def test_regression_negative_broker_id_in_isr_raised_validation_error(tmp_path: Path) -> None:
    from cluster_engine.ingest import load_snapshot

    path = tmp_path / "topics.txt"
    path.write_text(CAPTURE.replace("Isr: 1", "Isr: 1,-1"), encoding="utf-8")
    with pytest.raises(ClusterInputError, match=r"topics\.txt:2: Isr"):
        load_snapshot(path)


@pytest.mark.parametrize(
    "entry",
    [
        '"broker":-1,"logDirs":[{"logDir":"/data","error":null,"partitions":[]}]',
        '"broker":1,"logDirs":[{"logDir":"/data","error":null,"partitions":'
        '[{"partition":"t-0","size":1,"offsetLag":Infinity,"isFuture":false}]}]',
    ],
)
def test_regression_log_dirs_impossible_values_escaped_as_validation_or_overflow_error(
    tmp_path: Path, entry: str
) -> None:
    from cluster_engine.ingest import read_file

    path = tmp_path / "log-dirs.txt"
    path.write_text('{"version":1,"brokers":[{' + entry + "}]}\n", encoding="utf-8")
    with pytest.raises(ClusterInputError, match=r"log-dirs\.txt:1: "):
        read_file(path)


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("\tTopic: t\tPartition: 99999999999999999999\tLeader: 1\tReplicas: 1\tIsr: 1",
         "Partition"),
        ("\tTopic: t\tPartition: 2147483648\tLeader: 1\tReplicas: 1\tIsr: 1", "Partition"),
        ("\tTopic: t\tPartition: 0\tLeader: 99999999999999999999\tReplicas: 1\tIsr: 1", "Leader"),
        ("\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1,2147483648\tIsr: 1", "Replicas"),
        # the same value, in a form only the general reader reads (spaces around the tabs)
        ("\tTopic: t \tPartition: 99999999999999999999 \tLeader: 1\tReplicas: 1\tIsr: 1",
         "Partition"),
    ],
)
def test_regression_partition_numbers_beyond_int64_raised_overflow_error(
    tmp_path: Path, line: str, what: str
) -> None:
    """The partition table keeps numbers in int64 arrays: a number out of Kafka's int32 range is
    a located error on its line, whichever reader reads the line, never an OverflowError."""
    from cluster_engine.ingest import load_snapshot

    header = CAPTURE.split("\n")[0]
    path = tmp_path / "topics.txt"
    path.write_text(f"{header}\n{line}\n", encoding="utf-8")
    with pytest.raises(ClusterInputError, match=rf"topics\.txt:2: {what}: .*out of range"):
        load_snapshot(path)


@pytest.mark.parametrize("block", [1, 2, 3, 7, 64])
def test_lines_split_a_block_at_a_time_are_the_lines_of_the_whole_text(
    block: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A block ends just after a \\n: every line break splitlines knows (\\r\\n kept whole, \\r,
    \\x0b, \\x0c, \\x1c-\\x1e, \\x85, \\u2028) gives the same lines and numbers."""
    import random

    from cluster_engine.ingest import text as text_module

    monkeypatch.setattr(text_module, "_BLOCK", block)
    pieces = ["a", "bc", " ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
              "\x85", "\u2028", "\n\n", "$ x", "# c"]  # fmt: skip
    rng = random.Random(17)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        expected = [(n, line.rstrip()) for n, line in enumerate(text.splitlines(), start=1)]
        got = [
            (first + i, line)
            for first, _, lines in text_module._numbered_blocks(text)
            for i, line in enumerate(lines)
        ]
        assert got == expected, repr(text)


def _prepared_line_by_line(text: str) -> tuple[list[str], list[int], dict[int, str | None]]:
    """What ``prepare`` keeps, one line at a time (the reading its whole-group path must match)."""
    from cluster_engine.ingest import text as text_module

    texts: list[str] = []
    numbers: list[int] = []
    breaks: dict[int, str | None] = {}
    pending, command = False, None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        body = line.lstrip()
        if not body:
            continue
        if body.startswith("#") or text_module._ELISION.match(body):
            pending = True
            continue
        if text_module._PROMPT.match(body):
            pending, command = True, body
            continue
        if text_module._LOG.match(body):
            continue
        if pending:
            breaks[len(texts)] = command
            pending, command = False, None
        texts.append(line)
        numbers.append(number)
    return texts, numbers, breaks


@pytest.mark.parametrize(("block", "group"), [(1, 1), (5, 2), (40, 3), (1 << 20, 512)])
def test_lines_taken_a_group_at_a_time_are_the_lines_read_one_by_one(
    block: int, group: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``prepare`` takes a group of plain lines whole: the same lines, numbers and breaks (the
    command before each) as reading every line on its own, whatever the comments, prompts, log
    lines, elisions and blank lines among them."""
    import random

    from cluster_engine.ingest import text as text_module

    monkeypatch.setattr(text_module, "_BLOCK", block)
    monkeypatch.setattr(text_module, "_GROUP", group)
    pieces = ["\tTopic: a\tPartition: 1", "Topic: b", "x $y", "a#b", "# c", "...", "\u2026",
              "$ kafka-topics.sh", "[u@h d]# cmd", "[2024-01-01 10:00:00,1] WARN x", "SLF4J: y",
              "log4j: z", "lead", "Status", "[x]", " ", "\t", "\n", "\r\n", "\x0c", "\u2028",
              "\n\n", " \t\n"]  # fmt: skip
    rng = random.Random(29)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        texts, numbers, breaks = _prepared_line_by_line(text)
        lines = text_module.prepare(text)
        assert (lines.texts, list(lines.numbers), lines.breaks) == (texts, numbers, breaks), text


def test_a_long_run_of_digits_is_found_across_scan_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digit scan reads a block at a time; a run of digits over a block's end is found."""
    import random

    from cluster_engine.ingest import detect
    from linter.inputs import MAX_DIGITS, checks

    monkeypatch.setattr(checks, "_SCAN_BLOCK", 40)
    long_run, marks = b"0" * (MAX_DIGITS + 1), checks._ASCII_DIGITS_AS_ZERO
    rng = random.Random(3)
    for _ in range(3000):
        runs = ["1", "22", "x", " ", "1" * rng.randint(1, 35)]
        text = "".join(rng.choice(runs) for _ in range(rng.randint(0, 20)))
        whole = long_run not in text.encode().translate(marks)
        assert detect._short_numbers(text) == whole, text


def test_the_sampled_digit_scan_finds_every_long_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan looks at every 10th character first, then at each place where a long run can
    be; a long run anywhere (at any alignment, in a text of many candidate places, past the
    budget of places looked at) is found, and a text without one is told short."""
    import random
    import re

    from cluster_engine.ingest import detect
    from linter.inputs import MAX_DIGITS

    long_run = re.compile(rf"[0-9]{{{MAX_DIGITS + 1}}}")
    rng = random.Random(7)
    for size in (20, 200, 2000):
        for _ in range(1500):
            runs = ["1", "22", "x", " ", "\t", ",", "1" * rng.randint(1, 40), "9" * MAX_DIGITS]
            text = "".join(rng.choice(runs) for _ in range(rng.randint(0, size)))
            assert detect._short_numbers(text) == (long_run.search(text) is None), text
    # more candidate places than the budget: the whole-text scan decides
    monkeypatch.setattr(detect, "_LOOK_EVERY", 10**9)
    crowded = "9" * MAX_DIGITS + " "
    for tail in ("", "1" * (MAX_DIGITS + 1)):
        text = crowded * 40 + tail
        assert detect._short_numbers(text) == (tail == ""), tail
    assert not detect._short_numbers("\u00e9" + "1" * 3)  # not ASCII: the regex decides
