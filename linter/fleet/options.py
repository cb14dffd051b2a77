"""What one fleet scan is asked to do: the options the CLI resolves and every engine reads."""

from __future__ import annotations

from dataclasses import dataclass, field

from linter.api import Settings
from linter.lineage import PartitionChange


@dataclass(frozen=True)
class ScanOptions:
    input: str
    out: str
    input_format: str = "auto"
    partitions: int | None = None  # shuffle partitions; None: sized to the input
    changes: tuple[PartitionChange, ...] = ()
    plan: str | None = None
    settings: Settings = field(default_factory=Settings)
    top: int = 50  # worst apps / risky edges kept in the JSON summary and the dashboard
    progress: bool = True
