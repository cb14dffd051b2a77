"""Kafka Streams ``.properties`` files -> a typed model with line numbers, and the diff of two.

Java ``Properties`` syntax: ``key=value``, ``key: value`` or ``key value``; ``#``/``!`` comments;
a line ending in an odd number of backslashes continues on the next; ``\\t``, ``\\n``,
``\\uXXXX`` escapes. The last occurrence of a key wins, as in Java.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from linter.inputs import label, read_bytes
from linter.topology.errors import StreamsConfigError
from linter.topology.parse import decode
from linter.topology.parse_nodes import quote

__all__ = [
    "ConfigChange",
    "ConfigDiff",
    "Entry",
    "StreamsConfig",
    "StreamsConfigError",
    "diff_configs",
    "parse_properties",
    "parse_properties_file",
]

OPTIMIZATIONS = ("reuse.ktable.source.topics", "merge.repartition.topics", "single.store.self.join")
PROCESSING_GUARANTEES = ("at_least_once", "exactly_once", "exactly_once_beta", "exactly_once_v2")
DEFAULT_STATE_DIR = "${java.io.tmpdir}/kafka-streams"


@dataclass(frozen=True, slots=True)
class Entry:
    key: str
    value: str
    line: int


@dataclass(frozen=True, slots=True)
class StreamsConfig:
    """One properties file. ``entries`` keeps the winning entry of each key, sorted by key."""

    entries: tuple[Entry, ...]
    path: str | None = None
    # the entries by key: rules and the config diff ask a config some twenty keys an upgrade
    _by_key: dict[str, Entry] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {e.key: e for e in self.entries})

    def get(self, key: str) -> Entry | None:
        return self._by_key.get(key)

    def value(self, key: str, default: str | None = None) -> str | None:
        e = self._by_key.get(key)  # get()'s own lookup, without its call (rules ask ~20 keys)
        return e.value.strip() if e is not None else default

    @property
    def application_id(self) -> str | None:
        return self.value("application.id")

    @property
    def state_dir(self) -> str | None:
        return self.value("state.dir")

    @property
    def processing_guarantee(self) -> str:
        return (self.value("processing.guarantee") or "at_least_once").lower()

    def optimizations(self) -> frozenset[str]:
        """The effective ``topology.optimization`` set (``all`` expanded, ``none`` empty).

        Raises :class:`StreamsConfigError` where Streams would reject the value.
        """
        entry = self.get("topology.optimization")
        if entry is None:
            return frozenset()
        items = [i.strip().lower() for i in entry.value.split(",") if i.strip()]
        if not items:
            return frozenset()
        if len(items) > 1 and ("all" in items or "none" in items):
            value = quote(entry.value.strip())
            raise self.error(entry, f"{value} is not a valid optimization config "
                             "(none/all cannot be combined with other values)")
        if items == ["all"]:
            return frozenset(OPTIMIZATIONS)
        if items == ["none"]:
            return frozenset()
        bad = [i for i in items if i not in OPTIMIZATIONS]
        if bad:
            value = quote(bad[0])
            raise self.error(entry, f"unknown topology.optimization value {value} (expected "
                             f"none, all or a list of {', '.join(OPTIMIZATIONS)})")
        return frozenset(items)

    def error(self, entry: Entry, problem: str) -> StreamsConfigError:
        return StreamsConfigError(self.path or "<properties>", entry.line, 1, problem)


@dataclass(frozen=True, slots=True)
class ConfigChange:
    key: str
    before: Entry | None
    after: Entry | None


@dataclass(frozen=True, slots=True)
class ConfigDiff:
    """Two configs (either may be absent) and every key whose value differs, sorted by key.

    ``version_before``/``version_after`` are the Kafka Streams library versions when known."""

    before: StreamsConfig | None
    after: StreamsConfig | None
    changes: tuple[ConfigChange, ...]
    version_before: str | None = None
    version_after: str | None = None

    def change(self, key: str) -> ConfigChange | None:
        for c in self.changes:
            if c.key == key:
                return c
        return None


_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_SEPARATOR = re.compile(r"(?<!\\)(?:\\\\)*[=:\s]")


def _logical_lines(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    buf: str | None = None
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.lstrip(" \t\f") if buf is not None else raw
        if buf is None:
            stripped = line.lstrip(" \t\f")
            if not stripped or stripped[0] in "#!":
                continue
            line, start = stripped, number
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2 == 1:
            buf = (buf or "") + line[:-1]
            continue
        out.append((start, (buf or "") + line))
        buf = None
    if buf is not None:
        out.append((start, buf))
    return out


def _unescape(s: str, path: str, line: int) -> str:
    if "\\" not in s:  # most keys and values: nothing to unescape, no walk a character at a time
        return s
    out: list[str] = []
    i = 0
    while i < len(s):
        c = s[i]
        if c != "\\" or i + 1 >= len(s):
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        if n == "u":
            code = s[i + 2 : i + 6]
            if not re.fullmatch(r"[0-9a-fA-F]{4}", code):
                raise StreamsConfigError(
                    path, line, i + 1, f"malformed \\uxxxx escape {s[i : i + 6]!r}"
                )
            out.append(chr(int(code, 16)))
            i += 6
            continue
        out.append(_ESCAPES.get(n, n))
        i += 2
    return "".join(out)


def parse_properties(text: str, path: str = "<properties>") -> StreamsConfig:
    entries: dict[str, Entry] = {}
    for line, logical in _logical_lines(text):
        m = _SEPARATOR.search(logical)
        if m is None:
            raw_key, raw_value = logical, ""
        else:
            sep_at = m.end() - 1
            raw_key = logical[:sep_at]
            rest = logical[sep_at:]
            # separator: optional whitespace, at most one of = or :, optional whitespace
            rest = rest.lstrip(" \t\f")
            if rest[:1] in ("=", ":"):
                rest = rest[1:]
            raw_value = rest.lstrip(" \t\f")
        key = _unescape(raw_key, path, line)
        if not key:
            raise StreamsConfigError(path, line, 1, "expected a key before the separator")
        entries[key] = Entry(key, _unescape(raw_value, path, line), line)
    return StreamsConfig(tuple(entries[k] for k in sorted(entries)), path)


def parse_properties_file(path: str | Path) -> StreamsConfig:
    p = Path(path)
    return parse_properties(decode(read_bytes(p), label(p)), label(p))


def diff_configs(
    before: StreamsConfig | None,
    after: StreamsConfig | None,
    *,
    version_before: str | None = None,
    version_after: str | None = None,
) -> ConfigDiff:
    keys = sorted(
        {e.key for e in (before.entries if before else ())}
        | {e.key for e in (after.entries if after else ())}
    )
    changes = []
    for key in keys:
        b = before.get(key) if before else None
        a = after.get(key) if after else None
        if (b.value.strip() if b else None) != (a.value.strip() if a else None):
            changes.append(ConfigChange(key, b, a))
    return ConfigDiff(before, after, tuple(changes), version_before, version_after)
