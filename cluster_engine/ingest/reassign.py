"""``kafka-reassign-partitions.sh``: ``--verify``, ``--list``, ``--execute``, ``--generate``,
``--cancel`` outputs, and the reassignment JSON those commands read and print.

Formats: 4.1 tools/src/main/java/org/apache/kafka/tools/reassign/ReassignPartitionsCommand.java
:279-300, :460-515 (verify), :560-578 (generate), :755-815, :928-937 (execute), :878-902 (list),
:1261-1309 (cancel), :1311-1422 (JSON). The 2.x ``Reassignment of partition [foo,0] is completed``
form (still in the 4.1 docs) is read as well.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cluster_engine.ingest.text import Line, fail, int_list, read_json, topic_partition

TP = tuple[str, int]

_STATE = r"(?P<state>completed|still in progress)"
_STATUS = re.compile(r"^Reassignment of partition (?P<tp>\S+) is " + _STATE + r"\.$")
_STATUS_OLD = re.compile(
    r"^Reassignment of partition \[(?P<topic>.+),(?P<p>\d+)\] is " + _STATE + "$"
)
_NOT_ACTIVE = re.compile(
    r"^There is no active reassignment of partition (?P<tp>\S+), but replica set is "
    r"(?P<cur>[\d,]*) rather than (?P<target>[\d,]*)\.$"
)
_MOVE = re.compile(
    r"^(?:Reassignment of replica \S+ (?:completed successfully|is still in progress)\."
    r"|Partition \S+ on broker \d+ is (?:being moved to log dir .+ instead of .+|not being moved "
    r"from log dir .+ to .+)\."
    r"|Partition \S+ cannot be found in any live log directory on broker \d+\."
    r"|Partition \S+ is not found in any live log dir on broker \d+\. There is likely an offline "
    r"log directory on the broker\.)$"
)
_CLEAR_BROKERS = re.compile(r"^Clearing broker-level throttles on brokers? (?P<ids>[\d,]+)$")
_CLEAR_TOPICS = re.compile(r"^Clearing topic-level throttles on topics? (?P<topics>\S+)$")
_LISTED = re.compile(
    r"^(?P<tp>\S+): replicas: (?P<replicas>[\d,]*)\.(?: adding: (?P<adding>[\d,]+)\.)?"
    r"(?: removing: (?P<removing>[\d,]+)\.)?$"
)
_THROTTLE = re.compile(
    r"^The (?P<what>inter-broker|replica-alter-dir) throttle limit was set to (?P<rate>\d+) B/s$"
)
_STARTED = re.compile(r"^Successfully started partition reassignments? for (?P<tps>\S+)$")
_CANCELLED = re.compile(r"^Successfully cancelled partition reassignments? for: (?P<tps>\S+)$")
_FIXED = {
    "Status of partition reassignment:",
    "Current partition reassignments:",
    "No partition reassignments found.",
    "Save this to use as the --reassignment-json-file option during rollback",
    "Warning: You must run --verify periodically, until the reassignment completes, to ensure "
    "the throttle is removed.",
    "None of the specified partition reassignments are active.",
    "None of the specified partition moves are active.",
}
_JSON_HEADS = {
    "Current partition replica assignment": "current",
    "Proposed partition reassignment configuration": "proposed",
}
_OTHER = re.compile(
    r"^Successfully started moving log directory to .+ for replica \S+ with broker \d+ ?$"
)
_NO_MOVES = "None of the specified partition moves are active."


@dataclass(frozen=True, slots=True)
class PlanEntry:
    topic: str
    partition: int
    replicas: tuple[int, ...]
    log_dirs: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class ReassignmentJson:
    """The ``{"version":1,"partitions":[...]}`` document (a plan, or a printed assignment)."""

    line: int
    partitions: tuple[PlanEntry, ...]


@dataclass(frozen=True, slots=True)
class PartitionStatus:
    line: int
    topic: str
    partition: int
    state: str  # completed | in-progress | not-active
    current: tuple[int, ...] | None = None  # only for not-active
    target: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class ListedReassignment:
    line: int
    topic: str
    partition: int
    replicas: tuple[int, ...]
    adding: tuple[int, ...]
    removing: tuple[int, ...]


@dataclass(slots=True)
class ReassignOutput:
    statuses: list[PartitionStatus] = field(default_factory=list)
    replica_moves: list[str] = field(default_factory=list)  # log-dir move lines, as printed
    listed: list[ListedReassignment] = field(default_factory=list)
    listed_none: bool = False  # "No partition reassignments found."
    current: ReassignmentJson | None = None  # --execute rollback block / --generate current
    proposed: ReassignmentJson | None = None  # --generate proposal (not a cluster fact)
    throttle: int | None = None
    log_dir_throttle: int | None = None
    started: list[TP] = field(default_factory=list)
    cancelled: list[TP] = field(default_factory=list)
    cleared_brokers: tuple[int, ...] | None = None
    cleared_topics: tuple[str, ...] | None = None


def starts(line: Line) -> bool:
    text = line.stripped
    return (
        text in _FIXED
        or text in _JSON_HEADS
        or any(
            r.match(text)
            for r in (
                _STATUS,
                _STATUS_OLD,
                _NOT_ACTIVE,
                _MOVE,
                _CLEAR_BROKERS,
                _CLEAR_TOPICS,
                _THROTTLE,
                _STARTED,
                _CANCELLED,
                _OTHER,
            )
        )
        or text.startswith(_NO_MOVES + "Clearing ")
    )


def parse(path: str, lines: Sequence[Line], start: int) -> tuple[ReassignOutput, int]:
    out = ReassignOutput()
    in_list = False
    i = start
    while i < len(lines) and (i == start or not lines[i].after_break):
        line = lines[i]
        text = line.stripped
        if text.startswith(_NO_MOVES) and text != _NO_MOVES:
            # --cancel prints this sentence without a newline; "Clearing ..." follows on the line.
            text = text[len(_NO_MOVES) :]
        if text in _JSON_HEADS:
            if i + 1 >= len(lines) or not lines[i + 1].stripped.startswith("{"):
                raise fail(path, line, "expected the reassignment JSON on the next line")
            data, end = read_json(path, lines, i + 1)
            setattr(out, _JSON_HEADS[text], plan_from_json(path, lines[i + 1], data))
            i = end
            continue
        if text == "Current partition reassignments:":
            in_list = True
        elif not _read_line(path, line, text, out, in_list):
            break
        i += 1
    return out, i


def _read_line(path: str, line: Line, text: str, out: ReassignOutput, in_list: bool) -> bool:
    """Record what one line says in ``out``; False: not a line of this output."""
    if text == "No partition reassignments found.":
        out.listed_none = True
    elif text in _FIXED or _OTHER.match(text):
        pass
    elif in_list and (m := _LISTED.match(text)):
        topic, p = topic_partition(path, line, m["tp"])
        out.listed.append(
            ListedReassignment(
                line.number,
                topic,
                p,
                int_list(path, line, m["replicas"], "replicas"),
                int_list(path, line, m["adding"] or "", "adding"),
                int_list(path, line, m["removing"] or "", "removing"),
            )
        )
    elif (status := _status(path, line, text)) is not None:
        out.statuses.append(status)
    elif _MOVE.match(text):
        out.replica_moves.append(text)
    elif m := _CLEAR_BROKERS.match(text):
        out.cleared_brokers = int_list(path, line, m["ids"], "brokers")
    elif m := _CLEAR_TOPICS.match(text):
        out.cleared_topics = tuple(m["topics"].split(","))
    elif m := _THROTTLE.match(text):
        if m["what"] == "inter-broker":
            out.throttle = int(m["rate"])
        else:
            out.log_dir_throttle = int(m["rate"])
    elif m := _STARTED.match(text):
        out.started.extend(_tps(path, line, m["tps"]))
    elif m := _CANCELLED.match(text):
        out.cancelled.extend(_tps(path, line, m["tps"]))
    else:
        return False
    return True


def _status(path: str, line: Line, text: str) -> PartitionStatus | None:
    """A --verify line about one partition, in any of the tool's forms."""
    if m := _STATUS.match(text):
        topic, p = topic_partition(path, line, m["tp"])
        return PartitionStatus(line.number, topic, p, _state(m["state"]))
    if m := _STATUS_OLD.match(text):
        return PartitionStatus(line.number, m["topic"], int(m["p"]), _state(m["state"]))
    if m := _NOT_ACTIVE.match(text):
        topic, p = topic_partition(path, line, m["tp"])
        return PartitionStatus(
            line.number,
            topic,
            p,
            "not-active",
            int_list(path, line, m["cur"], "replica set"),
            int_list(path, line, m["target"], "replica set"),
        )
    return None


