"""``kafka-log-dirs.sh --describe``: two fixed lines, then one line of JSON.

Format: 4.1 tools/src/main/java/org/apache/kafka/tools/LogDirsCommand.java:75-146. Key order
differs between the Scala (<= 3.5) and Java tools; the JSON is read as JSON, never by position.
The tool prints no disk totals; ``total_bytes``/``usable_bytes`` are read when present (e.g.
added from the Admin API's LogDirDescription by whoever captured the file).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cluster_engine.ingest.text import Line, fail, int_list, read_json, topic_partition
from cluster_engine.snapshot import LogDir, ReplicaSize

_QUERYING = "Querying brokers for log directories information"
_RECEIVED = re.compile(r"^Received log directory information from brokers (?P<ids>[\d,]*)$")


@dataclass(frozen=True, slots=True)
class LogDirsDescribe:
    line: int
    queried: tuple[int, ...] | None
    log_dirs: tuple[LogDir, ...]


def starts(line: Line) -> bool:
    return line.stripped == _QUERYING or _RECEIVED.match(line.stripped) is not None


def starts_json(data: Any) -> bool:
    return isinstance(data, dict) and "brokers" in data


def parse(path: str, lines: Sequence[Line], start: int) -> tuple[LogDirsDescribe, int]:
    i = start
    queried: tuple[int, ...] | None = None
    while i < len(lines) and (i == start or not lines[i].after_break):
        text = lines[i].stripped
        if text == _QUERYING:
            i += 1
        elif m := _RECEIVED.match(text):
            queried = int_list(path, lines[i], m["ids"], "brokers")
            i += 1
        else:
            break
    if i >= len(lines) or lines[i].after_break or not lines[i].stripped.startswith("{"):
        raise fail(path, lines[min(i, len(lines) - 1)], "expected the log-dirs JSON")
    data, end = read_json(path, lines, i)
    result = from_json(path, lines[i], data)
    return LogDirsDescribe(result.line, queried, result.log_dirs), end


def from_json(path: str, line: Line, data: Any) -> LogDirsDescribe:
    if not isinstance(data, dict) or not isinstance(data.get("brokers"), list):
        raise fail(path, line, 'expected {"brokers":[...],"version":1}')
    dirs: list[LogDir] = []
    for broker in data["brokers"]:
        if not isinstance(broker, dict) or not isinstance(broker.get("broker"), int):
            raise fail(path, line, f'expected {{"broker":<id>,"logDirs":[...]}}, got {broker!r}')
        for d in broker.get("logDirs", []):
            dirs.append(_log_dir(path, line, broker["broker"], d))
    return LogDirsDescribe(line.number, None, tuple(dirs))


def _log_dir(path: str, line: Line, broker: int, d: Any) -> LogDir:
    if not isinstance(d, dict) or not isinstance(d.get("logDir"), str):
        raise fail(path, line, f"broker {broker}: expected a log dir object, got {d!r}")
    replicas: list[ReplicaSize] = []
    for p in d.get("partitions", []):
        ok = (
            isinstance(p, dict)
            and isinstance(p.get("partition"), str)
            and isinstance(p.get("size"), int)
        )
        if not ok:
            raise fail(path, line, f"broker {broker}: expected a partition object, got {p!r}")
        topic, partition = topic_partition(path, line, p["partition"])
        try:
            replicas.append(
                ReplicaSize(
                    topic=topic,
                    partition=partition,
                    size=p["size"],
                    offset_lag=int(p.get("offsetLag", 0)),
                    is_future=bool(p.get("isFuture", False)),
                )
            )
        except (ValueError, TypeError, OverflowError):  # ValidationError is a ValueError
            raise fail(path, line, f"broker {broker}: impossible size or lag in {p!r}") from None
    error = d.get("error")
    replicas.sort(key=lambda r: (r.topic, r.partition, r.is_future))
    try:
        return LogDir(
            broker=broker,
            path=d["logDir"],
            error=str(error) if error is not None else None,
            total_bytes=d.get("totalBytes"),
            usable_bytes=d.get("usableBytes"),
            replicas=tuple(replicas),
        )
    except ValueError:  # pydantic's ValidationError: a negative broker id, say
        where = {k: d.get(k) for k in ("logDir", "totalBytes", "usableBytes")}
        raise fail(path, line, f"broker {broker}: impossible log dir {where!r}") from None
