"""``kafka-metadata-quorum.sh describe --status`` and ``--replication``; ``kafka-cluster.sh
cluster-id``.

Formats: 4.1 tools/src/main/java/org/apache/kafka/tools/MetadataQuorumCommand.java:251-278
(status; voters as ids up to 3.8, JSON-like objects from 3.9 with ``"directoryId": null`` in
3.9/4.0 and the key omitted from 4.1 for ZERO_UUID), :198-236 (replication table, cells padded
then TAB-terminated by ToolsUtils.prettyPrintTable; DirectoryId column from 3.9).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cluster_engine.ingest.text import Line, fail, to_int
from linter import inputs

ZERO_UUID = "AAAAAAAAAAAAAAAAAAAAAA"

_STATUS = re.compile(
    r"^(?P<label>ClusterId|LeaderId|LeaderEpoch|HighWatermark|MaxFollowerLag|MaxFollowerLagTimeMs"
    r"|CurrentVoters|CurrentObservers):\s*(?P<value>.*)$"
)
_TABLE_HEAD = re.compile(
    r"^NodeId\s+(?P<dir>DirectoryId\s+)?LogEndOffset\s+Lag\s+LastFetchTimestamp\s+"
    r"LastCaughtUpTimestamp\s+Status$"
)
_CELL_TIME = re.compile(r"^(?:-?\d+|\d+ ms ago)$")
_CLUSTER_ID = re.compile(r"^Cluster ID: (?P<id>\S+)$")
_STATUSES = ("Leader", "Follower", "Observer")


@dataclass(frozen=True, slots=True)
class Member:
    id: int
    directory_id: str | None
    endpoints: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class QuorumStatus:
    line: int
    cluster_id: str | None
    leader_id: int | None
    leader_epoch: int | None
    high_watermark: int | None
    max_follower_lag: int | None
    max_follower_lag_time_ms: int | None
    voters: tuple[Member, ...] | None
    observers: tuple[Member, ...] | None


@dataclass(frozen=True, slots=True)
class ReplicationRow:
    line: int
    node_id: int
    directory_id: str | None
    log_end_offset: int
    lag: int
    last_fetch_timestamp: int | None  # None: -1, or printed as "<n> ms ago"
    last_caught_up_timestamp: int | None
    status: str  # Leader | Follower | Observer


@dataclass(frozen=True, slots=True)
class QuorumReplication:
    rows: tuple[ReplicationRow, ...]


@dataclass(frozen=True, slots=True)
class ClusterId:
    line: int
    cluster_id: str


def starts_status(line: Line) -> bool:
    return _STATUS.match(line.stripped) is not None


def starts_replication(line: Line) -> bool:
    return _TABLE_HEAD.match(" ".join(line.text.split())) is not None


def starts_cluster_id(line: Line) -> bool:
    return _CLUSTER_ID.match(line.stripped) is not None


def parse_cluster_id(path: str, lines: Sequence[Line], start: int) -> tuple[ClusterId, int]:
    m = _CLUSTER_ID.match(lines[start].stripped)
    assert m is not None
    return ClusterId(lines[start].number, m["id"]), start + 1


def parse_status(path: str, lines: Sequence[Line], start: int) -> tuple[QuorumStatus, int]:
    values: dict[str, tuple[Line, str]] = {}
    i = start
    while i < len(lines) and (i == start or not lines[i].after_break):
        line = lines[i]
        m = _STATUS.match(line.stripped)
        if m is None:
            break
        label, value = m["label"], m["value"]
        if label in values:
            break  # a second status block follows
        i += 1
        if label in ("CurrentVoters", "CurrentObservers"):
            # Documentation wraps long lists over several lines; the tool prints one line.
            while not _balanced(value) and i < len(lines) and not lines[i].after_break:
                value += " " + lines[i].stripped
                i += 1
        values[label] = (line, value)

    def number(label: str) -> int | None:
        if label not in values:
            return None
        line, value = values[label]
        return to_int(path, line, value, label)

    def members(label: str) -> tuple[Member, ...] | None:
        if label not in values:
            return None
        return _members(path, *values[label], label)

    return QuorumStatus(
        line=lines[start].number,
        cluster_id=values["ClusterId"][1].strip() if "ClusterId" in values else None,
        leader_id=number("LeaderId"),
        leader_epoch=number("LeaderEpoch"),
        high_watermark=number("HighWatermark"),
        max_follower_lag=number("MaxFollowerLag"),
        max_follower_lag_time_ms=number("MaxFollowerLagTimeMs"),
        voters=members("CurrentVoters"),
        observers=members("CurrentObservers"),
    ), i


def _balanced(text: str) -> bool:
    return text.count("[") <= text.count("]") and text.count("{") <= text.count("}")


def _members(path: str, line: Line, text: str, label: str) -> tuple[Member, ...]:
    try:
        data: Any = inputs.load_json(text, path)
    except inputs.MalformedInput:
        raise fail(
            path,
            line,
            f"{label}: expected [id,...] or a list of "
            f'{{"id": ..., "directoryId": ..., "endpoints": [...]}}, got {inputs.quote(text)}',
        ) from None
    if not isinstance(data, list):
        raise fail(path, line, f"{label}: expected a list, got {inputs.quote(text)}")
    out: list[Member] = []
    for item in data:
        if isinstance(item, int):  # 3.3-3.8: ids only
            out.append(Member(item, None, ()))
        elif isinstance(item, dict) and isinstance(item.get("id"), int):
            directory = item.get("directoryId")
            endpoints = item.get("endpoints", [])
            if not (directory is None or isinstance(directory, str)) or not isinstance(
                endpoints, list
            ):
                raise fail(path, line, f"{label}: unexpected member {item!r}")
            out.append(
                Member(
                    item["id"],
                    None if directory in (None, ZERO_UUID) else directory,
                    tuple(str(e) for e in endpoints),
                )
            )
        else:
            raise fail(path, line, f"{label}: unexpected member {item!r}")
    return tuple(out)


def parse_replication(
    path: str, lines: Sequence[Line], start: int
) -> tuple[QuorumReplication, int]:
    head = _TABLE_HEAD.match(" ".join(lines[start].text.split()))
    assert head is not None
    with_dir = head["dir"] is not None
    rows: list[ReplicationRow] = []
    i = start + 1
    while i < len(lines) and not lines[i].after_break:
        line = lines[i]
        if not line.stripped[:1].isdigit():
            break
        cells = _cells(line.text)
        if len(cells) != (7 if with_dir else 6) or cells[-1] not in _STATUSES:
            raise fail(
                path,
                line,
                "expected a row of NodeId, "
                + ("DirectoryId, " if with_dir else "")
                + "LogEndOffset, Lag, LastFetchTimestamp, LastCaughtUpTimestamp, Status",
            )
        if not with_dir:
            cells.insert(1, ZERO_UUID)
        for cell in cells[4:6]:
            if not _CELL_TIME.match(cell):
                raise fail(path, line, f"expected a timestamp or '<n> ms ago', got {cell!r}")
        rows.append(
            ReplicationRow(
                line=line.number,
                node_id=to_int(path, line, cells[0], "NodeId"),
                directory_id=None if cells[1] == ZERO_UUID else cells[1],
                log_end_offset=to_int(path, line, cells[2], "LogEndOffset"),
                lag=to_int(path, line, cells[3], "Lag"),
                last_fetch_timestamp=_timestamp(cells[4]),
                last_caught_up_timestamp=_timestamp(cells[5]),
                status=cells[6],
            )
        )
        i += 1
    return QuorumReplication(tuple(rows)), i


def _cells(text: str) -> list[str]:
    if "\t" in text:
        return [c.strip() for c in text.strip().split("\t") if c.strip()]
    # Tabs lost in copying: "<n> ms ago" is the only cell with spaces in it.
    return re.findall(r"\d+ ms ago|\S+", text)


def _timestamp(cell: str) -> int | None:
    if cell.endswith("ago"):
        return None
    value = int(cell)
    return None if value < 0 else value
