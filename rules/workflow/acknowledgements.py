"""The two rules that keep acknowledgements honest: an entry that matches nothing, or whose
``expires`` date has passed, is reported by ``acknowledgement-unused`` /
``acknowledgement-expired`` so the list cannot rot. The entries and their matching live in
:mod:`linter.acknowledgements`.
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.acknowledgements import Acknowledgement, AcknowledgementCheck
from rules.framework import Hit, Impact, Location, Severity, SubjectKind, rule

ACKNOWLEDGEMENTS: SubjectKind[AcknowledgementCheck] = SubjectKind("acknowledgements")


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
