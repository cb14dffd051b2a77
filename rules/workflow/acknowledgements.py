"""Acknowledgements: findings a team has accepted, and the two rules that keep them honest.

An acknowledgement names a finding by ``fingerprint``, or by ``rule`` (id or name) plus optionally a
``resource`` and a ``path`` glob. A matching finding is reported as acknowledged (with the reason)
and no longer counts. An acknowledgement that matches nothing, or whose ``expires`` date has passed,
is reported by ``acknowledgement-unused`` / ``acknowledgement-expired`` so the list cannot rot.

Matching is pure: the caller passes today's date and absolute paths.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from fnmatch import fnmatchcase

from rules.framework import Finding, Hit, Impact, Location, Severity, SubjectKind, rule


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

    def matches(self, finding: Finding, paths: Iterable[str] = ()) -> bool:
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


ACKNOWLEDGEMENTS: SubjectKind[AcknowledgementCheck] = SubjectKind("acknowledgements")


def apply(
    findings: Iterable[Finding],
    acknowledgements: tuple[Acknowledgement, ...],
    today: date,
    paths_of: dict[str, tuple[str, ...]] | None = None,
) -> tuple[list[Finding], frozenset[int]]:
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
    out: list[Finding] = []
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


def _location(ack: Acknowledgement) -> tuple[Location, ...]:
    path, sep, line = ack.where.rpartition(":")
    if sep and line.isdigit():
        return (Location(path=path, line=int(line), side="config"),)
    return (Location(path=ack.where, side="config"),) if ack.where else ()


def _hit(ack: Acknowledgement, message: str, remediation: str) -> Hit:
    return Hit(
        message=message,
        locations=_location(ack),
        remediation=remediation,
        key=ack.label,
        data={"reason": ack.reason, "expires": ack.expires.isoformat() if ack.expires else None},
    )


@rule(
    id="KS901",
    name="acknowledgement-unused",
    severity=Severity.WARNING,
    impact=Impact.HYGIENE,
    subject=ACKNOWLEDGEMENTS,
)
def acknowledgement_unused(check: AcknowledgementCheck) -> Iterator[Hit]:
    """An acknowledgement in the configuration matches no finding any more.

    Why: an acknowledgement outlives the problem it excused. Left in place, a stale entry that
    names a rule and a resource will silently excuse the next, unrelated finding about that
    resource. Entries scoped to a ``path`` are only judged in a run that looked at that path, so
    checking a few files (as the pre-commit hook does) does not flag the others' entries.

    Example: ``[[tool.ksafe.acknowledgements]]`` with ``fingerprint = "9c1d..."`` and
    ``reason = "store rebuilt during the migration"``, after the store got its explicit name back:
    the entry matches nothing.

    Fix: delete the entry (``ksafe baseline`` rewrites the list from the current findings).
    """
    for index, ack in enumerate(check.acknowledgements):
        if index in check.used or ack.expired(check.today) or not ack.covers_path(check.paths):
            continue
        yield _hit(
            ack,
            f"acknowledgement ({ack.label}) matches no finding: {ack.reason}",
            "Delete the entry from the configuration; the finding it excused is gone.",
        )


@rule(
    id="KS902",
    name="acknowledgement-expired",
    severity=Severity.WARNING,
    impact=Impact.HYGIENE,
    subject=ACKNOWLEDGEMENTS,
)
def acknowledgement_expired(check: AcknowledgementCheck) -> Iterator[Hit]:
    """An acknowledgement's ``expires`` date has passed, so it no longer excuses anything.

    Why: acknowledgements with an expiry are promises ("we drain that topic before the March
    release"). Once the date passes, the finding it covered counts again and this entry says why.

    Example: ``expires = 2026-03-31`` and today is 2026-04-01: the ``store-renamed`` finding it
    covered fails the check again, and this finding points at the entry.

    Fix: fix the underlying finding, or renew the entry with a new date and an updated reason.
    """
    for ack in check.acknowledgements:
        if ack.expired(check.today) and ack.covers_path(check.paths):
            assert ack.expires is not None
            yield _hit(
                ack,
                f"acknowledgement ({ack.label}) expired on {ack.expires.isoformat()}: {ack.reason}",
                "Fix the finding it covered, or renew the entry with a new expiry and reason.",
            )