def _state(text: str) -> str:
    return "completed" if text == "completed" else "in-progress"


def _tps(path: str, line: Line, text: str) -> list[TP]:
    return [topic_partition(path, line, tp) for tp in text.split(",") if tp]


def starts_json(data: Any) -> bool:
    return isinstance(data, dict) and "partitions" in data and "brokers" not in data


def plan_from_json(path: str, line: Line, data: Any) -> ReassignmentJson:
    """Validate a reassignment JSON the way the tool does (:1365-1422, :1213-1246)."""
    if not isinstance(data, dict) or not isinstance(data.get("partitions"), list):
        raise fail(path, line, 'expected {"version":1,"partitions":[...]}')
    version = data.get("version", 1)
    if version != 1:
        raise fail(path, line, f"Not supported version field value {version}")
    unknown = set(data) - {"version", "partitions"}
    if unknown:
        raise fail(path, line, f"unexpected key(s) {sorted(unknown)} in a reassignment JSON")
    entries: list[PlanEntry] = []
    seen: set[TP] = set()
    for item in data["partitions"]:
        entries.append(_plan_entry(path, line, item))
        key = (entries[-1].topic, entries[-1].partition)
        if key in seen:
            raise fail(path, line, f"partition {key[0]}-{key[1]} is listed twice")
        seen.add(key)
    return ReassignmentJson(line.number, tuple(entries))


