"""Acknowledgements: findings a team has accepted (the ``acknowledgements`` of the configuration),
and how they mark a run's findings.

An acknowledgement names a finding by ``fingerprint``, or by ``rule`` (id or name) plus optionally a
``resource`` and a ``path`` glob. A matching finding is reported as acknowledged (with the reason)
and no longer counts. The configuration loader makes them, the report pipeline applies them, and
the workflow rules (``acknowledgement-unused`` / ``-expired``) judge what is left; this module
knows findings only by the fields it reads, so it sits below the rules that judge it.

Matching is pure: the caller passes today's date and absolute paths.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from fnmatch import fnmatchcase
from typing import Any, Protocol, Self, TypeVar


class _Resource(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...


class Acknowledgeable(Protocol):
    """What an acknowledgement reads of a finding (``rules.framework.Finding`` has it)."""

    @property
    def fingerprint(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def resources(self) -> tuple[_Resource, ...]: ...
    @property
    def acknowledged(self) -> str | None: ...
    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Self: ...


F = TypeVar("F", bound=Acknowledgeable)


@dataclass(frozen=True)
class Acknowledgement:
    """A finding a team has accepted: by ``fingerprint``, or by ``rule`` (+ ``resource``).

    ``path`` is a glob (absolute once the config loader has resolved it against the config file's
    directory): the acknowledgement only applies to findings located in a matching file, and is
    only judged unused in a run that looked at such a file. ``where`` is ``path:line`` of the entry
    in the config file.
    """

    reason: str
    fingerprint: str | None = None
    rule: str | None = None
    resource: str | None = None
    expires: date | None = None
    where: str = ""
    path: str | None = None

    @property
    def label(self) -> str:
        """How the entry names its finding, for messages and for its own fingerprint."""
        parts = []
        if self.fingerprint:
            parts.append(f"fingerprint {self.fingerprint}")
        if self.rule:
            parts.append(f"rule {self.rule}")
        if self.resource:
            parts.append(f"resource {self.resource}")
        if self.path:
            parts.append(f"path {self.path}")
        return ", ".join(parts) or "everything"

    def expired(self, today: date) -> bool:
        return self.expires is not None and self.expires < today

    def covers_path(self, paths: Iterable[str]) -> bool:
        """True when no path glob is set, or one of ``paths`` matches it."""
        if self.path is None:
            return True
        return any(_path_matches(self.path, p) for p in paths)

    def matches(self, finding: Acknowledgeable, paths: Iterable[str] = ()) -> bool:
        """Does this entry name ``finding``? ``paths`` are the finding's absolute file paths."""
        if self.fingerprint and finding.fingerprint != self.fingerprint:
            return False
        if self.rule and self.rule.upper() != finding.rule and self.rule != finding.name:
            return False
        if self.resource and not any(
            self.resource in (r.name, f"{r.kind}:{r.name}", f"{r.kind}={r.name}")
            for r in finding.resources
        ):
            return False
        return self.path is None or any(_path_matches(self.path, p) for p in paths)


def _path_matches(pattern: str, path: str) -> bool:
    return path == pattern or fnmatchcase(path, pattern)


@dataclass(frozen=True)
class AcknowledgementCheck:
    """The subject of the acknowledgement rules: every entry, which ones matched a finding in this
    run, which files the run looked at (absolute), and today's date."""

    acknowledgements: tuple[Acknowledgement, ...]
    used: frozenset[int]
    paths: frozenset[str]
    today: date


def apply(
    findings: Iterable[F],
    acknowledgements: tuple[Acknowledgement, ...],
    today: date,
    paths_of: dict[str, tuple[str, ...]] | None = None,
) -> tuple[list[F], frozenset[int]]:
    """Mark findings named by a live (unexpired) acknowledgement; return them and the indices of
    the entries that matched something. ``paths_of`` maps a fingerprint to its absolute paths.

    Entries with a fingerprint are looked up by it (a baselined fleet has thousands of them);
    the first live matching entry, in file order, gives the reason.
    """
    paths_of = paths_of or {}
    by_fingerprint: dict[str, list[int]] = {}
    general: list[int] = []
    for index, ack in enumerate(acknowledgements):
        if ack.fingerprint:
            by_fingerprint.setdefault(ack.fingerprint, []).append(index)
        else:
            general.append(index)
    used: set[int] = set()
    out: list[F] = []
    for finding in findings:
        reason: str | None = finding.acknowledged
        paths = paths_of.get(finding.fingerprint, ())
        for index in sorted((*by_fingerprint.get(finding.fingerprint, ()), *general)):
            ack = acknowledgements[index]
            if ack.matches(finding, paths):
                used.add(index)
                if reason is None and not ack.expired(today):
                    reason = ack.reason
        if reason != finding.acknowledged:
            finding = finding.model_copy(update={"acknowledged": reason})
        out.append(finding)
    return out, frozenset(used)
