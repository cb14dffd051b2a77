"""``ksafe cluster check`` with the apps' topologies: ``--topology`` and the config's list."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from linter.cli import ksafe
from tests.conftest import FIXTURES

SNAPSHOT = str(FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml")
FRAUD = FIXTURES / "fleet" / "small" / "payment-fraud" / "v2.txt"
GROW = "- add-partitions: {topic: payments, partitions: 6}\n"


@pytest.fixture(autouse=True)
def _outside_the_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")


def check(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    plan = tmp_path / "plan.yml"
    plan.write_text(GROW, encoding="utf-8")
    result = CliRunner().invoke(
        ksafe, ["cluster", "check", "--snapshot", SNAPSHOT, "--plan", str(plan), *args]
    )
    return result.exit_code, result.stdout, result.stderr


def test_without_topologies_the_increase_is_a_warning_naming_no_app(tmp_path: Path) -> None:
    code, out, _ = check(tmp_path)
    assert code == 0
    assert "warning KC100 partitions-added-keyed" in out
    assert "If its records are keyed" in out


def test_topology_option_names_the_stateful_app_by_file_name(tmp_path: Path) -> None:
    code, out, _ = check(tmp_path, "--topology", str(FRAUD))
    assert code == 0
    assert "Stateful app(s) v2 keep state on it" in out


def test_config_topologies_take_their_app_id_from_paths(tmp_path: Path) -> None:
    # configured paths stay inside the directory holding the configuration: a copy of the app
    shutil.copytree(FRAUD.parent, tmp_path / "fraud")
    (tmp_path / "ksafe.toml").write_text(
        'topologies = ["fraud/v*.txt"]\n\n'
        '[[paths]]\npath = "fraud/*"\napplication-id = "payment-fraud"\n',
        encoding="utf-8",
    )
    code, out, _ = check(tmp_path)
    assert code == 0
    assert "Stateful app(s) payment-fraud keep state on it" in out


def test_a_configured_glob_matching_nothing_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "ksafe.toml").write_text('topologies = ["nowhere/*.txt"]\n', encoding="utf-8")
    code, _, err = check(tmp_path)
    assert code == 2
    assert "matches no file" in err


def test_the_plan_hook_reads_the_configured_topologies(tmp_path: Path) -> None:
    from linter.api import check_plans
    from linter.config import load_config

    config_file = tmp_path / "ksafe.toml"
    config_file.write_text(
        f'snapshot = "{SNAPSHOT}"\ntopologies = ["{FRAUD}"]\n\n'
        f'[[paths]]\npath = "{FRAUD}"\napplication-id = "payment-fraud"\n',
        encoding="utf-8",
    )
    plan = tmp_path / "plan.yml"
    plan.write_text(GROW, encoding="utf-8")
    # the fixtures lie outside tmp_path, the directory holding the configuration
    report = check_plans([plan], load_config(config_file, allow_outside=True), None).report
    [hit] = [f for f in report.findings if f.name == "partitions-added-keyed"]
    assert "Stateful app(s) payment-fraud" in hit.message
