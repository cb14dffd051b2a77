"""Every reader of a user file, against each class of hostile file: one located line, never a
traceback, a hang or a silently dropped key.

The classes (each a test parametrised over the readers it applies to): paths that are not
regular files, files over the size limit, keys given twice, YAML aliases, numbers too long for
Python to convert, numbers out of their Kafka type's range. Then the property over all readers:
any bytes give a model or one located error.
"""

from __future__ import annotations

import os
import random
import re
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linter.config import ConfigError
from linter.inputs import LIMIT_ENV, MalformedInput, UnreadableInput
from tests.hardening.fuzzing import ROOT, TARGETS, mutate, run_case

EXAMPLES = ROOT / "fixtures" / "examples"
SNAPSHOT = ROOT / "fixtures" / "cluster" / "snapshots" / "three-brokers.yaml"
CAPTURES = ROOT / "fixtures" / "cluster" / "snapshots" / "three-brokers"
HUGE = "9" * 5_000  # over Python's 4,300-digit int-conversion limit


@contextmanager
def wall_limit(seconds: int) -> Iterator[None]:
    """Fail (rather than hang the suite) when the block blocks: a FIFO open waits on no CPU."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"blocked for {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --- the readers ----------------------------------------------------------------------------


def _topology(path: Path) -> object:
    from linter.topology.parse import parse_file

    return parse_file(path)


def _properties(path: Path) -> object:
    from linter.topology.streams_config import parse_properties_file

    return parse_properties_file(path)


def _config(path: Path) -> object:
    from linter.config import load_config

    return load_config(path)


def _plan(path: Path) -> object:
    from cluster_engine.plan import load_plan

    return load_plan(path)


def _snapshot(path: Path) -> object:
    from cluster_engine.ingest import load_snapshot

    return load_snapshot(path)


def _fleet_snapshot(path: Path) -> object:
    from linter.fleet.cluster import load_snapshot

    return load_snapshot(path)


def _fleet_plan(path: Path) -> object:
    from linter.fleet.cluster import load_changes

    return load_changes(str(path), None)


def _reassignment(path: Path) -> object:
    from cluster_engine.plan import load_plan

    plan = path.with_name("uses-reassignment.yaml")
    plan.write_text(f"- reassign: {{file: {path.name}, throttle: 10000000}}\n")
    return load_plan(plan)


Reader = Callable[[Path], object]
# name -> (reader, file name it reads, a valid input)
READERS: dict[str, tuple[Reader, str, bytes]] = {
    "topology": (_topology, "app.txt", (EXAMPLES / "orders-v1.txt").read_bytes()),
    "streams-config": (_properties, "app.properties", b"application.id=orders\n"),
    "config": (_config, "ksafe.toml", b'fail-on = "warning"\n'),
    "plan": (_plan, "plan.yaml", b"- add-broker: {id: 4}\n"),
    "snapshot-yaml": (_snapshot, "snap.yaml", SNAPSHOT.read_bytes()),
    "snapshot-json": (_snapshot, "snap.json", b'{"snapshot_version": 1, "topics": []}\n'),
    "capture": (_snapshot, "topics.txt", (CAPTURES / "topics.txt").read_bytes()),
    "fleet-snapshot": (_fleet_snapshot, "snap.yaml", SNAPSHOT.read_bytes()),
    "fleet-plan": (_fleet_plan, "plan.yaml", b"- add-partitions: {topic: t, partitions: 6}\n"),
    "reassignment": (
        _reassignment,
        "move.json",
        b'{"version": 1, "partitions": [{"topic": "t", "partition": 0, "replicas": [1, 2]}]}',
    ),
}
YAML_READERS = ("plan", "snapshot-yaml", "fleet-snapshot", "fleet-plan")
# Readers for which a directory is a valid input (a folder of captured tool outputs).
DIRECTORY_OK = {"snapshot-yaml", "snapshot-json", "capture"}


def _one_line_error(reader: Reader, path: Path) -> str:
    """The reader's error for ``path``: ours, one line, raised promptly."""
    started = time.monotonic()
    with (
        wall_limit(10),
        pytest.raises((UnreadableInput, MalformedInput, ValueError, ConfigError)) as caught,
    ):
        reader(path)
    assert time.monotonic() - started < 5, "refusing took too long"
    message = str(caught.value)
    assert "\n" not in message, message
    assert type(caught.value).__module__.startswith(("linter", "cluster_engine")), repr(
        caught.value
    )
    return message


