"""One app of the fleet, checked with the library the CLI uses: parse every version, lint the
latest, diff deployed -> latest (or each consecutive pair), and collect its lineage facts.

Plain Python, no Spark: the fleet job maps :func:`scan_app` over apps, the single-process loop
calls it directly. Nothing here raises for a bad input: an app whose description does not parse
(or that trips an unexpected error) comes back ``quarantined`` with the message, never dropped.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from operator import itemgetter

from linter import api
from linter.fleet.lineage import facts_of
from linter.fleet.rows import AppRow, FindingRow, error_row, finding_row, raw_rows
from linter.lineage import AppFacts
from linter.topology.errors import StreamsConfigError, TopologyParseError
from linter.topology.model import Description
from linter.topology.parse import parse
from linter.topology.streams_config import StreamsConfig, parse_properties
from rules.framework import Finding, Severity

SCANNED, QUARANTINED = "scanned", "quarantined"
MISSING_APP = "<no app_id>"


@dataclass(frozen=True, slots=True)
class Version:
    """One row of the fleet table."""

    app_id: str
    version: str
    description: str | None
    properties: str | None = None
    deployed: bool = False
    timestamp: str | None = None  # ISO-8601; orders versions when every row of the app has one
    source: str | None = None  # the file the row was read from, for messages
    problem: str | None = None  # why the reader could not take the row as given


@dataclass(frozen=True, slots=True)
class AppScan:
    app: AppRow
    findings: tuple[FindingRow, ...]
    facts: AppFacts | None  # None when quarantined


_DIGITS = re.compile(r"(\d+)")


@functools.lru_cache(maxsize=1 << 12)
def natural_key(version: str) -> tuple[tuple[int, int, str], ...]:
    """``v2 < v10``: digit runs compare as numbers, the rest as text. Cached: the same version
    names (``v1``, ``v2``, ``1.4.0``) recur across the apps of a fleet, and every app is
    ordered."""
    return tuple(
        (1, int(part), "") if part.isdigit() else (0, 0, part)
        for part in _DIGITS.split(version)
        if part
    )


def order_versions(rows: Iterable[Version]) -> list[Version]:
    """By timestamp when every row has one, else naturally by version name."""
    items = list(rows)
    if items and all(r.timestamp for r in items):
        return sorted(items, key=lambda r: (r.timestamp or "", natural_key(r.version)))
    return sorted(items, key=lambda r: natural_key(r.version))


def _rows(
    findings: Iterable[Finding], app_id: str, check: str, before: str | None, after: str | None
) -> list[FindingRow]:
    return [finding_row(f, app_id, check, before, after) for f in findings]


def _lint_rows(
    model: Description,
    settings: api.Settings,
    application_id: str | None,
    app_id: str,
    version: str,
) -> list[FindingRow]:
    if settings.acknowledgements:  # they mark findings and add their own: the report has them
        own = replace(settings, application_id=application_id)
        return _rows(api.lint(model, own).findings, app_id, "lint", None, version)
    raws = api.lint_raw(model, settings, application_id=application_id)
    return raw_rows(raws, app_id, "lint", None, version)


def _live(rows: Sequence[FindingRow]) -> tuple[int, int, int]:
    """Findings not acknowledged: errors, warnings, infos."""
    live = [r.severity for r in rows if r.acknowledged is None]
    return live.count(Severity.ERROR), live.count(Severity.WARNING), live.count(Severity.INFO)


def _quarantine(
    app_id: str, ordered: Sequence[Version], version: str | None, message: str
) -> AppScan:
    latest = ordered[-1].version if ordered else None
    deployed = next((v.version for v in reversed(ordered) if v.deployed), None)
    row = error_row(app_id, version, message)
    app = AppRow(
        app_id=app_id,
        application_id=None,
        status=QUARANTINED,
        error=message,
        versions=len(ordered),
        latest_version=latest,
        deployed_version=deployed,
        verdict=None,
        strategy=None,
        errors=1,
        warnings=0,
        infos=0,
    )
    return AppScan(app=app, findings=(row,), facts=None)


def scan_app(app_id: str, rows: Iterable[Version], settings: api.Settings) -> AppScan:
    """Everything the fleet scan knows about one app, from its rows of the fleet table."""
    ordered = order_versions(rows)
    unusable = _unusable(app_id, ordered)
    if unusable is not None:
        return _quarantine(app_id, ordered, None, unusable)
    models: list[Description] = []
    configs: list[StreamsConfig | None] = []
    parsed: dict[str, Description] = {}  # a version reprinted unchanged is parsed once
    for v in ordered:
        where = f"{app_id}/{v.version}"
        try:
            if v.description is None:
                raise ValueError(f"{where}: no description text")
            same = parsed.get(v.description)
            # parse() only differs by ``path`` for the same text
            model = replace(same, path=where) if same else parse(v.description, where)
            parsed[v.description] = model
            models.append(model)
            configs.append(
                parse_properties(v.properties, where + ".properties") if v.properties else None
            )
        except (TopologyParseError, StreamsConfigError, ValueError, RecursionError) as error:
            return _quarantine(app_id, ordered, v.version, str(error))
        except Exception as error:  # a parser bug must not sink the scan of the other apps
            message = f"{where}: internal error: {type(error).__name__}: {error}"
            return _quarantine(app_id, ordered, v.version, message)
    try:
        return _check(app_id, ordered, models, configs, settings)
    except Exception as error:  # a bug must not sink the scan of the other apps
        return _quarantine(
            app_id, ordered, ordered[-1].version, f"internal error: {type(error).__name__}: {error}"
        )


SHOWN = 5  # unusable rows named in a quarantine message; the rest are counted


def _unusable(app_id: str, ordered: Sequence[Version]) -> str | None:
    """Why the app's rows cannot be scanned as given (each bad row named by its file), or None.

    A row the reader could not take, a row without app_id or version, a version given twice
    (which one would be scanned?), or no version at all.
    """
    problems = []
    for v in ordered:
        if v.problem:  # the reader's message names its own place
            problems.append(v.problem)
        elif app_id == MISSING_APP:
            problems.append(f"{_where(v)}a row without app_id (version {v.version or 'missing'})")
        elif not v.version:
            problems.append(f"{_where(v)}a row without version")
    given = [v.version for v in ordered if v.version]
    if len(set(given)) < len(given):  # a version given twice (seldom): which, and how often
        for version, times in sorted(Counter(given).items()):
            if times > 1:
                files = sorted({v.source for v in ordered if v.version == version and v.source})
                listed = f" ({', '.join(files)})" if files else ""
                problems.append(f"version {version} is given {times} times{listed}")
    if not ordered:
        problems.append("no versions")
    if not problems:
        return None
    more = f"; and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    return f"{app_id}: cannot be scanned: " + "; ".join(problems[:SHOWN]) + more


def _where(v: Version) -> str:
    """The file of a row, as the prefix of a message about it."""
    return f"{v.source}: " if v.source else ""


def _pairs(ordered: Sequence[Version]) -> list[tuple[int, int]]:
    """deployed -> latest when a version is marked deployed, else each consecutive pair."""
    last = len(ordered) - 1
    deployed = [i for i, v in enumerate(ordered) if v.deployed]
    if deployed:
        return [(deployed[-1], last)] if deployed[-1] != last else []
    return [(i, i + 1) for i in range(last)]


def _check(
    app_id: str,
    ordered: Sequence[Version],
    models: Sequence[Description],
    configs: Sequence[StreamsConfig | None],
    settings: api.Settings,
) -> AppScan:
    latest, config = ordered[-1], configs[-1]
    application_id = (config.application_id if config else None) or settings.application_id
    lint = _lint_rows(models[-1], settings, application_id, app_id, latest.version)
    # A check's findings are sorted by severity, rule, fingerprint and message, as its rows sort
    # after their check and versions (FindingRow.sort_key): ordering the checks orders the
    # rows, without a sort key made for each row.
    reports = [(("lint", "", latest.version), lint)]
    verdict = strategy = None
    upgrade: tuple[str, Sequence[Finding], Description] | None = None
    for i, j in _pairs(ordered):
        judged = api.judge_upgrade(
            models[i],
            models[j],
            settings,
            streams_before=configs[i],
            streams_after=configs[j],
            application_id=application_id,
        )
        before, after = ordered[i].version, ordered[j].version
        reports.append(
            (("diff", before, after), _rows(judged.findings, app_id, "diff", before, after))
        )
        if j == len(ordered) - 1:
            verdict, strategy = judged.verdict.value, judged.strategy.value
            label = f"{ordered[i].version} -> {ordered[j].version}"
            upgrade = (label, judged.findings, models[i])
    findings = [row for _, rows in sorted(reports, key=itemgetter(0)) for row in rows]
    facts = facts_of(
        app_id,
        models[-1],
        application_id=application_id,
        version=latest.version,
        upgrade=upgrade[0] if upgrade else None,
        upgrade_findings=upgrade[1] if upgrade else (),
        before=upgrade[2] if upgrade else None,
    )
    errors, warnings, infos = _live(findings)
    app = AppRow(
        app_id=app_id,
        application_id=application_id,
        status=SCANNED,
        error=None,
        versions=len(ordered),
        latest_version=latest.version,
        deployed_version=next((v.version for v in reversed(ordered) if v.deployed), None),
        verdict=verdict,
        strategy=strategy,
        errors=errors,
        warnings=warnings,
        infos=infos,
    )
    return AppScan(app=app, findings=tuple(findings), facts=facts)
