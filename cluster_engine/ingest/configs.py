"""``kafka-configs.sh --describe [--all]``.

Format: 4.1 core/src/main/scala/kafka/admin/ConfigCommand.scala:328-468 (the Java port on master
prints the same): a header per entity, then entries
``  name=value sensitive=bool synonyms={SOURCE:k=v, ...}``. Also read: the ZooKeeper-era
``Configs for brokers '2' are k=v,k=v`` form (removed in 4.0, still in the docs), quota and
SCRAM lines, and the "doesn't exist" / "Completed updating" messages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from cluster_engine.ingest.text import Line, fail

_HEADER = re.compile(r"^(?P<all>Dynamic|All) configs for (?P<type>\S+) (?P<name>.+) are:$")
_DEFAULT_HEADER = "Default configs for brokers in the cluster are:"
_OLD_HEADER = re.compile(r"^Configs for (?P<type>\S+) (?P<name>\S+) are:$")  # pre-2.5
_ZK = re.compile(
    r"^Configs for (?P<type>brokers|broker|topics|topic) '(?P<name>[^']*)' are (?P<kv>.*)$"
)
_QUOTA = re.compile(
    r"^(?:Quota )?[Cc]onfigs for "
    r"(?P<entity>(?:the default )?(?:user-principal|client-id|ip)\b.*?) are (?P<kv>.*)$"
)
_SCRAM = re.compile(
    r"^SCRAM credential configs for user-principal '(?P<user>[^']*)' are (?P<kv>.*)$"
)
_MISSING = re.compile(
    r"^The (?P<type>\S+) '(?P<name>[^']*)' doesn't exist and doesn't have dynamic config\.$"
)
_COMPLETED = re.compile(r"^Completed updating (?:default )?config for .*\.$")
_ENTRY = re.compile(
    r"^(?P<name>[^\s=]+)=(?P<value>.*?) sensitive=(?P<sensitive>true|false)"
    r" synonyms=\{(?P<syn>.*)\}$"
)
_SYNONYM = re.compile(r"(?P<source>[A-Z_]+):(?P<name>[^=]+)=(?P<value>.*?)(?=, [A-Z_]+:|$)")

_ENTRY_EXPECTED = "expected '<name>=<value> sensitive=<bool> synonyms={...}'"

# Entity type as printed -> our scope name.
_SCOPES = {"broker": "broker", "brokers": "broker", "topic": "topic", "topics": "topic"}


@dataclass(frozen=True, slots=True)
class ConfigEntry:
    line: int
    name: str
    value: str | None  # None: sensitive, or no value ("null")
    sensitive: bool
    synonyms: tuple[tuple[str, str, str | None], ...]  # (source, name, value), most specific first

    @property
    def source(self) -> str | None:
        """Where the value comes from: the first synonym's source (the tool lists it first)."""
        return self.synonyms[0][0] if self.synonyms else None


@dataclass(frozen=True, slots=True)
class ConfigBlock:
    """One entity's configs. ``entity_type``: broker, broker-default, topic, group, user, ... ;
    None for entry lines printed with no header (their entity is unknown)."""

    line: int
    entity_type: str | None
    entity_name: str | None
    all: bool
    entries: tuple[ConfigEntry, ...]
    legacy: bool = False  # ZooKeeper-era "k=v,k=v" form: values only, no sources
    missing: bool = False  # "The <type> '<name>' doesn't exist ..."


@dataclass(frozen=True, slots=True)
class ConfigsDescribe:
    blocks: tuple[ConfigBlock, ...]


def starts(line: Line) -> bool:
    text = line.stripped
    return bool(
        _HEADER.match(text)
        or text == _DEFAULT_HEADER
        or _OLD_HEADER.match(text)
        or _ZK.match(text)
        or _QUOTA.match(text)
        or _SCRAM.match(text)
        or _MISSING.match(text)
        or _COMPLETED.match(text)
        or _ENTRY.match(text)
    )


def _value(text: str, sensitive: bool) -> str | None:
    return None if sensitive or text == "null" else text