def _plan_entry(path: str, line: Line, item: Any) -> PlanEntry:
    ok = (
        isinstance(item, dict)
        and isinstance(item.get("topic"), str)
        and isinstance(item.get("partition"), int)
        and isinstance(item.get("replicas"), list)
        and all(isinstance(b, int) for b in item["replicas"])
        and set(item) <= {"topic", "partition", "replicas", "log_dirs"}
    )
    if not ok:
        expected = '{"topic":...,"partition":n,"replicas":[...]}'
        raise fail(path, line, f"expected {expected}, got {item!r}")
    replicas = tuple(item["replicas"])
    where = f"{item['topic']}-{item['partition']}"
    if not replicas:
        raise fail(path, line, f"{where}: empty replica list")
    if len(set(replicas)) != len(replicas):
        raise fail(path, line, f"{where}: duplicate broker in replicas {list(replicas)}")
    log_dirs = item.get("log_dirs")
    if log_dirs is not None:
        if not isinstance(log_dirs, list) or not all(isinstance(d, str) for d in log_dirs):
            raise fail(path, line, f"{where}: log_dirs must be a list of strings")
        if len(log_dirs) != len(replicas):
            raise fail(
                path,
                line,
                f"{where}: Size of replicas list {list(replicas)} is different "
                f"from size of log dirs list {log_dirs}",
            )
    return PlanEntry(
        item["topic"],
        item["partition"],
        replicas,
        tuple(log_dirs) if log_dirs is not None else None,
    )
