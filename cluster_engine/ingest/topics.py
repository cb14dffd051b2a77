"""``kafka-topics.sh --describe``: topic header lines and partition lines.

Format: 4.1 tools/src/main/java/org/apache/kafka/tools/TopicCommand.java:289-302 (header),
:348-384 (partition). ``Elr``/``LastKnownElr`` exist since 3.8; ``N/A`` when the admin client
fell back to the Metadata API, empty when the partition has none. Fields are TAB-separated; the
pre-2.x form without a space after the colon (``Topic:foo``) is read too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from cluster_engine.ingest.text import Line, fail, int_list, to_int

_HEADER_KEYS = (
    "Topic",
    "TopicId",
    "PartitionCount",
    "ReplicationFactor",
    "Configs",
    "MarkedForDeletion",
)
_PARTITION_KEYS = (
    "Topic",
    "Partition",
    "Leader",
    "Replicas",
    "Isr",
    "Adding Replicas",
    "Removing Replicas",
    "Elr",
    "LastKnownElr",
    "MarkedForDeletion",
)
_KEY = re.compile(
    r"(?:^|(?<=\s))("
    + "|".join(
        re.escape(k) for k in sorted(set(_HEADER_KEYS + _PARTITION_KEYS), key=len, reverse=True)
    )
    + r"):"
)
_START = re.compile(r"^Topic:\s*\S+\s+(?:TopicId|PartitionCount|Partition):")


@dataclass(frozen=True, slots=True)
class TopicHeader:
    line: int
    topic: str
    topic_id: str | None
    partition_count: int
    replication_factor: int
    configs: tuple[tuple[str, str], ...]
    marked_for_deletion: bool


@dataclass(frozen=True, slots=True)
class PartitionLine:
    line: int
    topic: str
    partition: int
    leader: int | None
    replicas: tuple[int, ...]
    isr: tuple[int, ...]
    adding: tuple[int, ...]
    removing: tuple[int, ...]
    elr: tuple[int, ...] | None  # None: not printed, or N/A
    last_known_elr: tuple[int, ...] | None
    marked_for_deletion: bool


@dataclass(frozen=True, slots=True)
class TopicsDescribe:
    headers: tuple[TopicHeader, ...]
    partitions: tuple[PartitionLine, ...]


def starts(line: Line) -> bool:
    return _START.match(line.stripped) is not None


_KNOWN = frozenset(_HEADER_KEYS + _PARTITION_KEYS)


def _fields(path: str, line: Line) -> dict[str, str]:
    text = line.stripped
    if "\t" in text:  # the tool's own form: one TAB between fields
        fields: dict[str, str] = {}
        for part in text.split("\t"):
            key, sep, value = part.partition(":")
            if not sep or key not in _KNOWN or key in fields:
                break
            fields[key] = value.strip()
        else:
            return fields
    return _split_on_keys(path, line, text)


def _split_on_keys(path: str, line: Line, text: str) -> dict[str, str]:
    matches = list(_KEY.finditer(text))
    if not matches or matches[0].start() != 0:
        raise fail(path, line, "expected 'Topic: <name>' and TAB-separated 'Key: value' fields")
    fields = {}
    for m, nxt in zip(matches, [*matches[1:], None], strict=True):
        key = m.group(1)
        if key in fields:
            raise fail(path, line, f"field {key}: appears twice")
        fields[key] = text[m.end() : nxt.start() if nxt else len(text)].strip()
    return fields


def _elr(path: str, line: Line, fields: dict[str, str], key: str) -> tuple[int, ...] | None:
    value = fields.get(key)
    if value is None or value == "N/A":
        return None
    return int_list(path, line, value, key)


def _configs(path: str, line: Line, text: str) -> tuple[tuple[str, str], ...]:
    if not text:
        return ()
    out: list[tuple[str, str]] = []
    # Values may contain commas (e.g. throttled replica lists): split before "<name>=".
    for item in re.split(r",(?=[A-Za-z][\w.-]*=)", text):
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise fail(path, line, f"Configs: expected name=value pairs, got {item!r}")
        out.append((name.strip(), value.strip()))
    return tuple(out)


def parse(path: str, lines: Sequence[Line], start: int) -> tuple[TopicsDescribe, int]:
    headers: list[TopicHeader] = []
    partitions: list[PartitionLine] = []
    i = start
    while i < len(lines) and (i == start or not lines[i].after_break):
        line = lines[i]
        if not _START.match(line.stripped):
            break
        fields = _fields(path, line)
        if "Partition" in fields:
            partitions.append(_partition(path, line, fields))
        elif "PartitionCount" in fields:
            headers.append(_header(path, line, fields))
        else:
            raise fail(path, line, "expected a topic header (PartitionCount:) or a partition line")
        i += 1
    return TopicsDescribe(tuple(headers), tuple(partitions)), i


def _header(path: str, line: Line, fields: dict[str, str]) -> TopicHeader:
    unknown = set(fields) - set(_HEADER_KEYS)
    if unknown:
        raise fail(path, line, f"unexpected field(s) in a topic header: {sorted(unknown)}")
    for key in ("PartitionCount", "ReplicationFactor"):
        if key not in fields:
            raise fail(path, line, f"topic header without {key}:")
    return TopicHeader(
        line=line.number,
        topic=fields["Topic"],
        topic_id=fields.get("TopicId") or None,
        partition_count=to_int(path, line, fields["PartitionCount"], "PartitionCount"),
        replication_factor=to_int(path, line, fields["ReplicationFactor"], "ReplicationFactor"),
        configs=_configs(path, line, fields.get("Configs", "")),
        marked_for_deletion=fields.get("MarkedForDeletion") == "true",
    )


def _partition(path: str, line: Line, fields: dict[str, str]) -> PartitionLine:
    unknown = set(fields) - set(_PARTITION_KEYS)
    if unknown:
        raise fail(path, line, f"unexpected field(s) in a partition line: {sorted(unknown)}")
    for key in ("Leader", "Replicas", "Isr"):
        if key not in fields:
            raise fail(path, line, f"partition line without {key}:")
    leader_text = fields["Leader"]
    leader = None if leader_text in ("none", "-1") else to_int(path, line, leader_text, "Leader")
    return PartitionLine(
        line=line.number,
        topic=fields["Topic"],
        partition=to_int(path, line, fields["Partition"], "Partition"),
        leader=leader,
        replicas=int_list(path, line, fields["Replicas"], "Replicas"),
        isr=int_list(path, line, fields["Isr"], "Isr"),
        adding=int_list(path, line, fields.get("Adding Replicas", ""), "Adding Replicas"),
        removing=int_list(path, line, fields.get("Removing Replicas", ""), "Removing Replicas"),
        elr=_elr(path, line, fields, "Elr"),
        last_known_elr=_elr(path, line, fields, "LastKnownElr"),
        marked_for_deletion=fields.get("MarkedForDeletion") == "true",
    )
