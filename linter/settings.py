"""What a user's configuration changes about a check, and the rule selection it makes.

Below both :mod:`linter.config` (which builds :class:`Settings` from a file) and :mod:`linter.api`
(which runs checks with them), so neither imports the other to name them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from linter.acknowledgements import Acknowledgement
from rules.framework import Rule, Severity


@dataclass(frozen=True)
class Settings:
    """What a user's configuration changes about a check (defaults: every rule, as shipped)."""

    select: frozenset[str] = frozenset()  # rule ids or names; empty means all
    ignore: frozenset[str] = frozenset()
    severities: Mapping[str, Severity] = field(default_factory=dict)  # by rule id or name
    acknowledgements: tuple[Acknowledgement, ...] = ()
    fail_on: Severity | None = Severity.ERROR
    application_id: str | None = None
    today: date | None = None  # for acknowledgement expiry; None means the real date


def selected(rules: Iterable[Rule], settings: Settings) -> tuple[Rule, ...]:
    """The rules ``settings`` keeps, in catalogue order."""
    if not settings.select and not settings.ignore:  # the usual case, checked once per app
        return tuple(rules)

    def named(r: Rule, refs: frozenset[str]) -> bool:
        return r.id in refs or r.name in refs or r.id.lower() in refs

    return tuple(
        r
        for r in rules
        if (not settings.select or named(r, settings.select)) and not named(r, settings.ignore)
    )


def severity_overrides(rules: Iterable[Rule], settings: Settings) -> dict[str, Severity]:
    """Overrides keyed by rule id, whether the config named the rule by id or by name."""
    out: dict[str, Severity] = {}
    if not settings.severities:
        return out
    for r in rules:
        for ref in (r.id, r.name):
            if ref in settings.severities:
                out[r.id] = settings.severities[ref]
    return out
