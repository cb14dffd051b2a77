"""``kafka-topics.sh --describe``: topic header lines and partition lines.

Format: 4.1 tools/src/main/java/org/apache/kafka/tools/TopicCommand.java:289-302 (header),
:348-384 (partition). ``Elr``/``LastKnownElr`` exist since 3.8; ``N/A`` when the admin client
fell back to the Metadata API, empty when the partition has none. Fields are TAB-separated; the
pre-2.x form without a space after the colon (``Topic:foo``) is read too.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Container, Sequence
from dataclasses import dataclass, field

from cluster_engine.bounds import INT32_MAX
from cluster_engine.ingest.text import Line, Lines, fail, int_list, to_int
from cluster_engine.partitions import NO_LEADER, Interner, Members

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


@dataclass(slots=True)
class PartitionRows:
    """Partition lines as columns, in the order read; broker lists interned."""

    line: array[int] = field(default_factory=lambda: array("q"))
    topic: list[str] = field(default_factory=list)
    number: array[int] = field(default_factory=lambda: array("q"))
    leader: array[int] = field(default_factory=lambda: array("q"))  # NO_LEADER: none
    replicas: list[Members] = field(default_factory=list)
    isr: list[Members] = field(default_factory=list)
    adding: list[Members] = field(default_factory=list)
    removing: list[Members] = field(default_factory=list)
    elr: list[Members | None] = field(default_factory=list)
    last_known_elr: list[Members | None] = field(default_factory=list)
    deleting: set[int] = field(default_factory=set)  # rows marked for deletion

    def __len__(self) -> int:
        return len(self.number)

    def append(self, p: PartitionLine, intern: Interner, topic: str) -> None:
        if p.marked_for_deletion:
            self.deleting.add(len(self.number))
        self.line.append(p.line)
        self.topic.append(topic)
        self.number.append(p.partition)
        self.leader.append(NO_LEADER if p.leader is None else p.leader)
        self.replicas.append(intern(p.replicas))
        self.isr.append(intern(p.isr))
        self.adding.append(intern(p.adding))
        self.removing.append(intern(p.removing))
        self.elr.append(intern.maybe(p.elr))
        self.last_known_elr.append(intern.maybe(p.last_known_elr))

    def row(self, i: int) -> PartitionLine:
        leader = self.leader[i]
        return PartitionLine(
            line=self.line[i],
            topic=self.topic[i],
            partition=self.number[i],
            leader=None if leader == NO_LEADER else leader,
            replicas=self.replicas[i],
            isr=self.isr[i],
            adding=self.adding[i],
            removing=self.removing[i],
            elr=self.elr[i],
            last_known_elr=self.last_known_elr[i],
            marked_for_deletion=i in self.deleting,
        )


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


class _OutOfRange(Exception):
    """A broker id beyond int32 in a list the fast path read: the general reader says where."""


class _Reader:
    """Fills ``PartitionRows``; each distinct broker list text is converted (and its ids checked
    against Kafka's int32) once."""

    def __init__(self) -> None:
        self.rows = PartitionRows()
        self.intern = Interner()
        self.names: dict[str, str] = {}
        self.lists: dict[str, Members] = {}

    def ids(self, text: str | None) -> Members:
        if text is None:
            return ()
        found = self.lists.get(text)
        if found is None:
            values = tuple(map(int, text.split(",")))
            if max(values) > INT32_MAX:
                raise _OutOfRange(text)
            found = self.lists[text] = self.intern(values)
        return found

    def elr(self, text: str | None) -> Members | None:
        return None if text == "N/A" else self.ids(text)

    def fast(self, number: int, m: re.Match[str]) -> bool:
        """Read a line ``_FAST`` matched; False (nothing read) when a number is out of range."""
        topic, partition, leader, replicas, isr, has_elr, elr, last_known = m.groups()
        index = int(partition)
        led = NO_LEADER if leader in ("none", "-1") else int(leader)
        if index > INT32_MAX or led > INT32_MAX:
            return False
        try:
            members = self.ids(replicas), self.ids(isr)
            eligible = (None, None) if has_elr is None else (self.elr(elr), self.elr(last_known))
        except _OutOfRange:
            return False
        rows = self.rows
        rows.line.append(number)
        rows.topic.append(self.names.setdefault(topic, topic))
        rows.number.append(index)
        rows.leader.append(led)
        rows.replicas.append(members[0])
        rows.isr.append(members[1])
        rows.adding.append(())
        rows.removing.append(())
        rows.elr.append(eligible[0])
        rows.last_known_elr.append(eligible[1])
        return True

    def general(self, p: PartitionLine) -> None:
        self.rows.append(p, self.intern, self.names.setdefault(p.topic, p.topic))


def parse(path: str, lines: Sequence[Line], start: int) -> tuple[TopicsDescribe, int]:
    headers: list[TopicHeader] = []
    reader = _Reader()
    fast = _FAST.fullmatch
    texts: Sequence[str]
    numbers: Sequence[int]
    breaks: Container[int]
    if isinstance(lines, Lines):
        texts, numbers, breaks = lines.texts, lines.numbers, lines.breaks
    else:
        texts, numbers = [x.text for x in lines], [x.number for x in lines]
        breaks = {i for i, x in enumerate(lines) if x.after_break}
    i = start
    while i < len(texts) and (i == start or i not in breaks):
        m = fast(texts[i])
        if m is not None and reader.fast(numbers[i], m):
            i += 1
            continue
        line = lines[i]
        if not _START.match(line.stripped):
            break
        fields = _fields(path, line)
        if "Partition" in fields:
            reader.general(_partition(path, line, fields))
        elif "PartitionCount" in fields:
            headers.append(_header(path, line, fields))
        else:
            raise fail(path, line, "expected a topic header (PartitionCount:) or a partition line")
        i += 1
    return TopicsDescribe(tuple(headers), reader.rows), i


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
