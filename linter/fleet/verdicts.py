"""An app's verdict in the fleet: its own upgrade's, made worse by the fleet findings that name
it. An upgrade that breaks a downstream stateful app is not ``safe``, and neither is the app
whose state it breaks; a cluster change that needs the app reset asks for a reset.

The same rule as :func:`rules.verdict.verdict_of` (unacknowledged errors: unsafe; a warning that
rebuilds state or needs more than a rolling bounce: safe-with-restore), once over rows for the
single-process scan and once as Spark columns for the job.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from linter.fleet.rows import FindingRow
from rules.framework import DeployStrategy, Impact, Severity
from rules.verdict import Verdict

if TYPE_CHECKING:
    from pyspark.sql import Column

VERDICTS = tuple(v.value for v in Verdict)  # by rank
STRATEGIES = tuple(s.value for s in DeployStrategy)  # by rank


def _rank(severity: str, impact: str, requires: str | None) -> int:
    if severity == Severity.ERROR.value:
        return Verdict.UNSAFE.rank
    if severity == Severity.WARNING.value and (
        impact == Impact.RESTORE.value
        or (requires is not None and requires != DeployStrategy.ROLLING_BOUNCE.value)
    ):
        return Verdict.SAFE_WITH_RESTORE.rank
    return -1  # never makes a verdict: an info, or a warning a rolling bounce covers


def with_fleet(
    verdict: str | None, strategy: str | None, fleet: Iterable[FindingRow]
) -> tuple[str | None, str | None]:
    """``(verdict, strategy)`` of an app once its (unacknowledged) fleet findings count."""
    rank = VERDICTS.index(verdict) if verdict is not None else -1
    strat = STRATEGIES.index(strategy) if strategy is not None else -1
    for f in fleet:
        if f.acknowledged is not None:
            continue
        rank = max(rank, _rank(f.severity, f.impact, f.requires))
        if f.requires is not None and f.severity != Severity.INFO.value:
            strat = max(strat, STRATEGIES.index(f.requires))
    return (
        VERDICTS[rank] if rank >= 0 else None,
        STRATEGIES[strat] if strat >= 0 else None,
    )


def rank_columns() -> tuple[Column, Column]:
    """Per fleet finding row: its verdict rank and its strategy rank (-1: none), as Spark
    columns to take the max of per app (acknowledged rows are filtered out before)."""
    from pyspark.sql import functions as F

    severity, impact, requires = F.col("severity"), F.col("impact"), F.col("requires")
    verdict = (
        F.when(severity == Severity.ERROR.value, Verdict.UNSAFE.rank)
        .when(
            (severity == Severity.WARNING.value)
            & (
                (impact == Impact.RESTORE.value)
                | (requires.isNotNull() & (requires != DeployStrategy.ROLLING_BOUNCE.value))
            ),
            Verdict.SAFE_WITH_RESTORE.rank,
        )
        .otherwise(-1)
    )
    strategy = F.lit(-1)
    for i, name in enumerate(STRATEGIES):
        strategy = F.when((requires == name) & (severity != Severity.INFO.value), i).otherwise(
            strategy
        )
    return verdict, strategy


def combined(own: Column, fleet_rank: Column, names: tuple[str, ...]) -> Column:
    """The worse of an app's own value (a name in ``names`` or null) and the fleet's rank."""
    from pyspark.sql import functions as F

    own_rank = F.lit(-1)
    for i, name in enumerate(names):
        own_rank = F.when(own == name, i).otherwise(own_rank)
    result = own
    for i, name in enumerate(names):
        result = F.when((fleet_rank == i) & (fleet_rank > own_rank), name).otherwise(result)
    return result
