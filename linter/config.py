"""User configuration: ``[tool.ksafe]`` in ``pyproject.toml``, or a ``ksafe.toml``.

Found by walking up from the current directory (``--config`` names a file instead). Relative
paths and globs in it are relative to the file's directory. Unknown keys, unknown rules and bad
values are :class:`ConfigError` s that say ``path:line``: ``tomllib`` keeps no positions, so
:func:`locate` finds a key's line with a small scan of the text.

Reference (``ksafe.toml`` spells the same keys at top level)::

    [tool.ksafe]
    select = ["KS201", "store-removed"]     # rule ids or names; default: all
    ignore = ["generated-processor-name"]
    fail-on = "warning"                     # error (default) | warning | info | never
    application-id = "orders"               # default for topology checks
    snapshot = "cluster/prod-snapshot.json" # default for cluster checks
    topologies = ["topology/*.txt"]         # the apps' describe() files, for cluster checks
                                            # (app id: its [[paths]] application-id, else stem)
    git-base = "origin/main"                # pre-commit --all-files: diff from the merge-base

    [tool.ksafe.severity]                   # per-rule severity overrides
    generated-processor-name = "info"

    [[tool.ksafe.paths]]                    # settings for files matching a glob (later wins)
    path = "topology/orders-*.txt"          # gitignore-style, from the config's directory
    application-id = "orders"
    properties = "config/orders.properties" # Streams config before and after...
    properties-before = "..."               # ...or each side on its own
    properties-after = "..."
    snapshot = "cluster/prod-snapshot.json" # for plans matching the glob

    [[tool.ksafe.acknowledgements]]
    fingerprint = "9c1d0e6f2a3b4c5d"        # or: rule = "store-renamed" (+ resource = "counts")
    path = "topology/orders-app.txt"        # optional glob scoping the entry
    reason = "state rebuilt from the changelog during the 2026-05 migration"
    expires = 2026-09-30                    # optional
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path, PurePath
from typing import Any

from pathspec import GitIgnoreSpec

from linter.acknowledgements import Acknowledgement
from linter.inputs import quote, read_bytes
from linter.settings import Settings
from rules.catalogue import ALL_RULES
from rules.framework import Rule, Severity, find_rule

CONFIG_NAMES = ("ksafe.toml", "pyproject.toml")
FAIL_ON = ("error", "warning", "info", "never")

_TOP_KEYS = {
    "select", "ignore", "fail-on", "severity", "application-id", "snapshot", "paths",
    "acknowledgements", "topologies", "git-base",
}
_PATH_KEYS = {
    "path", "application-id", "properties", "properties-before", "properties-after", "snapshot",
}
_ACK_KEYS = {"fingerprint", "rule", "resource", "path", "reason", "expires"}


class ConfigError(Exception):
    """A configuration mistake, located: ``path:line: message``."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class PathSettings:
    """What ``[[paths]]`` entries matching one file say (absolute paths; None: not set)."""

    application_id: str | None = None
    properties_before: str | None = None
    properties_after: str | None = None
    snapshot: str | None = None


@dataclass(frozen=True)
class _PathEntry:
    """A ``[[paths]]`` entry: its glob with gitignore semantics (``**`` crosses directories,
    ``*`` does not, a pattern with a ``/`` before its end is anchored to ``root``, one without
    matches at any depth), as ruff and pre-commit users know them."""

    pattern: str
    root: str  # the configuration's directory, which the glob is relative to
    values: PathSettings
    fields_set: frozenset[str]
    spec: GitIgnoreSpec = field(compare=False, hash=False, repr=False)

    def matches(self, target: str) -> bool:
        """Whether the absolute path ``target`` lies under ``root`` and matches the glob."""
        relative = os.path.relpath(target, self.root)
        if relative == os.curdir or relative == os.pardir or relative.startswith(
            os.pardir + os.sep
        ):
            return False
        # bool(): pathspec 0.12 answers None for "no pattern matched"
        return bool(self.spec.match_file(PurePath(relative).as_posix()))


