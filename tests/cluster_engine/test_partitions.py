"""Partitions stored as columns behave as the tuple of Partition models they replace, and the
describe reader's fast path reads what its general path reads."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest import topics
from cluster_engine.ingest.text import Line, prepare
from cluster_engine.partitions import Partition, Partitions
from cluster_engine.snapshot import Topic

MODELS = (
    Partition(
        topic="t", partition=1, replicas=(3, 1), leader=3, isr=(3,), elr=(), last_known_elr=None
    ),
    Partition(topic="t", partition=0, replicas=(1, 2), leader=None, adding_replicas=(2,)),
    Partition(topic="t", partition=2, replicas=(1, 2), isr=(1, 2), elr=None, last_known_elr=(1,)),
)
AS_TUPLE = TypeAdapter(tuple[Partition, ...])


def test_columns_give_back_the_models_in_order() -> None:
    columns = Partitions.of(MODELS)
    assert list(columns) == list(MODELS)
    assert columns[-1] == MODELS[-1]
    assert columns == MODELS
    assert columns.replicas[0] is not columns.replicas[1]
    assert columns.replicas[1] is columns.replicas[2]  # one tuple per distinct list


def test_a_topic_serialises_its_columns_as_the_tuple_of_models() -> None:
    topic = Topic(name="t", partitions=Partitions.of(MODELS))
    assert topic.model_dump()["partitions"] == list(AS_TUPLE.dump_python(MODELS))
    expected = AS_TUPLE.dump_json(MODELS).decode()
    assert f'"partitions":{expected},' in topic.model_dump_json()
    assert Topic.model_validate_json(topic.model_dump_json()) == topic


def test_a_topic_refuses_partitions_of_another_topic_or_listed_twice() -> None:
    with pytest.raises(ValueError, match="partition 0 names topic 'u'"):
        Topic.model_validate(
            {"name": "t", "partitions": [{"topic": "u", "partition": 0, "replicas": [1]}]}
        )
    with pytest.raises(ValueError, match="partition 0 is listed twice"):
        Topic.model_validate({"name": "t", "partitions": [{"partition": 0, "replicas": [1]}] * 2})


LINES = [
    "Topic: a\tTopicId: x\tPartitionCount: 3\tReplicationFactor: 2\tConfigs: ",
    "\tTopic: a\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\tElr: \tLastKnownElr: ",
    "\tTopic: a\tPartition: 1\tLeader: none\tReplicas: 2,1\tIsr: \tElr: 2\tLastKnownElr: 1",
    "\tTopic: a\tPartition: 2\tLeader: -1\tReplicas: 2\tIsr: 2\tElr: N/A\tLastKnownElr: N/A",
    "\tTopic: b.c-d\tPartition: 7\tLeader: 3\tReplicas: 3\tIsr: 3",
    "Topic:b.c-d\tPartition:8\tLeader:3\tReplicas:3,4\tIsr:3\tElr:\tLastKnownElr:",
    "\tTopic: b.c-d\tPartition: 9\tLeader: 3\tReplicas: 3,4\tIsr: 3\tAdding Replicas: 4\t"
    "Removing Replicas: \tElr: \tLastKnownElr: ",
]


def test_the_fast_path_reads_what_the_general_reader_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = prepare("\n".join(LINES))
    fast, end = topics.parse("t.txt", lines, 0)
    assert end == len(LINES)
    monkeypatch.setattr(topics, "_FAST", re.compile(r"(?!)"))
    monkeypatch.setattr(topics.RowReader, "run", lambda *_: False)
    general, _ = topics.parse("t.txt", lines, 0)
    assert fast.partitions == general.partitions
    assert fast.headers == general.headers
    assert [p.leader for p in fast.partitions] == [1, None, None, 3, 3, 3]
    assert [p.elr for p in fast.partitions] == [(), (2,), None, None, (), ()]


RUNS = {
    "with ELR": [
        "\tTopic: a\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\tElr: \tLastKnownElr: ",
        "\tTopic: a\tPartition: 1\tLeader: none\tReplicas: 2,1\tIsr: \tElr: 2\tLastKnownElr: 1",
        "\tTopic: a\tPartition: 2\tLeader: -1\tReplicas: 2\tIsr: 2\tElr: N/A\tLastKnownElr: N/A",
        "\tTopic:b\tPartition:3\tLeader:2\tReplicas:\tIsr:\tElr:\tLastKnownElr:",
    ],
    "without ELR": [
        "\tTopic: b.c-d\tPartition: 7\tLeader: 3\tReplicas: 3\tIsr: 3",
        "\tTopic: b.c-d\tPartition: 8\tLeader: 3\tReplicas: 3,4\tIsr: ",
    ],
}


def _general(monkeypatch: pytest.MonkeyPatch, lines: Sequence[Line]) -> topics.TopicsDescribe:
    with monkeypatch.context() as m:
        m.setattr(topics, "_FAST", re.compile(r"(?!)"))
        m.setattr(topics.RowReader, "run", lambda *_: False)
        return topics.parse("t.txt", lines, 0)[0]


@pytest.mark.parametrize("run", RUNS.values(), ids=RUNS.keys())
def test_a_run_of_lines_in_the_tool_form_is_read_in_bulk_as_the_general_reader_reads_it(
    monkeypatch: pytest.MonkeyPatch, run: list[str]
) -> None:
    lines = prepare("\n".join(run))
    read = []
    bulk = topics.RowReader.run

    def spy(self: topics.RowReader, *args: Any) -> bool:
        read.append(bulk(self, *args))
        return read[-1]

    monkeypatch.setattr(topics.RowReader, "run", spy)
    fast, end = topics.parse("t.txt", lines, 0)
    assert (end, read) == (len(run), [True])
    assert fast.partitions == _general(monkeypatch, lines).partitions


@pytest.mark.parametrize(
    ("odd", "read"),
    [
        ("\tTopic: a\tPartition: 9\tLeader: 1\tReplicas: 1 \tIsr: 1\tElr: \tLastKnownElr: ", 9),
        ("\tTopic: a\tPartition: 9\tLeader: 1\tReplicas: 1\tIsr: 1", 9),  # no ELR pair here
        (
            "\tTopic: a\tPartition: 9\tLeader: 1\tReplicas: 1\tIsr: 1\tAdding Replicas: 2\t"
            "Removing Replicas: \tElr: \tLastKnownElr: ",
            9,
        ),
        ("\t  Topic: a\tPartition: 9\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \tLastKnownElr: ", 9),
    ],
)
def test_a_run_with_a_line_in_another_form_is_read_line_by_line(
    monkeypatch: pytest.MonkeyPatch, odd: str, read: int
) -> None:
    run = RUNS["with ELR"]
    lines = prepare("\n".join([*run[:2], odd, *run[2:]]))
    fast, end = topics.parse("t.txt", lines, 0)
    numbers = [p.partition for p in fast.partitions]
    assert (end, numbers) == (len(run) + 1, [0, 1, read, 2, 3])
    assert fast.partitions == _general(monkeypatch, lines).partitions


def test_lines_that_add_up_to_whole_records_are_not_read_as_records() -> None:
    run = RUNS["with ELR"]
    two = run[0] + run[1]  # two records on one line: the general reader refuses it
    one, rest = run[2].split("\tPartition:")
    lines = prepare("\n".join([two, one, "\tPartition:" + rest]))
    with pytest.raises(ClusterInputError, match=r"t\.txt:1: field Topic: appears twice"):
        topics.parse("t.txt", lines, 0)


@pytest.mark.parametrize(
    ("odd", "error"),
    [
        (
            "\tTopic: a\tPartition: 9\tLeader: 1\tReplicas: 1,2147483648\tIsr: 1\tElr: \t"
            "LastKnownElr: ",
            r"Replicas: .*out of range",
        ),
        (
            "\tTopic: a\tPartition: 2147483648\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \t"
            "LastKnownElr: ",
            r"Partition: .*out of range",
        ),
        (
            "\tTopic: a\tPartition: 9\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: x\tLastKnownElr: ",
            r"Elr: expected comma-separated broker ids, got 'x'",
        ),
        ("\tTopic: a\tPartition: 9", r"partition line without Leader:"),
    ],
)
def test_an_error_in_a_run_is_located_on_its_line(odd: str, error: str) -> None:
    run = RUNS["with ELR"]
    with pytest.raises(ClusterInputError, match=rf"t\.txt:3: {error}"):
        topics.parse("t.txt", prepare("\n".join([*run[:2], odd, *run[2:]])), 0)


def test_a_describe_of_topics_without_partitions_assembles(tmp_path: Path) -> None:
    from cluster_engine.ingest import load_snapshot

    path = tmp_path / "topics.txt"
    path.write_text("Topic: a\tTopicId: x\tPartitionCount: 0\tReplicationFactor: 1\tConfigs: \n")
    snapshot = load_snapshot(path)
    assert [(t.name, len(t.partitions)) for t in snapshot.topics] == [("a", 0)]


def _plain_or_error(value: Any) -> tuple[bool, Any]:
    from cluster_engine.partitions import _plain

    fast = _plain(value)
    try:
        slow: Any = Partitions.of(AS_TUPLE.validate_python(value))
    except ValueError:
        slow = None
    return fast is not None, (fast, slow)


_ODD = (True, False, 1.0, "1", None, -1, 2**31, 2**40, [1], (1,), {"x": 1})


def test_plain_partitions_are_read_by_columns_as_pydantic_reads_them() -> None:
    """A snapshot's partitions as read from JSON/YAML are validated column by column; whatever
    that path accepts, pydantic accepts the same, to the same values (True is no 1 there)."""
    import json
    import random

    rng = random.Random(5)
    keys = ("topic", "partition", "replicas", "leader", "isr", "elr", "last_known_elr",
            "adding_replicas", "removing_replicas")  # fmt: skip
    taken = 0
    for _ in range(3000):
        parts: list[Any] = []
        for n in range(rng.randint(1, 4)):
            replicas = rng.sample(range(5), rng.randint(1, 3))
            p: dict[str, Any] = {"topic": "t", "partition": n, "replicas": replicas}
            for key in keys[3:]:
                if rng.random() < 0.5:
                    p[key] = rng.choice([replicas[:1], replicas, [], None, 2, (1, 2)])
            if "leader" in p:
                p["leader"] = rng.choice([None, replicas[0], -1])
            parts.append(p)
        if rng.random() < 0.6:  # one odd value, key or element somewhere
            p = rng.choice(parts)
            key = rng.choice([*keys, "extra"])
            where = rng.random()
            if where < 0.3 and isinstance(p.get(key), list) and p[key]:
                p[key] = [*p[key][:-1], rng.choice(_ODD)]
            elif where < 0.4:
                p.pop(key, None)
            elif where < 0.5:
                parts[parts.index(p)] = rng.choice(_ODD)
            else:
                p[key] = rng.choice(_ODD)
        fast_taken, (fast, slow) = _plain_or_error(parts)
        if fast_taken:
            taken += 1
            assert slow is not None, parts
            assert json.dumps(fast.dump()) == json.dumps(slow.dump()), parts
            assert fast == slow
            assert fast.topics == slow.topics
    assert taken > 300  # the column path is taken often
