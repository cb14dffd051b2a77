"""Folders of captures, native snapshots, and the ``ksafe cluster snapshot`` command."""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest import Section, load_snapshot, read_file
from cluster_engine.snapshot import Snapshot
from linter.cli import ksafe, main
from tests.conftest import FIXTURES

SNAPSHOTS = FIXTURES / "cluster" / "snapshots"
CAPTURES = SNAPSHOTS / "three-brokers"
NATIVE = SNAPSHOTS / "three-brokers.yaml"


def without_versions(s: Snapshot) -> Snapshot:
    """The tools print no software version: compare everything else."""
    nodes = tuple(n.model_copy(update={"software_version": None}) for n in s.nodes)
    return s.model_copy(update={"nodes": nodes})


def test_captures_folder_and_native_yaml_are_the_same_cluster() -> None:
    assembled = load_snapshot(CAPTURES)
    native = load_snapshot(NATIVE)
    # the captures say which kinds of facts they hold; a hand-written snapshot holds them all
    assert assembled.facts == ("topics", "configs", "features", "quorum", "log-dirs", "nodes")
    assert native.facts is None
    assert native.has("reassignments")
    assert assembled.model_copy(update={"facts": None}) == without_versions(native)


def test_file_names_do_not_matter(tmp_path: Path) -> None:
    for i, f in enumerate(sorted(CAPTURES.iterdir())):
        shutil.copy(f, tmp_path / f"capture-{i:02d}.log")
    (tmp_path / ".hidden").write_text("ignored: hidden files are not captures\n")
    snapshot = load_snapshot(tmp_path)
    assert [(u.path, u.reason) for u in snapshot.unread] == [
        (str(tmp_path / ".hidden"), "a hidden file")
    ]
    assert snapshot.model_copy(update={"unread": ()}) == load_snapshot(CAPTURES)


def test_a_topic_capture_in_a_subdirectory_is_named_and_its_facts_missing(
    tmp_path: Path,
) -> None:
    shutil.copytree(CAPTURES, tmp_path / "c")
    (tmp_path / "c" / "more").mkdir()
    (tmp_path / "c" / "topics.txt").rename(tmp_path / "c" / "more" / "topics.txt")
    snapshot = load_snapshot(tmp_path / "c")
    assert snapshot.topics == ()
    assert not snapshot.has("topics")
    assert snapshot.has("quorum")
    [unread] = snapshot.unread
    assert unread.path == str(tmp_path / "c" / "more")
    assert unread.reason.startswith("a subdirectory")


def test_a_file_of_no_known_kind_is_named(tmp_path: Path) -> None:
    shutil.copytree(CAPTURES, tmp_path / "c")
    (tmp_path / "c" / "notes.txt").write_text("restart broker 2 on Tuesday\n")
    with pytest.raises(ClusterInputError, match=r"notes.txt:1: not a known Kafka tool output"):
        load_snapshot(tmp_path / "c")


def test_conflicting_files_are_named_both(tmp_path: Path) -> None:
    shutil.copytree(CAPTURES, tmp_path / "c")
    topics = (CAPTURES / "topics.txt").read_text()
    stale = topics.replace(
        "Partition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3",
        "Partition: 0\tLeader: 2\tReplicas: 1,2,3\tIsr: 2,3",
        1,
    )
    (tmp_path / "c" / "topics-later.txt").write_text(stale)
    with pytest.raises(ClusterInputError) as info:
        load_snapshot(tmp_path / "c")
    message = str(info.value)
    # Files are read in name order: topics-later.txt, then topics.txt.
    assert "topics.txt:3: orders-0 Leader is 1 here, but " in message
    assert "topics-later.txt:3 says 2" in message


def test_empty_folder_and_missing_paths(tmp_path: Path) -> None:
    with pytest.raises(ClusterInputError, match="no captured outputs"):
        load_snapshot(tmp_path)


def test_native_json_round_trip(tmp_path: Path) -> None:
    native = load_snapshot(NATIVE)
    out = tmp_path / "s.json"
    out.write_text(native.model_dump_json(indent=2))
    assert load_snapshot(out) == native


def test_native_yaml_errors_are_located(tmp_path: Path) -> None:
    text = NATIVE.read_text().replace("leader: 3, isr: [3, 1, 2]", "leader: x, isr: [3, 1, 2]", 1)
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "leader: x" in t)
    with pytest.raises(
        ClusterInputError, match=rf"bad.yaml:{line}:\d+: topics.0.partitions.2.leader"
    ):
        load_snapshot(bad)
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text("snapshot_version: 1\nnodes:\n  - {id: 1, role: broker}\n")
    with pytest.raises(ClusterInputError, match=r"unknown.yaml:3:13: nodes.0.role: Extra inputs"):
        load_snapshot(unknown)
    broken = tmp_path / "broken.yaml"
    broken.write_text("nodes: [\n")
    with pytest.raises(ClusterInputError, match=r"broken.yaml:2:1: "):
        load_snapshot(broken)


def test_native_json_errors_are_located(tmp_path: Path) -> None:
    data = json.loads(load_snapshot(NATIVE).model_dump_json())
    data["topics"][1]["partitions"][0]["replicas"] = "1,2,3"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, indent=2))
    line = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if '"1,2,3"' in t)
    with pytest.raises(ClusterInputError, match=rf"bad.json:{line}:\d+: topics.1.partitions.0"):
        load_snapshot(bad)


