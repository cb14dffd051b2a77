"""The ``check_*`` doors of :mod:`linter.api`: one call reads the inputs, resolves the settings
and returns the one Result every renderer reads (the diff and the timeline the HTML draws are
the ones that were judged, never computed again)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cluster_engine.simulate import StepSummary
from linter import api
from linter.config import Config, parse_config
from linter.report import render
from linter.report.timeline import TimelineStep, _from_summary
from linter.topology.diff import diff as match
from linter.topology.parse import parse_file
from tests.conftest import FIXTURES

EXAMPLES = FIXTURES / "examples"
SNAPSHOT = FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml"
PLAN = FIXTURES / "reports" / "html" / "restart-two-then-bump.yaml"


def test_check_diff_returns_the_diff_it_judged() -> None:
    before, after = EXAMPLES / "clicks-v1.txt", EXAMPLES / "clicks-v2.txt"
    result = api.check_diff(before, after, Config(), application_id="clicks-app")
    models = parse_file(before), parse_file(after)
    assert result.report == api.diff(*models, api.Settings(application_id="clicks-app"))
    assert (result.before, result.after) == models
    assert result.diff == match(*models)
    assert result.settings.application_id == "clicks-app"


def test_the_command_line_application_id_wins_over_the_configured_one(tmp_path: Path) -> None:
    after = EXAMPLES / "clicks-v2.txt"
    text = f'application-id = "from-config"\n[[paths]]\npath = "{after}"\n'
    config = parse_config(text + 'application-id = "from-paths"\n', tmp_path / "ksafe.toml")
    assert api.check_lint([after], config).settings.application_id == "from-paths"
    chosen = api.check_lint([after], config, application_id="flag")
    assert chosen.settings.application_id == "flag"


def test_each_file_linted_together_names_its_topics_with_its_own_application_id(
    tmp_path: Path,
) -> None:
    clicks, words = EXAMPLES / "clicks-v2.txt", EXAMPLES / "word-count-v2.txt"
    text = f'application-id = "from-config"\n[[paths]]\npath = "{clicks}"\n'
    config = parse_config(text + 'application-id = "clicks-app"\n', tmp_path / "ksafe.toml")
    result = api.check_lint([clicks, words], config)
    changelogs = sorted(
        f.message.split("its changelog ")[1].split("-")[0]
        for f in result.report.findings
        if f.rule == "KS101"
    )
    assert changelogs == ["clicks", "from"], changelogs  # clicks-app-..., from-config-...
    # each file alone says the same as the two together
    alone = [api.check_lint([f], config).report.findings for f in (clicks, words)]
    assert sorted(f.message for f in result.report.findings) == sorted(
        f.message for findings in alone for f in findings
    )
    flag = api.check_lint([clicks, words], config, application_id="flag").report.findings
    assert all("its changelog flag-" in f.message for f in flag if f.rule == "KS101")


def test_a_config_only_diff_draws_nothing(tmp_path: Path) -> None:
    (tmp_path / "b.properties").write_text("application.id=a\n")
    (tmp_path / "a.properties").write_text("application.id=b\n")
    result = api.check_diff(
        None, None, config_before=tmp_path / "b.properties", config_after=tmp_path / "a.properties"
    )
    assert "application-id-changed" in {f.name for f in result.report.findings}
    assert (result.before, result.after, result.diff) == (None, None, None)


def test_check_plan_carries_its_timeline() -> None:
    result = api.check_plan(PLAN, Config(), snapshot=SNAPSHOT)
    assert [s.index for s in result.timeline] == [-1, 0, 1, 2, 3, 4]
    assert result.timeline[0].title == "cluster snapshot"
    html = render(result, "html")
    assert html.count('<tr id="step-') == len(result.timeline)


def test_check_plan_without_a_snapshot_is_a_usage_problem() -> None:
    with pytest.raises(api.UsageProblem, match="give --snapshot"):
        api.check_plan(PLAN, Config())


def test_check_release_holds_both_halves() -> None:
    result = api.check_release(
        topology_before=EXAMPLES / "clicks-v1.txt",
        topology_after=EXAMPLES / "clicks-v2.txt",
        snapshot=SNAPSHOT,
        plan=PLAN,
    )
    assert result.report.kind == "combined"
    assert result.diff is not None
    assert len(result.timeline) == 6


def test_the_timeline_reads_each_field_of_the_step_summary() -> None:
    summary = StepSummary(
        step=2, line=7, action="restart", refused=("node 3 is the last voter",), brokers=3,
        down=(3, 1), fenced=(2,), partitions=10, offline=1, under_min_isr=2,
        under_replicated=4, at_min_isr=0, worst_offline=5, worst_under_min_isr=6,
        features={"metadata.version": 27}, throttles={"leader": "100"}, reassignments=1,
        bytes_to_move=0, voters=(1, 2, 3),
    )  # fmt: skip
    assert _from_summary(summary, None) == TimelineStep(
        index=2,
        action="restart",
        title="restart",
        line=7,
        under_min_isr=6,
        offline=5,
        under_replicated=4,
        nodes_down=(1, 3),
        features={"metadata.version": 27},
        throttles=("leader=100",),
        reassignments=1,
        notes=(
            "refused: node 3 is the last voter",
            "fenced: 2",
            "after the step: 2 under min ISR, 1 offline",
        ),
    )


def test_every_public_name_is_what_it_says_after_every_submodule_is_loaded() -> None:
    """The door loads its modules when a name is first used; a submodule that shares a public
    name (``finish``) must not replace the function with the module once it is imported."""
    import importlib
    import pkgutil
    import types

    from linter import api

    for module in pkgutil.iter_modules(api.__path__):
        importlib.import_module(f"linter.api.{module.name}")
    for name in api.__all__:
        assert not isinstance(getattr(api, name), types.ModuleType), name
    assert set(dir(api)) >= set(api.__all__)
