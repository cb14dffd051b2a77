"""The rows the fleet scan writes: one finding, one app (see the schemas below, and the README).

Plain dataclasses with a tuple form in schema order, so that Spark and the single-process path
write the same tables. They are not frozen, though nothing changes a row once made: a fleet scan
makes some thirty rows an app, and a frozen dataclass's ``__init__`` costs five times as much (it
sets every field through ``object.__setattr__``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rules.framework import Finding, Impact, Raw, Severity


@dataclass(slots=True)
class FindingRow:
    """One finding of the fleet scan (the ``findings`` table; see :data:`FINDINGS_SCHEMA`)."""

    app_id: str | None
    check: str  # parse | lint | diff | lineage | cluster
    version_before: str | None
    version_after: str | None
    rule: str
    name: str
    severity: str
    impact: str
    fingerprint: str
    message: str
    resources: tuple[str, ...]
    remediation: str
    requires: str | None
    step: int | None
    acknowledged: str | None = None  # the reason, when the config acknowledges the finding

    def as_tuple(self) -> tuple[Any, ...]:
        return (
            self.app_id, self.check, self.version_before, self.version_after, self.rule,
            self.name, self.severity, self.impact, self.fingerprint, self.message,
            list(self.resources), self.remediation, self.requires, self.step, self.acknowledged,
        )  # fmt: skip

    def sort_key(self) -> tuple[Any, ...]:
        return (
            self.app_id or "",
            self.check,
            self.version_before or "",
            self.version_after or "",
            -_RANK[self.severity],
            self.rule,
            self.fingerprint,
            self.message,
        )


_RANK = {s.value: s.rank for s in Severity}


@dataclass(slots=True)
class AppRow:
    """One app's own results (before the fleet findings are counted in)."""

    app_id: str
    application_id: str | None
    status: str
    error: str | None
    versions: int
    latest_version: str | None
    deployed_version: str | None
    verdict: str | None
    strategy: str | None
    errors: int
    warnings: int
    infos: int

    def as_tuple(self) -> tuple[Any, ...]:
        return (
            self.app_id, self.application_id, self.status, self.error, self.versions,
            self.latest_version, self.deployed_version, self.verdict, self.strategy,
            self.errors, self.warnings, self.infos,
        )  # fmt: skip


FINDINGS_SCHEMA = (
    "app_id string, check string, version_before string, version_after string, rule string, "
    "name string, severity string, impact string, fingerprint string, message string, "
    "resources array<string>, remediation string, requires string, step int, acknowledged string"
)
EDGES_SCHEMA = (
    "upstream_app string, topic string, downstream_app string, downstream_stateful boolean, "
    "key_change boolean, risky boolean"
)
APP_ROW_SCHEMA = (
    "app_id string, application_id string, status string, error string, versions int, "
    "latest_version string, deployed_version string, verdict string, strategy string, "
    "errors int, warnings int, infos int"
)

def finding_row(
    f: Finding, app_id: str | None, check: str, before: str | None, after: str | None
) -> FindingRow:
    # ``str()`` of a StrEnum member is its value, at a fifth of the cost of ``.value`` (a Python
    # descriptor), for some thirty findings an app in a fleet scan. The fields are given in
    # schema order, by position: keywords would cost a dict per row to call the dataclass with.
    return FindingRow(
        app_id,
        check,
        before,  # version_before
        after,  # version_after
        f.rule,
        f.name,
        str(f.severity),
        str(f.impact),
        f.fingerprint,
        f.message,
        tuple([f"{r.kind}:{r.name}" for r in f.resources]),
        f.remediation,
        str(f.requires) if f.requires is not None else None,
        f.step,
        f.acknowledged,
    )


def raw_rows(
    raws: Iterable[Raw], app_id: str | None, check: str, before: str | None, after: str | None
) -> list[FindingRow]:
    """:func:`finding_row` of each finding ``raws`` make, without making them (``to_finding``):
    one loop, not a call a row, for some thirty rows an app."""
    rows = []
    rule: object = None
    shown: Severity | None = None
    rule_id = name = severity_text = impact = ""
    for r, hit, severity, fingerprint in raws:
        if r is not rule or severity is not shown:  # a rule's hits come together: its texts once
            rule, shown = r, severity
            rule_id, name, severity_text, impact = r.id, r.name, _TEXT[severity], _TEXT[r.impact]
        res = hit.resources
        rows.append(
            FindingRow(
                app_id,
                check,
                before,  # version_before
                after,  # version_after
                rule_id,
                name,
                severity_text,
                impact,
                fingerprint,
                hit.message,
                # most hits name one resource: no list made for it
                (f"{res[0].kind}:{res[0].name}",) if len(res) == 1 else tuple(
                    [f"{x.kind}:{x.name}" for x in res]
                ),
                hit.remediation,
                str(hit.requires) if hit.requires is not None else None,
                hit.step,
                None,  # acknowledged: a raw finding is made without acknowledgements
            )
        )
    return rows


# Each member's text, a dict lookup (a member is a str) in place of a call of ``str()``.
_TEXT: dict[str, str] = {m: m.value for m in (*Severity, *Impact)}


def error_row(app_id: str, version: str | None, message: str) -> FindingRow:
    """The row that stands for a quarantined app (its fingerprint: app and version only)."""
    digest = hashlib.sha256(f"parse-error\x00{app_id}\x00{version}".encode()).hexdigest()[:16]
    return FindingRow(
        app_id=app_id,
        check="parse",
        version_before=None,
        version_after=version,
        rule="parse-error",
        name="description-unreadable",
        severity=Severity.ERROR.value,
        impact="",
        fingerprint=digest,
        message=message,
        resources=(),
        remediation="Fix or regenerate the describe() text of this version.",
        requires=None,
        step=None,
    )