def _valid(name: str, tmp_path: Path) -> Path:
    _, file_name, data = READERS[name]
    path = tmp_path / file_name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("name", sorted(READERS))
def test_every_reader_reads_its_valid_input(name: str, tmp_path: Path) -> None:
    reader = READERS[name][0]
    assert reader(_valid(name, tmp_path)) is not None


# --- not a regular file ---------------------------------------------------------------------


def _make(kind: str, path: Path) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")  # read until memory runs out, were it read
    elif kind == "directory":
        path.mkdir()
    elif kind == "unreadable":
        path.write_text("x\n")
        path.chmod(0)
    elif kind != "missing":
        raise AssertionError(kind)


KIND_WORDS = {
    "fifo": "named pipe (FIFO), not a regular file",
    "device": "is a device, not a regular file",
    "directory": "is a directory, not a file",
    "missing": "no such file or directory",
    "unreadable": "permission denied",
}


@pytest.mark.parametrize("kind", sorted(KIND_WORDS))
@pytest.mark.parametrize("name", sorted(READERS))
def test_a_path_that_is_not_a_regular_file_is_one_line(
    name: str, kind: str, tmp_path: Path
) -> None:
    if kind == "directory" and name in DIRECTORY_OK:
        pytest.skip("a directory is a folder of captures for this reader")
    if kind == "unreadable" and os.geteuid() == 0:
        pytest.skip("root reads files whatever their mode")
    reader, file_name, _ = READERS[name]
    path = tmp_path / file_name
    _make(kind, path)
    message = _one_line_error(reader, path)
    assert file_name in message
    assert KIND_WORDS[kind] in message


def test_a_fifo_in_a_capture_folder_is_named_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "captures"
    folder.mkdir()
    (folder / "topics.txt").write_bytes((CAPTURES / "topics.txt").read_bytes())
    os.mkfifo(folder / "features.txt")
    with wall_limit(10):
        snapshot = _snapshot(folder)
    unread = {Path(u.path).name: u.reason for u in snapshot.unread}  # type: ignore[attr-defined]
    assert unread == {"features.txt": "not a regular file"}


# --- bounded --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(READERS))
def test_a_file_over_the_limit_is_refused_with_its_size(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _valid(name, tmp_path)
    size = path.stat().st_size
    monkeypatch.setenv(LIMIT_ENV, str(size - 1))
    message = _one_line_error(READERS[name][0], path)
    assert f"{size} bytes is over the input limit of {size - 1} bytes" in message
    assert LIMIT_ENV in message
    monkeypatch.setenv(LIMIT_ENV, str(size))
    assert READERS[name][0](path) is not None


@pytest.mark.parametrize("value", ["0", "-5", "lots", "9" * 40])
def test_an_invalid_limit_is_named(
    value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LIMIT_ENV, value)
    message = _one_line_error(_topology, _valid("topology", tmp_path))
    assert message.startswith(f"{LIMIT_ENV}: expected a positive number of bytes")


# --- duplicate keys -------------------------------------------------------------------------

DUPLICATES: dict[str, tuple[str, str, int, int]] = {
    # reader: (text, key, first line, second line)
    "plan": (
        "steps:\n  - restart: {nodes: [1]}\nsteps:\n  - add-broker: {id: 4}\n",
        "steps",
        1,
        3,
    ),
    "snapshot-yaml": (
        "snapshot_version: 1\ntopics:\n  - name: t\n    partitions: []\ntopics: []\n",
        "topics",
        2,
        5,
    ),
    "fleet-snapshot": ("snapshot_version: 1\ntopics: []\nnodes: []\ntopics: []\n", "topics", 2, 4),
    "fleet-plan": (
        "- add-partitions:\n    topic: a\n    topic: b\n    partitions: 4\n",
        "topic",
        2,
        3,
    ),
    "snapshot-json": ('{"snapshot_version": 1,\n "topics": [],\n "topics": []}\n', "topics", 2, 3),
    "reassignment": (
        '{"version": 1, "partitions": [{"topic": "t", "partition": 0,\n'
        ' "replicas": [1, 2],\n "replicas": [3]}]}\n',
        "replicas",
        2,
        3,
    ),
}


@pytest.mark.parametrize("name", sorted(DUPLICATES))
def test_a_key_given_twice_is_an_error_naming_both_lines(name: str, tmp_path: Path) -> None:
    text, key, first, second = DUPLICATES[name]
    reader, file_name, _ = READERS[name]
    path = tmp_path / file_name
    path.write_text(text)
    message = _one_line_error(reader, path)
    assert f"{file_name}:{second}" in message
    assert f"key {key!r} given twice (lines {first} and {second})" in message


# --- aliases --------------------------------------------------------------------------------

LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)
)


