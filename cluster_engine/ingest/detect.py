"""Recognise what a captured file holds from its content, and read it.

A file may hold one tool's output or a whole session (several commands, each after its
``$ command`` line); it is read as a sequence of sections, each recognised by its first line.
A line no reader recognises is an error naming the file and line; a file with no recognised
output at all is an error naming the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cluster_engine.errors import ClusterInputError, read_input
from cluster_engine.ingest import (
    api_versions,
    configs,
    features,
    log_dirs,
    quorum,
    reassign,
    topics,
)
from cluster_engine.ingest.text import Line, prepare, read_json
from linter import inputs

Parser = Callable[[str, Sequence[Line], int], tuple[Any, int]]

# What the tools print when the command itself failed (stdout or stderr captured with it).
_TOOL_ERROR = re.compile(
    r"^(?:Error while executing \w+ command|ERROR:|Exception in thread|Error: |"
    r"(?:org\.apache\.kafka|java)\.\S*(?:Exception|Error)\b|"
    r"Could not (?:describe|fetch|connect))"
)

# (kind, does this line start it, reader). Order matters only where two could claim a line.
READERS: tuple[tuple[str, Callable[[Line], bool], Parser], ...] = (
    ("features", features.starts_describe, features.parse_describe),
    ("feature-version-mapping", features.starts_mapping, features.parse_mapping),
    ("feature-updates", features.starts_updates, features.parse_updates),
    ("topics", topics.starts, topics.parse),
    ("configs", configs.starts, configs.parse),
    ("quorum-status", quorum.starts_status, quorum.parse_status),
    ("quorum-replication", quorum.starts_replication, quorum.parse_replication),
    ("cluster-id", quorum.starts_cluster_id, quorum.parse_cluster_id),
    ("reassign", reassign.starts, reassign.parse),
    ("log-dirs", log_dirs.starts, log_dirs.parse),
    ("api-versions", api_versions.starts, api_versions.parse),
)

KINDS = (*(kind for kind, _, _ in READERS), "reassignment-json", "topics-to-move-json")


@dataclass(frozen=True, slots=True)
class Section:
    """One tool output found in a file."""

    kind: str
    path: str
    line: int
    data: Any


def read_file(path: Path) -> list[Section]:
    return read_text(inputs.label(path), read_input(path))


def read_text(path: str, text: str) -> list[Section]:
    if not _short_numbers(text):
        try:
            # every number the readers convert is a run of digits: none can be too long to convert
            inputs.check_digits(text, path)
        except inputs.MalformedInput as error:
            raise ClusterInputError(error.path, error.line, error.detail, error.column) from None
    lines = prepare(text)
    del text  # the lines are all that is read from here: the whole text need not stay held
    if not lines:
        raise ClusterInputError(
            path,
            None,
            "no Kafka tool output found (the file is empty or holds only comments and commands)",
        )
    sections: list[Section] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        kind, parser = _recognise(path, line, first=not sections)
        if kind == "json":
            sections.append(_json_section(path, lines, i))
            i = _json_end(path, lines, i)
            continue
        data, end = parser(path, lines, i)
        if end <= i:  # a reader recognised the line but could not read it
            raise ClusterInputError(path, line.number, f"cannot read this {kind} line")
        sections.append(Section(kind, path, line.number, data))
        i = end
    return sections


# A run of MAX_DIGITS + 1 digits holds _IN_A_ROW characters in a row of the text's every
# _STEP-th (31 digits in a row hold at least 3 of every 10th): a scan of that sample, 1/10 of
# the text, finds the few places where such a run can be, and each is looked at whole.
_STEP = 10
_IN_A_ROW = (inputs.MAX_DIGITS + 1) // _STEP
_LONG_RUN = re.compile(f"[0-9]{{{inputs.MAX_DIGITS + 1}}}")
# byte -> "0" for an ASCII digit, " " for anything else
_SAMPLE_MARKS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
# candidate places looked at, at most one a _LOOK_EVERY characters (a text full of long numbers
# has many: the whole-text scan then costs less)
_LOOK_EVERY = 2048


def _short_numbers(text: str) -> bool:
    """Whether an ASCII text surely holds no run of digits too long for any Kafka number (a
    byte-level scan; ``inputs.check_digits`` finds and locates the run otherwise)."""
    if not text.isascii():
        return False
    marks = b"0" * _IN_A_ROW
    sample = text[::_STEP].encode("ascii").translate(_SAMPLE_MARKS)
    looks = len(text) // _LOOK_EVERY + 16
    found = sample.find(marks)
    while found >= 0:
        looks -= 1
        if looks < 0:
            return not inputs.has_digit_run(text, inputs.MAX_DIGITS + 1)
        # a long run holding the digits at ``at``, ``at + _STEP``, ... holds MAX_DIGITS + 1 digits
        # in a row that start at most MAX_DIGITS before ``at`` and end in the last one's reach
        at = found * _STEP
        reach = at + (_IN_A_ROW - 1) * _STEP + inputs.MAX_DIGITS + 1
        if _LONG_RUN.search(text, max(0, at - inputs.MAX_DIGITS), reach):
            return False
        found = sample.find(marks, found + 1)
    return True


def _recognise(path: str, line: Line, first: bool) -> tuple[str, Parser]:
    for kind, starts, parser in READERS:
        if starts(line):
            return kind, parser
    if line.stripped.startswith(("{", "[")):
        return "json", _no_parser
    if _TOOL_ERROR.match(line.stripped):
        raise ClusterInputError(
            path, line.number, f"the captured command failed: {line.stripped[:160]!r}"
        )
    if first:
        raise ClusterInputError(
            path,
            line.number,
            "not a known Kafka tool output (expected kafka-features, kafka-topics --describe, "
            "kafka-configs --describe, kafka-metadata-quorum describe, kafka-reassign-partitions, "
            "kafka-log-dirs or kafka-broker-api-versions output, or a reassignment JSON); "
            f"first line: {line.stripped[:80]!r}",
        )
    raise ClusterInputError(path, line.number, f"cannot read this line: {line.stripped[:120]!r}")


def _no_parser(path: str, lines: Sequence[Line], start: int) -> tuple[Any, int]:
    raise AssertionError("JSON sections are read by _json_section")


def _json_section(path: str, lines: Sequence[Line], start: int) -> Section:
    data, _ = read_json(path, lines, start)
    line = lines[start]
    if log_dirs.starts_json(data):
        return Section("log-dirs", path, line.number, log_dirs.from_json(path, line, data))
    if reassign.starts_json(data):
        return Section(
            "reassignment-json", path, line.number, reassign.plan_from_json(path, line, data)
        )
    if isinstance(data, dict) and "topics" in data:
        return Section("topics-to-move-json", path, line.number, data)
    raise ClusterInputError(
        path,
        line.number,
        "a JSON document of no known kind (expected kafka-log-dirs output or a reassignment JSON)",
    )


def _json_end(path: str, lines: Sequence[Line], start: int) -> int:
    return read_json(path, lines, start)[1]
