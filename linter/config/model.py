"""The loaded configuration: the settings it gives, what ``[[paths]]`` entries say for one file,
and the rule references a command line resolves."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from linter.settings import Settings
from rules.framework import find_rule

if TYPE_CHECKING:  # imported by the reader when a configuration has [[paths]] globs
    from pathspec import GitIgnoreSpec

CONFIG_NAMES = ("ksafe.toml", "pyproject.toml")
FAIL_ON = ("error", "warning", "info", "never")


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
class PathEntry:
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
    entries: tuple[PathEntry, ...] = ()
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
    names = tuple(refs)
    if not names:
        return frozenset()
    from rules.catalogue import ALL_RULES  # every rule module: loaded only when a rule is named

    found: set[str] = set()
    for ref in names:
        rule = find_rule(ALL_RULES, ref)
        if rule is None:
            raise KeyError(ref)
        found.add(rule.id)
    return frozenset(found)


# The command-line flag that lets configured paths lead outside the configuration's directory.
ALLOW_OUTSIDE_FLAG = "--allow-outside-config-paths"