@pytest.mark.parametrize("name", YAML_READERS)
@pytest.mark.parametrize("text", [LAUGHS, "- restart: &n {nodes: [1]}\n- restart: *n\n"])
def test_yaml_aliases_are_refused_before_they_expand(name: str, text: str, tmp_path: Path) -> None:
    reader, file_name, _ = READERS[name]
    path = tmp_path / file_name
    path.write_text(text)
    message = _one_line_error(reader, path)
    assert re.search(rf"{re.escape(file_name)}:2:\d+: aliases \(\*name\) are not accepted", message)


# --- numbers too long to convert ------------------------------------------------------------

LONG_NUMBERS: dict[str, str] = {
    "topology": (EXAMPLES / "orders-v1.txt")
    .read_text()
    .replace("Sub-topology: 0", f"Sub-topology: {HUGE}", 1),
    "config": f'fail-on = "error"\nx = {HUGE}\n',
    "plan": f"- add-broker: {{id: {HUGE}}}\n",
    "snapshot-yaml": f"snapshot_version: 1\nnodes:\n  - id: {HUGE}\n",
    "snapshot-json": f'{{"snapshot_version": 1,\n "nodes": [{{"id": {HUGE}}}]}}\n',
    "capture": (CAPTURES / "topics.txt")
    .read_text()
    .replace("PartitionCount: ", f"PartitionCount: {HUGE}", 1),
    "fleet-snapshot": f"snapshot_version: 1\nnodes:\n  - id: {HUGE}\n",
    "fleet-plan": f"- add-partitions: {{topic: t, partitions: {HUGE}}}\n",
    "reassignment": '{"version": 1,\n "partitions": [{"topic": "t", "replicas": [1], "partition": '
    + HUGE
    + "}]}",
}


@pytest.mark.parametrize("name", sorted(LONG_NUMBERS))
def test_a_number_too_long_to_convert_is_a_located_error(name: str, tmp_path: Path) -> None:
    reader, file_name, _ = READERS[name]
    path = tmp_path / file_name
    path.write_text(LONG_NUMBERS[name])
    message = _one_line_error(reader, path)
    assert re.match(rf".*{re.escape(file_name)}:\d+", message), message
    assert HUGE[:100] not in message  # the input is not echoed at length


LONG_NUMBER_STRINGS: list[tuple[str, str]] = [
    # a string holding a number: rules and the simulator convert config values and entities
    (
        "plan",
        f'- alter-config: {{scope: topic, entity: t, key: min.insync.replicas, value: "{HUGE}"}}',
    ),
    ("plan", f'- alter-config: {{scope: broker, entity: "{HUGE}", key: k, value: "1"}}'),
    ("plan", f'- create-topic: {{topic: x, configs: {{min.insync.replicas: "{HUGE}"}}}}'),
    (
        "snapshot-yaml",
        f'snapshot_version: 1\nconfigs:\n  cluster_default: {{retention.ms: "{HUGE}"}}',
    ),
    (
        "snapshot-json",
        f'{{"snapshot_version": 1, "configs": {{"topics": {{"t": {{"x": "{HUGE}"}}}}}}}}',
    ),
]


@pytest.mark.parametrize(("name", "text"), LONG_NUMBER_STRINGS)
def test_a_string_holding_a_number_too_long_to_convert_is_a_located_error(
    name: str, text: str, tmp_path: Path
) -> None:
    reader, file_name, _ = READERS[name]
    path = tmp_path / file_name
    path.write_text(text)
    message = _one_line_error(reader, path)
    assert re.search(
        rf"{re.escape(file_name)}:\d+:\d+: a number of 5000 digits is out of range", message
    )