@dataclass(frozen=True)
class Config:
    """A loaded configuration. ``path`` is None when no file was found (defaults)."""

    settings: Settings = field(default_factory=Settings)
    path: Path | None = None
    root: Path = field(default_factory=Path.cwd)
    snapshot: str | None = None
    entries: tuple[_PathEntry, ...] = ()
    topologies: tuple[str, ...] = ()  # absolute globs of the apps' describe() files
    # the branch a file with no change of its own is diffed from (``pre-commit run --all-files``)
    git_base: str | None = None

    def for_path(self, path: str | os.PathLike[str]) -> PathSettings:
        """Merge the ``[[paths]]`` entries whose glob matches ``path`` (later entries win)."""
        target = os.path.abspath(path)
        merged: dict[str, Any] = {
            "application_id": self.settings.application_id,
            "snapshot": self.snapshot,
        }
        for entry in self.entries:
            if entry.matches(target):
                for name in entry.fields_set:
                    merged[name] = getattr(entry.values, name)
        return PathSettings(**merged)

    def settings_for(self, path: str | os.PathLike[str]) -> Settings:
        """The run settings for one input file (its application id applied)."""
        return replace(self.settings, application_id=self.for_path(path).application_id)


def resolve_rules(refs: Iterable[str]) -> frozenset[str]:
    """The ids of the rules ``refs`` name (ids, any case, or names), for a command line's
    ``--select``/``--ignore``; an unknown one is a :class:`KeyError` naming it."""
    found: set[str] = set()
    for ref in refs:
        rule = find_rule(ALL_RULES, ref)
        if rule is None:
            raise KeyError(ref)
        found.add(rule.id)
    return frozenset(found)


# The command-line flag that lets configured paths lead outside the configuration's directory.
ALLOW_OUTSIDE_FLAG = "--allow-outside-config-paths"


def find_config(start: Path | None = None) -> Path | None:
    """The nearest ``ksafe.toml``, or ``pyproject.toml`` with a ``[tool.ksafe]`` table, walking
    up from ``start`` (default: the current directory)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "ksafe.toml"
        # not is_file(): a ksafe.toml that is a FIFO or a device is refused when read, not passed by
        if candidate.exists() and not candidate.is_dir():
            return candidate
        pyproject = folder / "pyproject.toml"
        if pyproject.exists() and not pyproject.is_dir() and _has_ksafe_table(pyproject):
            return pyproject
    return None


def _has_ksafe_table(pyproject: Path) -> bool:
    """Whether ``pyproject`` holds ``[tool.ksafe]``; a file that mentions ksafe but is not valid
    TOML counts, so :func:`load_config` reports it (``file:line``) rather than ksafe running on
    defaults without a word. A broken file that never mentions ksafe cannot configure it."""
    # undecodable bytes are load_config's to report (located) if the table is there
    text = read_bytes(pyproject).decode("utf-8", errors="replace")
    if "ksafe" not in text:
        return False
    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError):  # TOMLDecodeError, or a number too long to convert
        return True
    return isinstance(data.get("tool"), dict) and "ksafe" in data["tool"]


def load_config(
    path: Path | None = None, *, start: Path | None = None, allow_outside: bool = False
) -> Config:
    """Load ``path`` (``--config``), or the file :func:`find_config` finds, or the defaults.

    Paths in the file resolve inside the directory holding it; one that leads outside (``..``,
    an absolute path, a symbolic link) is an error unless ``allow_outside`` (the user's own
    command-line flag: a configuration file alone must not make ksafe read ``/etc``)."""
    found = path if path is not None else find_config(start)
    if found is None:
        return Config(root=(start or Path.cwd()).resolve())
    shown = found if path is not None else _shown(found)
    return parse_config(_decode(read_bytes(found), shown), shown, allow_outside=allow_outside)


def _decode(data: bytes, path: Path) -> str:
    """TOML is UTF-8 (a BOM is tolerated); anything else is a located :class:`ConfigError`."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        found = f"byte 0x{data[error.start]:02x}"
        raise ConfigError(path, line, f"{found} is not UTF-8; TOML files are UTF-8") from None


