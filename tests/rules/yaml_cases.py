"""What every YAML rule-case file shares: ``{rule: <name>, cases: [{name, ..., expect}]}``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml


@dataclass(frozen=True)
class Case:
    rule: str
    name: str
    spec: dict[str, Any]
    path: Path

    @property
    def id(self) -> str:
        return f"{self.rule}: {self.name}"

    @property
    def expect(self) -> list[dict[str, Any]]:
        return list(self.spec.get("expect") or [])


def load_cases_from(folder: Path) -> list[Case]:
    """Every case of every ``*.yml`` in ``folder``, in file then case order."""
    out: list[Case] = []
    for path in sorted(folder.glob("*.yml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for spec in doc["cases"]:
            out.append(Case(doc["rule"], spec["name"], spec, path))
    return out