def _entry(path: str, line: Line) -> ConfigEntry:
    m = _ENTRY.match(line.stripped)
    if m is None:
        raise fail(path, line, _ENTRY_EXPECTED)
    sensitive = m["sensitive"] == "true"
    synonyms: list[tuple[str, str, str | None]] = []
    if m["syn"]:
        pos = 0
        for s in _SYNONYM.finditer(m["syn"]):
            if s.start() != pos:
                break
            synonyms.append((s["source"], s["name"], _value(s["value"], sensitive)))
            pos = s.end() + 2  # ", "
        if pos - 2 != len(m["syn"]):
            raise fail(path, line, f"synonyms: expected SOURCE:name=value, got {m['syn']!r}")
    return ConfigEntry(
        line.number, m["name"], _value(m["value"], sensitive), sensitive, tuple(synonyms)
    )


def _kv_list(path: str, line: Line, text: str) -> tuple[ConfigEntry, ...]:
    out: list[ConfigEntry] = []
    for item in re.split(r",\s*(?=[A-Za-z][\w.-]*=)", text.strip().rstrip(",")):
        name, sep, value = item.partition("=")
        if not sep:
            raise fail(path, line, f"expected name=value pairs, got {item!r}")
        out.append(ConfigEntry(line.number, name.strip(), value.strip(), False, ()))
    return tuple(out)


def parse(path: str, lines: Sequence[Line], start: int) -> tuple[ConfigsDescribe, int]:
    blocks: list[ConfigBlock] = []
    i = start
    while i < len(lines) and (i == start or not lines[i].after_break):
        line, text = lines[i], lines[i].stripped
        head = _HEADER.match(text)
        old = _OLD_HEADER.match(text)
        if head is not None or old is not None or text == _DEFAULT_HEADER:
            if head is not None:
                etype, name, all_ = head["type"], head["name"], head["all"] == "All"
            elif old is not None:
                etype, name, all_ = old["type"], old["name"], False
            else:
                etype, name, all_ = "broker-default", None, False
            if name == "<default>" and etype == "broker":
                etype, name = "broker-default", None
            entries, i = _entries(path, lines, i + 1)
            blocks.append(ConfigBlock(line.number, etype, name, all_, entries))
            continue
        if _ENTRY.match(text):
            entries, i = _entries(path, lines, i, first=True)
            blocks.append(ConfigBlock(line.number, None, None, False, entries))
            continue
        if (zk := _ZK.match(text)) is not None:
            kv, i = _continued(lines, i)
            etype = _SCOPES[zk["type"]]
            blocks.append(
                ConfigBlock(
                    line.number, etype, zk["name"], False, _kv_list(path, line, kv), legacy=True
                )
            )
            continue
        if (q := _QUOTA.match(text)) is not None:
            kv, i = _continued(lines, i)
            blocks.append(
                ConfigBlock(
                    line.number, "quota", q["entity"], False, _kv_list(path, line, kv), legacy=True
                )
            )
            continue
        if (s := _SCRAM.match(text)) is not None:
            blocks.append(ConfigBlock(line.number, "scram", s["user"], False, (), legacy=True))
            i += 1
            continue
        if (miss := _MISSING.match(text)) is not None:
            blocks.append(
                ConfigBlock(line.number, miss["type"], miss["name"], False, (), missing=True)
            )
            i += 1
            continue
        if _COMPLETED.match(text):
            i += 1
            continue
        break
    return ConfigsDescribe(tuple(blocks)), i


def _entries(
    path: str, lines: Sequence[Line], i: int, first: bool = False
) -> tuple[tuple[ConfigEntry, ...], int]:
    out: list[ConfigEntry] = []
    while i < len(lines) and (first or not lines[i].after_break):
        first = False
        if not _ENTRY.match(lines[i].stripped):
            # An entry-looking line that does not parse is an error, not the end of the block.
            if " sensitive=" in lines[i].text and lines[i].text.startswith(" "):
                raise fail(path, lines[i], _ENTRY_EXPECTED)
            break
        out.append(_entry(path, lines[i]))
        i += 1
    return tuple(out), i


def _continued(lines: Sequence[Line], i: int) -> tuple[str, int]:
    """The k=v list of a ZooKeeper-era line, joined with the lines it wraps onto."""
    text = lines[i].stripped.split(" are ", 1)[1]
    i += 1
    while (
        i < len(lines)
        and text.rstrip().endswith(",")
        and not lines[i].after_break
        and lines[i].text[:1].isspace()
    ):
        text += lines[i].stripped
        i += 1
    return text, i
