"""Reading a configuration table: every key checked (unknown keys, unknown rules, bad values are
located :class:`ConfigError` s), paths resolved inside the configuration's directory."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from datetime import date
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from linter.acknowledgements import Acknowledgement
from linter.config.lines import key_lines, nearest
from linter.config.model import (
    ALLOW_OUTSIDE_FLAG,
    FAIL_ON,
    Config,
    ConfigError,
    PathEntry,
    PathSettings,
)
from linter.inputs import quote
from linter.settings import Settings
from rules.framework import Rule, Severity, find_rule

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

_TOP_KEYS = {
    "select", "ignore", "fail-on", "severity", "application-id", "snapshot", "paths",
    "acknowledgements", "topologies", "git-base",
}
_PATH_KEYS = {
    "path", "application-id", "properties", "properties-before", "properties-after", "snapshot",
}
_ACK_KEYS = {"fingerprint", "rule", "resource", "path", "reason", "expires"}


class Reader:
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
        return nearest(self.lines, (*self.prefix, *keys))

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
        from rules.catalogue import ALL_RULES  # every rule module: loaded only when one is named

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

    def path_entries(self, value: Any) -> tuple[PathEntry, ...]:
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
                PathEntry(
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
        from pathspec import GitIgnoreSpec  # loaded by the configurations that have globs

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
