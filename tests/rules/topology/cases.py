"""Loading the YAML rule cases of ``fixtures/rules/<rule-name>.yml`` and running one.

A case gives either ``topology``/``topology_file`` (a lint rule), ``before``/``after`` or
``before_file``/``after_file`` (a diff rule), or ``config`` with ``before``/``after`` properties
text and optional ``streams_version_before``/``streams_version_after`` (a config rule), plus
optional ``application_id`` and ``expect``: the findings of the case's rule, as a list of
``{rule, severity, resource}`` (resource: any resource name of the finding), optionally with
``message``, ``remediation`` or ``steps`` (text the finding's message, remediation or one of its
steps must contain) and ``not_in_remediation`` (text it must not contain). Files are
``fixtures/...`` paths or ``corpus:<path>`` under ``../shared/corpus/topologies``. Unknown keys
fail the case.
"""

from __future__ import annotations

from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict

from linter import api
from linter.report.model import Report
from linter.topology.model import Description
from linter.topology.parse import parse
from linter.topology.streams_config import parse_properties
from rules.framework import Finding
from tests.conftest import CORPUS_MISSING, FIXTURES, ROOT, TOPOLOGY_CORPUS, corpus_text
from tests.rules.yaml_cases import Case, load_cases_from

RULE_CASES = FIXTURES / "rules"


_CASE_KEYS = frozenset(
    {
        "name", "before", "after", "before_file", "after_file", "topology", "topology_file",
        "config", "application_id", "expect",
    }
)
_CONFIG_KEYS = frozenset(
    {"before", "after", "streams_version_before", "streams_version_after"}
)


class Expect(BaseModel):
    """One expected finding of a case."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: str
    severity: Literal["error", "warning", "info"]
    resource: str | int
    message: str | None = None
    remediation: str | None = None
    steps: str | None = None
    not_in_remediation: str | None = None

    def matches(self, f: Finding) -> bool:
        return (
            f.name == self.rule
            and f.severity.value == self.severity
            and any(r.name == str(self.resource) for r in f.resources)
            and (self.message is None or self.message in f.message)
            and (self.remediation is None or self.remediation in f.remediation)
            and (self.steps is None or any(self.steps in s for s in f.steps))
            and (self.not_in_remediation is None or self.not_in_remediation not in f.remediation)
        )


def check_keys(case: Case) -> None:
    """A typo in a case file fails the case instead of silently testing nothing."""
    unknown = case.spec.keys() - _CASE_KEYS
    assert not unknown, f"{case.path}: unknown keys {sorted(unknown)} in case {case.name!r}"
    unknown = (case.spec.get("config") or {}).keys() - _CONFIG_KEYS
    assert not unknown, f"{case.path}: unknown config keys {sorted(unknown)} in {case.name!r}"


def load_cases() -> list[Case]:
    return load_cases_from(RULE_CASES)


def _text(spec: dict[str, Any], key: str) -> tuple[str, str] | None:
    if key in spec:
        return str(spec[key]), f"<{key}>"
    ref = spec.get(f"{key}_file")
    if ref is None:
        return None
    if ref.startswith("corpus:"):
        path = TOPOLOGY_CORPUS / ref[len("corpus:") :]
        if not TOPOLOGY_CORPUS.is_dir():
            pytest.skip(CORPUS_MISSING)
        return corpus_text(path), str(path)
    path = ROOT / ref
    return path.read_text(encoding="utf-8"), ref


def _model(spec: dict[str, Any], key: str) -> Description | None:
    found = _text(spec, key)
    return None if found is None else parse(found[0], found[1])


def run_case(case: Case) -> Report:
    spec = case.spec
    settings = api.Settings(application_id=spec.get("application_id"))
    if "topology" in spec or "topology_file" in spec:
        model = _model(spec, "topology")
        assert model is not None
        return api.lint(model, settings)
    cfg = spec.get("config") or {}
    before = parse_properties(cfg["before"], "before.properties") if "before" in cfg else None
    after = parse_properties(cfg["after"], "after.properties") if "after" in cfg else None
    return api.diff(
        _model(spec, "before"),
        _model(spec, "after"),
        settings,
        streams_before=before,
        streams_after=after,
        streams_version_before=cfg.get("streams_version_before"),
        streams_version_after=cfg.get("streams_version_after"),
    )
