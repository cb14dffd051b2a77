"""``kafka-topics.sh --describe``: topic header lines and partition lines.

Format: 4.1 tools/src/main/java/org/apache/kafka/tools/TopicCommand.java:289-302 (header),
:348-384 (partition). ``Elr``/``LastKnownElr`` exist since 3.8; ``N/A`` when the admin client
fell back to the Metadata API, empty when the partition has none. Fields are TAB-separated; the
pre-2.x form without a space after the colon (``Topic:foo``) is read too.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import itemgetter

from cluster_engine.bounds import INT32_MAX
from cluster_engine.ingest.text import Line, Lines, fail, int_list, to_int
from cluster_engine.ingest.topic_rows import PartitionLine, PartitionRows, RowReader

__all__ = ["PartitionLine", "PartitionRows", "TopicHeader", "TopicsDescribe", "parse", "starts"]

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
class TopicsDescribe:
    headers: tuple[TopicHeader, ...]
    rows: PartitionRows

    @property
    def partitions(self) -> tuple[PartitionLine, ...]:
        return tuple(self.rows.row(i) for i in range(len(self.rows)))


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


# The tool's own partition line in its most common form, read without splitting it into fields.
# Whatever it accepts, the general reader below reads the same; anything else goes there.
# Numbers of at most 10 digits: they fit the int64 arrays; one above int32 goes to the general
# reader, which says where it is out of range.
_IDS = r"[0-9]{1,10}(?:,[0-9]{1,10})*"
_FAST = re.compile(
    rf"[ \t]*Topic: ?([A-Za-z0-9._-]+)\tPartition: ?([0-9]{{1,10}})"
    rf"\tLeader: ?([0-9]{{1,10}}|none|-1)"
    rf"\tReplicas: ?({_IDS})?\tIsr: ?({_IDS})?"
    rf"(\tElr: ?({_IDS}|N/A)?\tLastKnownElr: ?({_IDS}|N/A)?)?"
)


def parse(path: str, lines: Sequence[Line], start: int) -> tuple[TopicsDescribe, int]:
    headers: list[TopicHeader] = []
    reader = RowReader()
    texts: Sequence[str]
    numbers: Sequence[int]
    breaks: Collection[int]
    if isinstance(lines, Lines):
        texts, numbers, breaks = lines.texts, lines.numbers, lines.breaks
    else:
        texts, numbers = [x.text for x in lines], [x.number for x in lines]
        breaks = {i for i, x in enumerate(lines) if x.after_break}
    cuts = sorted(breaks)
    i = start
    while i < len(texts) and (i == start or i not in breaks):
        # up to _CHUNK lines, to the next break: runs of TAB-led lines are read in bulk
        stop = min(len(texts), i + _CHUNK)
        after = bisect_right(cuts, i)
        stop = min(stop, cuts[after]) if after < len(cuts) else stop
        # each line split at its first three TABs: what the bulk reader reads, and what tells
        # TAB-led lines (an empty first part) from the others
        parts = list(map(str.split, texts[i:stop], repeat("\t"), repeat(3)))
        for a, b in _runs(parts, i, stop):
            if b - a > 1 and reader.run(parts[a - i : b - i], texts[a], numbers, a):
                continue
            for k in range(a, b):
                if not _line(path, lines[k], reader, headers):
                    return TopicsDescribe(tuple(headers), reader.rows), k
        i = stop
    return TopicsDescribe(tuple(headers), reader.rows), i


# Lines taken at a time: bounds the memory of a run's fields.
_CHUNK = 4096


def _runs(parts: list[list[str]], start: int, stop: int) -> Iterator[tuple[int, int]]:
    """``range(start, stop)`` cut into maximal runs of TAB-led lines (their text before the first
    TAB, ``parts[k][0]``, is empty) and single other lines."""
    others = compress(range(start, stop), map(itemgetter(0), parts))
    a = start
    for k in [*others, stop]:
        if a < k:
            yield a, k
        if k < stop:
            yield k, k + 1
        a = k + 1


def _line(path: str, line: Line, reader: RowReader, headers: list[TopicHeader]) -> bool:
    """Read one line; False when it is no line of a topics describe (the output ended)."""
    m = _FAST.fullmatch(line.text)
    if m is not None and reader.fast(line.number, m):
        return True
    if not _START.match(line.stripped):
        return False
    fields = _fields(path, line)
    if "Partition" in fields:
        reader.general(_partition(path, line, fields))
    elif "PartitionCount" in fields:
        headers.append(_header(path, line, fields))
    else:
        raise fail(path, line, "expected a topic header (PartitionCount:) or a partition line")
    return True


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
    ids = {
        key: int_list(path, line, fields.get(key, ""), key)
        for key in ("Replicas", "Isr", "Adding Replicas", "Removing Replicas")
    }
    partition = to_int(path, line, fields["Partition"], "Partition")
    for what, value in (("Partition", partition), ("Leader", leader)):
        if value is not None and not 0 <= value <= INT32_MAX:
            raise fail(path, line, f"{what}: {value} is out of range (0 to {INT32_MAX})")
    for what, values in ids.items():
        if any(not 0 <= v <= INT32_MAX for v in values):
            raise fail(path, line, f"{what}: a broker id out of range (0 to {INT32_MAX})")
    return PartitionLine(
        line=line.number,
        topic=fields["Topic"],
        partition=partition,
        leader=leader,
        replicas=ids["Replicas"],
        isr=ids["Isr"],
        adding=ids["Adding Replicas"],
        removing=ids["Removing Replicas"],
        elr=_elr(path, line, fields, "Elr"),
        last_known_elr=_elr(path, line, fields, "LastKnownElr"),
        marked_for_deletion=fields.get("MarkedForDeletion") == "true",
    )