def test_a_long_number_in_a_streams_config_is_kept_as_text(tmp_path: Path) -> None:
    # .properties values are strings; a rule that needs a number judges it, nothing converts here
    path = tmp_path / "app.properties"
    path.write_text(f"application.id=orders\nnum.standby.replicas={HUGE}\n")
    assert _properties(path).value("num.standby.replicas") == HUGE  # type: ignore[attr-defined]


# --- numbers out of their Kafka type's range ------------------------------------------------

OUT_OF_RANGE: list[tuple[str, str, str]] = [
    # reader, text, what the message says
    ("plan", "- restart: {nodes: [1]}\n- add-broker: {id: 2147483648}\n", "plan.yaml:2"),
    ("plan", "- create-topic: {topic: t, partitions: 1000000000}\n", "plan.yaml:1"),
    ("plan", "- add-partitions: {topic: orders, partitions: 1000000000}\n", "plan.yaml:1"),
    ("plan", "- create-topic: {topic: t, replication-factor: 40000}\n", "plan.yaml:1"),
    ("plan", "- update-feature: {feature: kraft.version, level: 40000}\n", "plan.yaml:1"),
    (
        "plan",
        "- reassign:\n    partitions: [{topic: t, partition: 0, replicas: [1, 4294967296]}]\n",
        "plan.yaml:2",
    ),
    ("snapshot-yaml", "snapshot_version: 1\nnodes:\n  - id: 2147483648\n", "snap.yaml:3"),
    (
        "snapshot-yaml",
        "snapshot_version: 1\nfeatures:\n  kraft.version: {level: 40000}\n",
        "snap.yaml:3",
    ),
    ("snapshot-json", '{"snapshot_version": 1,\n "nodes": [{"id": -1}]}', "snap.json:2"),
    (
        "reassignment",
        '{"version": 1, "partitions": [\n{"topic": "t", "partition": 0, "replicas": [2147483648]}'
        "]}",
        "move.json:2:45",
    ),
]


# each field of a reassignment JSON partition, out of its range: (field, value, what is said)
REASSIGNMENT_OUT_OF_RANGE: list[tuple[str, str, str]] = [
    ("partition", "-1", "greater than or equal to 0"),
    ("partition", "2147483648", "less than or equal to 2147483647"),
    ("partition", "99999999999999999999999", "less than or equal to 2147483647"),
    ("partition", "1e400", "finite number"),
    ("partition", "1.5", "fractional part"),
    ("partition", "true", "boolean"),
    ("replicas", "[1, 2147483648]", "less than or equal to 2147483647"),
    ("replicas", "[1, -2]", "greater than or equal to 0"),
    ("replicas", "[1, 99999999999999999999999]", "less than or equal to 2147483647"),
    ("replicas", "[1, false]", "boolean"),
    ("replicas", "[]", "at least 1 item"),
    ("topic", '""', "at least 1 character"),
    ("log_dirs", '["any", 7]', "valid string"),
]


@pytest.mark.parametrize(("field", "value", "said"), REASSIGNMENT_OUT_OF_RANGE)
def test_a_bad_reassignment_value_is_located_in_the_json_itself(
    field: str, value: str, said: str, tmp_path: Path
) -> None:
    good = {"topic": '"t"', "partition": "0", "replicas": "[1, 2]", "log_dirs": '["any", "any"]'}
    good[field] = value
    entries = ", ".join(f'"{k}": {v}' for k, v in good.items())
    # the bad partition is the second, on line 4, behind a first one that is fine
    path = tmp_path / "move.json"
    path.write_text(
        '{"version": 1,\n "partitions": [\n'
        '  {"topic": "t", "partition": 1, "replicas": [1, 2]},\n'
        f"  {{{entries}}}\n ]}}\n"
    )
    message = _one_line_error(_reassignment, path)
    line = path.read_text().splitlines()[3]
    at = line.index(f'"{field}": ') + len(f'"{field}": ') + 1
    if value.startswith("[") and value != "[]":
        at = line.index(value.split(", ")[1].rstrip("]"), at - 1) + 1
    assert message.startswith(f"{path}:4:{at}: partitions[1].{field}"), message
    assert said in message, message