def _shown(path: Path) -> Path:
    """A discovered file at or below the current directory, named relative to it as the user's
    other paths are (``acknowledgement-*`` findings then point where review tools can follow)."""
    try:
        return path.relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def parse_config(text: str, path: Path, *, allow_outside: bool = False) -> Config:
    """Parse a config file's text; ``pyproject.toml`` files are read under ``[tool.ksafe]``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = _toml_error_line(str(error), text)
        raise ConfigError(path, line, f"invalid TOML: {error}") from None
    except RecursionError:  # tomllib recurses into nested arrays and inline tables
        raise ConfigError(path, None, "invalid TOML: nested too deeply to read") from None
    except ValueError:  # a number past Python's int-conversion limit (not a TOMLDecodeError)
        long = re.search(r"[0-9_]{100,}", text)
        line = text.count("\n", 0, long.start()) + 1 if long else None
        raise ConfigError(path, line, "invalid TOML: a number too long for any setting") from None
    prefix: tuple[str, ...] = ()
    if path.name == "pyproject.toml":
        prefix = ("tool", "ksafe")
        table = data.get("tool", {}).get("ksafe", {})
    else:
        table = data
    return _Reader(text, path, prefix, allow_outside).read(table)


def _toml_error_line(message: str, text: str) -> int | None:
    match = re.search(r"at line (\d+)", message)
    if match:
        return int(match.group(1))
    return max(1, len(text.splitlines())) if "end of document" in message else None


class _Reader:
    def __init__(
        self, text: str, path: Path, prefix: tuple[str, ...], allow_outside: bool = False
    ) -> None:
        self.text = text
        self.path = path
        self.prefix = prefix
        self.root = path.resolve().parent
        self.allow_outside = allow_outside
        self.lines: dict[tuple[str | int, ...], int] | None = None

    def line(self, keys: Iterable[str | int]) -> int | None:
        if self.lines is None:
            self.lines = key_lines(self.text)
        return _nearest(self.lines, (*self.prefix, *keys))

    def error(self, keys: Iterable[str | int], message: str) -> ConfigError:
        return ConfigError(self.path, self.line(keys), message)

    def where(self, keys: Iterable[str | int]) -> str:
        return f"{self.path}:{self.line(keys) or 1}"

    def table_name(self, keys: Iterable[str | int]) -> str:
        names = [str(k) for k in (*self.prefix, *keys) if not isinstance(k, int)]
        return f"[{'.'.join(names)}]" if names else "the top level"

    def check_keys(self, table: Mapping[str, Any], allowed: set[str], at: tuple[Any, ...]) -> None:
        for key in table:
            if key not in allowed:
                known = ", ".join(sorted(allowed))
                raise self.error(
                    (*at, key), f"unknown key {key!r} in {self.table_name(at)} (known: {known})"
                )

    def string(self, value: Any, keys: tuple[Any, ...]) -> str:
        if not isinstance(value, str) or not value:
            raise self.error(keys, f"{keys[-1]} must be a non-empty string")
        return value

    def rule(self, ref: Any, keys: tuple[Any, ...], within: str | None = None) -> Rule:
        found = find_rule(ALL_RULES, ref) if isinstance(ref, str) else None
        if found is None:
            place = within or str(keys[-1])
            raise self.error(keys, f"unknown rule {ref!r} in {place} (see `ksafe rules`)")
        return found

    def rule_ids(self, value: Any, keys: tuple[Any, ...]) -> frozenset[str]:
        if not isinstance(value, list):
            raise self.error(keys, f"{keys[-1]} must be a list of rule ids or names")
        return frozenset(self.rule(ref, keys).id for ref in value)

    def resolve(self, value: str, keys: tuple[Any, ...] = ()) -> str:
        resolved = os.path.normpath(os.path.join(self.root, os.path.expanduser(value)))
        if keys and not self.allow_outside:
            real, root = os.path.realpath(resolved), os.path.realpath(self.root)
            if os.path.commonpath([real, root]) != root:
                name = next(str(k) for k in reversed(keys) if isinstance(k, str))
                raise self.error(
                    keys,
                    f"{name} = {quote(value)} leads outside {root}, the directory holding "
                    f"the configuration (pass {ALLOW_OUTSIDE_FLAG} to read it anyway)",
                )
        return resolved

    def read(self, table: Any) -> Config:
        if not isinstance(table, dict):
            raise self.error((), f"{self.table_name(())} must be a table")
        self.check_keys(table, _TOP_KEYS, ())
        settings = Settings(
            select=self.rule_ids(table.get("select", []), ("select",)),
            ignore=self.rule_ids(table.get("ignore", []), ("ignore",)),
            severities=self.severities(table.get("severity", {})),
            acknowledgements=self.acknowledgements(table.get("acknowledgements", [])),
            fail_on=self.fail_on(table.get("fail-on", "error")),
            application_id=(
                self.string(table["application-id"], ("application-id",))
                if "application-id" in table
                else None
            ),
        )
        snapshot = table.get("snapshot")
        return Config(
            settings=settings,
            path=self.path,
            root=self.root,
            snapshot=(
                self.resolve(self.string(snapshot, ("snapshot",)), ("snapshot",))
                if snapshot
                else None
            ),
            entries=self.path_entries(table.get("paths", [])),
            git_base=(
                self.string(table["git-base"], ("git-base",)) if "git-base" in table else None
            ),
            topologies=self.globs(table.get("topologies", []), ("topologies",)),
        )

    def globs(self, value: Any, keys: tuple[Any, ...]) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.error(keys, f"{keys[-1]} must be a list of file globs")
        return tuple(
            self.resolve(self.string(v, (*keys, i)), (*keys, i)) for i, v in enumerate(value)
        )

    def fail_on(self, value: Any) -> Severity | None:
        if value not in FAIL_ON:
            raise self.error(("fail-on",), f"fail-on must be one of {', '.join(FAIL_ON)}")
        return None if value == "never" else Severity(value)

    def severities(self, value: Any) -> dict[str, Severity]:
        if not isinstance(value, dict):
            raise self.error(("severity",), "severity must be a table of rule = severity")
        out: dict[str, Severity] = {}
        for ref, level in value.items():
            r = self.rule(ref, ("severity", ref), self.table_name(("severity",)))
            if level not in ("error", "warning", "info"):
                raise self.error(
                    ("severity", ref), f"severity of {ref} must be error, warning or info"
                )
            out[r.id] = Severity(level)
        return out

    def path_entries(self, value: Any) -> tuple[_PathEntry, ...]:
        if not isinstance(value, list):
            raise self.error(("paths",), "paths must be an array of tables ([[paths]])")
        entries = []
        for i, entry in enumerate(value):
            at = ("paths", i)
            if not isinstance(entry, dict):
                raise self.error(at, "each paths entry must be a table")
            self.check_keys(entry, _PATH_KEYS, at)
            if "path" not in entry:
                raise self.error(at, "a paths entry needs a path (a glob)")
            values: dict[str, str] = {}
            for key in sorted(entry):
                text = self.string(entry[key], (*at, key))
                if key == "application-id":
                    values["application_id"] = text
                elif key == "properties":
                    values.setdefault("properties_before", self.resolve(text, (*at, key)))
                    values.setdefault("properties_after", self.resolve(text, (*at, key)))
                elif key != "path":
                    values[key.replace("-", "_")] = self.resolve(text, (*at, key))
            pattern = self.string(entry["path"], (*at, "path"))
            root, glob = self.glob_root(pattern)
            entries.append(
                _PathEntry(
                    pattern=pattern,
                    root=root,
                    values=PathSettings(**values),
                    fields_set=frozenset(values),
                    spec=self.glob_spec(glob, (*at, "path")),
                )
            )
        return tuple(entries)

    def glob_root(self, pattern: str) -> tuple[str, str]:
        """The directory a ``[[paths]]`` glob is relative to, and the glob from there: this
        file's directory, or, for a glob that is absolute or leads out with ``..`` or ``~``,
        the filesystem root (the glob then anchored)."""
        expanded = os.path.expanduser(pattern)
        if not os.path.isabs(expanded) and ".." not in PurePath(expanded).parts:
            # ./name anchors at this directory, as gitignore's /name (here an absolute path)
            return str(self.root), "/" + pattern[2:] if pattern.startswith("./") else pattern
        absolute = os.path.normpath(os.path.join(self.root, expanded))
        anchor = PurePath(absolute).anchor
        return anchor, "/" + PurePath(absolute).relative_to(anchor).as_posix()

    def glob_spec(self, pattern: str, keys: tuple[Any, ...]) -> GitIgnoreSpec:
        """A ``[[paths]]`` glob compiled with gitignore semantics (one that could match
        nothing is refused)."""
        if pattern.startswith(("!", "#")):
            raise self.error(keys, f"path = {quote(pattern)}: a glob cannot start with ! or #")
        try:
            spec = GitIgnoreSpec.from_lines([pattern])
        except ValueError as error:  # pathspec's GitWildMatchPatternError
            message = f"path = {quote(pattern)} is not a valid glob: {error}"
            raise self.error(keys, message) from None
        if not any(p.include for p in spec.patterns):
            raise self.error(keys, f"path = {quote(pattern)} matches no file")
        return spec

    def acknowledgements(self, value: Any) -> tuple[Acknowledgement, ...]:
        if not isinstance(value, list):
            raise self.error(("acknowledgements",), "acknowledgements must be an array of tables")
        out = []
        for i, entry in enumerate(value):
            at = ("acknowledgements", i)
            if not isinstance(entry, dict):
                raise self.error(at, "each acknowledgement must be a table")
            self.check_keys(entry, _ACK_KEYS, at)
            if "reason" not in entry:
                raise self.error(at, "an acknowledgement needs a reason")
            if "fingerprint" not in entry and "rule" not in entry:
                raise self.error(at, "an acknowledgement names a fingerprint or a rule")
            rule_ref = entry.get("rule")
            out.append(
                Acknowledgement(
                    reason=self.string(entry["reason"], (*at, "reason")),
                    fingerprint=(
                        self.string(entry["fingerprint"], (*at, "fingerprint"))
                        if "fingerprint" in entry
                        else None
                    ),
                    rule=self.rule(rule_ref, (*at, "rule")).id if rule_ref is not None else None,
                    resource=(
                        self.string(entry["resource"], (*at, "resource"))
                        if "resource" in entry
                        else None
                    ),
                    path=(
                        self.resolve(self.string(entry["path"], (*at, "path")))
                        if "path" in entry
                        else None
                    ),
                    expires=self.expiry(entry.get("expires"), (*at, "expires")),
                    where=self.where(at),
                )
            )
        return tuple(out)

    def expiry(self, value: Any, keys: tuple[Any, ...]) -> date | None:
        if value is None:
            return None
        if isinstance(value, date) and not hasattr(value, "hour"):
            return value
        if isinstance(value, str):
            try:
                return date.fromisoformat(value)
            except ValueError:
                pass
        raise self.error(keys, "expires must be a date (2026-12-31)")


_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_NAME = r"""(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)"""
_KEY = re.compile(rf"^\s*({_NAME}(?:\s*\.\s*{_NAME})*)\s*=")
_PART = re.compile(rf"\s*({_NAME})\s*(?:\.|$)")


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(p.strip("\"'") for p in _PART.findall(dotted))


def key_lines(text: str) -> dict[tuple[str | int, ...], int]:
    """Every table header and key of a TOML text with the 1-based line defining it (ints index
    arrays of tables). A small line scan: ``tomllib`` keeps no positions."""
    counts: dict[tuple[str, ...], int] = {}
    current: tuple[str | int, ...] = ()
    lines: dict[tuple[str | int, ...], int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header and not line.lstrip().startswith("#"):
            names = _parts(header.group(2))
            if header.group(1) == "[[":
                index = counts.get(names, -1) + 1
                counts[names] = index
                current = (*names, index)
            else:
                current = names
            full: tuple[str | int, ...] = current
        else:
            key = _KEY.match(line)
            if not key:
                continue
            full = (*current, *_parts(key.group(1)))
        lines.setdefault(full, number)
    return lines


def _nearest(lines: Mapping[tuple[str | int, ...], int], keys: tuple[str | int, ...]) -> int | None:
    for end in range(len(keys), 0, -1):
        if keys[:end] in lines:
            return lines[keys[:end]]
    return None
