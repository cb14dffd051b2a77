"""What the commands that are not checks need from the models: describe() texts parsed and
printed back, the rule catalogue, the JSON schemas."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from linter.api.errors import INPUT_ERRORS as INPUT_ERRORS
from linter.topology.model import Description
from linter.topology.parse import parse_file
from linter.topology.render import render, to_jsonable
from rules.catalogue import ALL_RULES
from rules.framework import Rule, find_rule


def parse_topologies(files: Sequence[Path]) -> list[Description]:
    """Each describe() text read into its model."""
    return [parse_file(f) for f in files]


def topology_json(models: Sequence[Description]) -> str:
    """The models as JSON (one object for one model, else a list)."""
    payload = [to_jsonable(m) for m in models]
    return json.dumps(payload[0] if len(payload) == 1 else payload, indent=2)


def topology_text(models: Sequence[Description]) -> str:
    """The models as canonical describe() text (sets sorted)."""
    return "".join(render(m) for m in models)


def rules() -> tuple[Rule, ...]:
    """Every rule, in catalogue order."""
    return ALL_RULES


def rule(ref: str) -> Rule | None:
    """The rule with this id (``KS201``) or name (``store-renamed``), if any."""
    return find_rule(ALL_RULES, ref)