def test_cli_snapshot_writes_json_and_yaml(tmp_path: Path) -> None:
    out = tmp_path / "snapshot.json"
    assert main(["cluster", "snapshot", str(CAPTURES), "-o", str(out)]) == 0
    assert Snapshot.model_validate_json(out.read_text()) == load_snapshot(CAPTURES)
    out_yaml = tmp_path / "snapshot.yaml"
    assert main(["cluster", "snapshot", str(CAPTURES), "-o", str(out_yaml)]) == 0
    assert Snapshot.model_validate(yaml.safe_load(out_yaml.read_text())) == load_snapshot(CAPTURES)


def test_cli_snapshot_input_error_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("hello\n")
    result = CliRunner().invoke(ksafe, ["cluster", "snapshot", str(tmp_path)])
    assert result.exit_code == 2
    assert "x.txt:1: not a known Kafka tool output" in result.output
    assert "Traceback" not in result.output


def test_schema_snapshot_is_published() -> None:
    result = CliRunner().invoke(ksafe, ["schema", "snapshot"])
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert "Partition" in schema["$defs"]
    assert schema["additionalProperties"] is False


def test_cli_snapshot_names_unread_files_on_stderr(tmp_path: Path) -> None:
    shutil.copytree(CAPTURES, tmp_path / "c")
    (tmp_path / "c" / "old").mkdir()
    result = CliRunner().invoke(ksafe, ["cluster", "snapshot", str(tmp_path / "c")])
    assert result.exit_code == 0
    assert f"{tmp_path / 'c' / 'old'}: not read: a subdirectory" in result.stderr
    assert json.loads(result.stdout)["unread"][0]["path"] == str(tmp_path / "c" / "old")


def test_a_capture_the_system_refuses_to_read_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = importlib.import_module("cluster_engine.ingest.assemble")
    shutil.copytree(CAPTURES, tmp_path / "c")

    def refuse_topics(path: Path) -> list[Section]:
        if path.name == "topics.txt":
            raise PermissionError(13, "Permission denied")
        return read_file(path)

    monkeypatch.setattr(module, "read_file", refuse_topics)
    snapshot = load_snapshot(tmp_path / "c")
    assert not snapshot.has("topics")
    assert [(u.path, u.reason) for u in snapshot.unread] == [
        (str(tmp_path / "c" / "topics.txt"), "cannot read it: Permission denied")
    ]


def _topic_lines(name: str, count: int, partitions: list[tuple[int, int]]) -> str:
    head = f"Topic: {name}\tTopicId: x\tPartitionCount: {count}\tReplicationFactor: 2\tConfigs: \n"
    return head + "".join(
        f"\tTopic: {name}\tPartition: {p}\tLeader: {leader}\tReplicas: 1,2\tIsr: 1,2"
        "\tElr: \tLastKnownElr: \n"
        for p, leader in partitions
    )


def test_partition_lines_out_of_order_or_apart_are_read_by_number(tmp_path: Path) -> None:
    # Kafka lists a topic's partitions together and in order; the store takes such a run as
    # it is, and must still place any other order by number
    capture = tmp_path / "topics.txt"
    capture.write_text(
        _topic_lines("a", 3, [(2, 1), (0, 2), (1, 1)])
        + _topic_lines("c", 2, [(0, 2)])
        + _topic_lines("d", 1, [(0, 1)])
        + "".join(_topic_lines("c", 2, [(1, 1)]).splitlines(keepends=True)[1:])
        + _topic_lines("e", 2, [(0, 1), (1, 2)])
    )
    s = load_snapshot(capture)
    got = {t.name: [(p.partition, p.leader) for p in t.partitions] for t in s.topics}
    assert got == {
        "a": [(0, 2), (1, 1), (2, 1)],
        "c": [(0, 2), (1, 1)],
        "d": [(0, 1)],
        "e": [(0, 1), (1, 2)],
    }


def test_a_partition_listed_twice_in_one_describe_is_refused_or_merged(tmp_path: Path) -> None:
    capture = tmp_path / "topics.txt"
    capture.write_text(_topic_lines("a", 2, [(0, 1), (1, 2), (1, 1)]))
    with pytest.raises(ClusterInputError, match=r"a-1 Leader is 1 here, but .*:3 says 2"):
        load_snapshot(capture)
    capture.write_text(_topic_lines("a", 2, [(0, 1), (1, 2), (1, 2)]))
    assert [p.partition for p in load_snapshot(capture).topics[0].partitions] == [0, 1]
    # the whole topic listed again, apart: compared with the first listing too
    capture.write_text(
        _topic_lines("a", 2, [(0, 1), (1, 2)])
        + _topic_lines("b", 1, [(0, 1)])
        + _topic_lines("a", 2, [(0, 1), (1, 1)])
    )
    with pytest.raises(ClusterInputError, match=r"a-1 Leader is 1 here, but .*:3 says 2"):
        load_snapshot(capture)


def test_every_broker_a_partition_line_names_is_a_node(tmp_path: Path) -> None:
    # the first and last lines name the same brokers: those between must still be found
    capture = tmp_path / "topics.txt"
    capture.write_text(
        "Topic: a\tTopicId: x\tPartitionCount: 3\tReplicationFactor: 2\tConfigs: \n"
        "\tTopic: a\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\tElr: \tLastKnownElr: \n"
        "\tTopic: a\tPartition: 1\tLeader: 3\tReplicas: 3,4\tIsr: 3\tElr: 5\tLastKnownElr: 6\n"
        "\tTopic: a\tPartition: 2\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\tElr: \tLastKnownElr: \n"
    )
    assert [n.id for n in load_snapshot(capture).nodes] == [1, 2, 3, 4, 5, 6]
