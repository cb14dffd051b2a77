"""``ksafe baseline``: findings written as acknowledgements that the config reads back and that
acknowledge exactly those findings."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from linter.api import Settings, finish
from linter.baseline import append_to, baseline, toml_string
from linter.config import ConfigError, load_config
from rules.framework import Finding, Impact, Location, Severity
from tests.linter.report.sample import diff_report


def test_toml_strings_round_trip() -> None:
    import tomllib

    nasty = 'a "quoted" \\ back\nslash\ttab \x01 ünï'
    assert tomllib.loads(f"x = {toml_string(nasty)}")["x"] == nasty


@pytest.mark.parametrize("name", ["ksafe.toml", "pyproject.toml"])
def test_baseline_round_trips_and_acknowledges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    report = diff_report()
    config_file = tmp_path / name
    table = "tool.ksafe.acknowledgements" if name == "pyproject.toml" else "acknowledgements"
    if name == "pyproject.toml":
        config_file.write_text('[project]\nname = "app"\n\n[tool.ksafe]\nfail-on = "warning"\n')
    snippet = baseline(report, tmp_path, reason="adopted 2026-06", expires=None, table=table)
    # the already-acknowledged finding is not written again
    assert snippet.count(f"[[{table}]]") == 2
    assert 'path = "topology/word-count.txt"' in snippet
    assert "# KS201 store-renamed: store KSTREAM" in snippet
    append_to(config_file, snippet)
    config = load_config(config_file)
    fresh = [f.model_copy(update={"acknowledged": None}) for f in report.findings]
    again = finish("diff", fresh, config.settings)
    assert again.summary.errors == 0
    assert again.summary.warnings == 0
    assert not [f for f in again.findings if f.rule.startswith("KS90")]
    assert again.summary.acknowledged == 2


def test_expiry_and_unlocated_findings(tmp_path: Path) -> None:
    finding = Finding(
        rule="KC301",
        name="restart-breaks-min-isr",
        severity=Severity.ERROR,
        impact=Impact.AVAILABILITY,
        message="m",
        fingerprint="f00",
    )
    located = finding.model_copy(
        update={
            "fingerprint": "f01",
            "locations": (Location(path=str(tmp_path / "t.txt@HEAD~2"), side="before"),),
        }
    )
    report = finish("cluster", [finding, located], Settings())
    text = baseline(
        report, tmp_path, reason="r", expires=date(2026, 12, 31), table="acknowledgements"
    )
    assert "expires = 2026-12-31" in text
    assert 'path = "t.txt"' in text
    assert text.count("path =") == 1


def test_refuses_to_break_the_config(tmp_path: Path) -> None:
    config_file = tmp_path / "ksafe.toml"
    config_file.write_text('acknowledgements = [{fingerprint = "x", reason = "y"}]\n')
    snippet = baseline(diff_report(), tmp_path, reason="r", expires=None, table="acknowledgements")
    with pytest.raises(ConfigError, match="cannot append"):
        append_to(config_file, snippet)
    assert config_file.read_text().count("fingerprint") == 1
