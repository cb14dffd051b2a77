"""``kafka-features.sh``: ``describe`` (TAB-separated up to 4.2, padded columns from 4.3),
``version-mapping``, and the result lines of ``upgrade`` / ``downgrade`` / ``disable``.

Formats: 4.1 tools/src/main/java/org/apache/kafka/tools/FeatureCommand.java:228-240 (TAB),
4.3 FeatureCommand.java:251 (padded, KAFKA-19941), version-mapping :359-378, updates :429-466.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from cluster_engine.ingest.text import Line, fail
from cluster_engine.knowledge import METADATA_VERSION_LEVELS

_DESCRIBE = re.compile(
    r"^Feature:\s*(?P<name>\S+)\s+SupportedMinVersion:\s*(?P<min>.+?)\s+"
    r"SupportedMaxVersion:\s*(?P<max>.+?)\s+FinalizedVersionLevel:\s*(?P<fin>.+?)"
    r"(?:\s+Epoch:\s*(?P<epoch>\S+))?$"
)
_MAPPING_HEAD = re.compile(r"^metadata\.version=(?P<level>\d+) \((?P<release>[^)]*)\)$")
_MAPPING = re.compile(r"^(?P<name>[a-z][\w.]*)=(?P<level>\d+)$")
_UPDATED = re.compile(
    r"^(?P<name>\S+) (?P<mode>was|can be) (?P<op>upgraded|downgraded|disabled)"
    r"(?: to (?P<level>\d+))?\.$"
)
_FAILED = re.compile(
    r"^(?:Could|Can) not (?P<op>upgrade|downgrade|disable) (?P<name>\S+?)(?: to (?P<level>\d+))?"
    r"\. (?P<message>.*)$"
)
_SUMMARY = re.compile(r"^\d+ out of \d+ operation\(s\) failed\.$")
_DEPRECATED = "`metadata` flag is deprecated and may be removed in a future release."


@dataclass(frozen=True, slots=True)
class FeatureLine:
    """One ``describe`` line, levels as printed."""

    line: int
    name: str
    supported_min: str
    supported_max: str
    finalized: str
    epoch: int | None


@dataclass(frozen=True, slots=True)
class FeaturesDescribe:
    features: tuple[FeatureLine, ...]
    node_id: int | None = None  # from `describe --node-id N` on the command line (4.2+)


@dataclass(frozen=True, slots=True)
class VersionMapping:
    """``version-mapping``: the levels ``--release-version`` would finalize (not a cluster fact)."""

    release: str
    levels: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class FeatureUpdate:
    """The result of an upgrade/downgrade/disable (not a cluster fact)."""

    line: int
    feature: str
    operation: str
    level: int | None
    ok: bool
    dry_run: bool
    message: str | None


@dataclass(frozen=True, slots=True)
class FeatureUpdates:
    updates: tuple[FeatureUpdate, ...]


def level_of(name: str, label: str) -> int | None:
    """A printed level as an int; None when it is not one (vendor levels such as CP-8.1-IV1A)."""
    if label.isdigit():
        return int(label)
    if label.startswith("UNKNOWN ") and label[8:].isdigit():
        return int(label[8:])
    if name == "metadata.version":
        return METADATA_VERSION_LEVELS.get(label)
    return None


def starts_describe(line: Line) -> bool:
    return line.stripped.startswith("Feature:")


def parse_describe(path: str, lines: Sequence[Line], start: int) -> tuple[FeaturesDescribe, int]:
    features: list[FeatureLine] = []
    seen: dict[str, int] = {}
    i = start
    while i < len(lines) and (i == start or not lines[i].after_break):
        line = lines[i]
        if not line.stripped.startswith("Feature:"):
            break
        m = _DESCRIBE.match(line.stripped)
        if m is None:
            raise fail(
                path,
                line,
                "expected 'Feature: <name> SupportedMinVersion: <v> "
                "SupportedMaxVersion: <v> FinalizedVersionLevel: <v> Epoch: <n>'",
            )
        name = m["name"]
        if name in seen:
            raise fail(path, line, f"feature {name} is listed twice (also on line {seen[name]})")
        seen[name] = line.number
        epoch = m["epoch"]
        if epoch is not None and epoch != "-" and not epoch.isdigit():
            raise fail(path, line, f"Epoch: expected an integer or '-', got {epoch!r}")
        for what in ("min", "max", "fin"):
            if " " in m[what] and not m[what].startswith("UNKNOWN "):
                raise fail(path, line, f"unexpected level {m[what]!r}")
        features.append(
            FeatureLine(
                line.number,
                name,
                m["min"],
                m["max"],
                m["fin"],
                int(epoch) if epoch is not None and epoch.isdigit() else None,
            )
        )
        i += 1
    return FeaturesDescribe(tuple(features), _node_id(lines[start].command)), i


def _node_id(command: str | None) -> int | None:
    m = re.search(r"--node-id[ =](\d+)", command or "")
    return int(m[1]) if m else None


def starts_mapping(line: Line) -> bool:
    return _MAPPING_HEAD.match(line.stripped) is not None


def parse_mapping(path: str, lines: Sequence[Line], start: int) -> tuple[VersionMapping, int]:
    head = _MAPPING_HEAD.match(lines[start].stripped)
    assert head is not None
    levels = [("metadata.version", int(head["level"]))]
    i = start + 1
    while i < len(lines) and not lines[i].after_break:
        m = _MAPPING.match(lines[i].stripped)
        if m is None:
            break
        levels.append((m["name"], int(m["level"])))
        i += 1
    return VersionMapping(head["release"], tuple(levels)), i


def starts_updates(line: Line) -> bool:
    text = line.stripped
    return bool(_UPDATED.match(text) or _FAILED.match(text) or text == _DEPRECATED)


def parse_updates(path: str, lines: Sequence[Line], start: int) -> tuple[FeatureUpdates, int]:
    updates: list[FeatureUpdate] = []
    i = start
    while i < len(lines) and (i == start or not lines[i].after_break):
        text = lines[i].stripped
        if text == _DEPRECATED or _SUMMARY.match(text):
            i += 1
            continue
        ok, failed = _UPDATED.match(text), _FAILED.match(text)
        if ok is not None:
            level = int(ok["level"]) if ok["level"] else None
            updates.append(
                FeatureUpdate(
                    lines[i].number,
                    ok["name"],
                    ok["op"].rstrip("d"),
                    level,
                    True,
                    ok["mode"] == "can be",
                    None,
                )
            )
        elif failed is not None:
            level = int(failed["level"]) if failed["level"] else None
            updates.append(
                FeatureUpdate(
                    lines[i].number,
                    failed["name"],
                    failed["op"],
                    level,
                    False,
                    text.startswith("Can "),
                    failed["message"],
                )
            )
        else:
            break
        i += 1
    return FeatureUpdates(tuple(updates)), i