def test_an_unsupported_reassignment_version_is_located(tmp_path: Path) -> None:
    path = tmp_path / "move.json"
    path.write_text('{"partitions": [],\n "version": 99999999999999999999999}\n')
    message = _one_line_error(_reassignment, path)
    assert message.startswith(f"{path}:2:13: Not supported version field value"), message


def test_a_plan_creating_too_many_partitions_together_is_refused_before_simulating(
    tmp_path: Path,
) -> None:
    path = tmp_path / "plan.yaml"
    path.write_text(
        "".join(f"- create-topic: {{topic: t{n}, partitions: 1000000}}\n" for n in range(3))
    )
    message = _one_line_error(_plan, path)
    assert "plan.yaml:3: step 3 (create-topic): the plan's steps create more than" in message


FEATURES = (CAPTURES / "features.txt").read_text()


@pytest.mark.parametrize(
    "text",
    [
        FEATURES.replace("Epoch: 5127", "Epoch: 11399999999999999999999"),
        FEATURES.replace("SupportedMaxVersion: 1", "SupportedMaxVersion: 40000", 1),
        "Feature: confluent.metadata.version\tSupportedMinVersion: CP-7.3-IV3\t"
        "SupportedMaxVersion: CP-8.1-IV1A\tFinalizedVersionLevel: CP-8.1-IV1A\t"
        "Epoch: 11399999999999999999999\n",
    ],
    ids=["epoch", "level", "vendor-epoch"],
)
def test_a_capture_value_out_of_range_names_its_section(text: str, tmp_path: Path) -> None:
    path = tmp_path / "features.txt"
    path.write_text(text)
    message = _one_line_error(_snapshot, path)
    assert re.search(r"features\.txt(:\d+)?: impossible value", message), message


@pytest.mark.parametrize(("name", "text", "where"), OUT_OF_RANGE)
def test_a_number_out_of_its_kafka_range_is_refused_where_it_is_read(
    name: str, text: str, where: str, tmp_path: Path
) -> None:
    reader, file_name, _ = READERS[name]
    path = tmp_path / file_name
    path.write_text(text)
    message = _one_line_error(reader, path)
    assert where in message or where.replace("plan.yaml", "uses-reassignment.yaml") in message
    assert re.search(r"less than or equal to|greater than or equal to", message), message


# --- the fleet reads snapshots as cluster check does ----------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"snapshot_version: 1\nnodes: []\ncluster_id: \xff\xfe\n",
        "snapshot_version: 1\nnodes: []\n".encode("utf-16"),
        b"snapshot_version: 1\nnodes:\n  " + b"- " * 2_500 + b"1\n",
        b"snapshot_version: 1\nnodes:\n  - {id: 1, roles: [broker], rack: [1, 2]}\n",
        b"snapshot_version: 1\nnodes: []\nnodes: []\n",
    ],
    ids=["invalid-utf8", "utf16-bom", "deep", "pydantic", "duplicate"],
)
def test_fleet_snapshot_errors_are_the_cluster_check_errors(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "snap.yaml"
    path.write_bytes(data)
    outcomes = [_outcome(reader, path) for reader in (_snapshot, _fleet_snapshot)]
    assert outcomes[0] == outcomes[1]
    assert "\n" not in outcomes[0]


def _outcome(reader: Reader, path: Path) -> str:
    try:
        return repr(reader(path))
    except (UnreadableInput, MalformedInput) as error:
        return str(error)


# --- the property ---------------------------------------------------------------------------


def _inputs(name: str) -> st.SearchStrategy[bytes]:
    seeds = TARGETS[name].seeds()
    mutated = (
        st.tuples(st.sampled_from(seeds), st.randoms(use_true_random=False)).map(
            lambda pair: mutate(pair[0], random.Random(pair[1].random()), seeds)
        )
        if seeds
        else st.nothing()
    )
    return st.one_of(st.binary(max_size=4_000), mutated)


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_any_bytes_into_any_reader_give_a_model_or_one_located_error(
    name: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    target = TARGETS[name]
    workdir = tmp_path_factory.mktemp(name)

    @given(data=_inputs(name))
    def check(data: bytes) -> None:
        failure = run_case(target, data, workdir, seconds=5.0)
        assert failure is None, f"{failure.signature}: {failure.message}" if failure else ""

    check()
