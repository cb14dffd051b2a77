"""``ksafe cluster check`` end to end: formats, exit codes, plan lines, user errors."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from linter.cli import ksafe
from linter.report.model import Report
from tests.conftest import FIXTURES

SNAPSHOT = str(FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml")
CAPTURES = FIXTURES / "cluster" / "snapshots" / "three-brokers"


@pytest.fixture(autouse=True)
def _outside_the_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(ksafe, list(args))
    return result.exit_code, result.stdout, result.stderr


def plan(tmp_path: Path, text: str) -> str:
    path = tmp_path / "plan.yml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_parallel_restart_fails_with_the_plan_line(tmp_path: Path) -> None:
    p = plan(tmp_path, "- rolling-restart: {}\n- restart: {nodes: [1, 2]}\n")
    code, out, _ = invoke("cluster", "check", "--snapshot", SNAPSHOT, "--plan", p)
    assert code == 1
    assert f"{p}:2: error KC011 restart-breaks-min-isr" in out
    assert "Verdict: unsafe" in out


def test_json_shape(tmp_path: Path) -> None:
    p = plan(tmp_path, "- restart: {nodes: [1, 2]}\n")
    code, out, _ = invoke(
        "cluster", "check", "--snapshot", SNAPSHOT, "--plan", p, "--format", "json"
    )
    assert code == 1
    doc = json.loads(out)
    jsonschema.validate(doc, Report.model_json_schema())
    assert doc["kind"] == "cluster"
    (finding,) = [f for f in doc["findings"] if f["rule"] == "KC011"]
    assert finding["name"] == "restart-breaks-min-isr"
    assert finding["severity"] == "error"
    assert (finding["step"], finding["line"]) == (0, 1)
    assert finding["fingerprint"]
    assert finding["message"]


def test_fail_on_and_a_safe_plan(tmp_path: Path) -> None:
    p = plan(tmp_path, "- rolling-restart: {}\n")
    assert invoke("cluster", "check", "--snapshot", SNAPSHOT, "--plan", p)[0] == 0
    p = plan(tmp_path, "- add-broker: {id: 4}\n")
    args = ("cluster", "check", "--snapshot", SNAPSHOT, "--plan", p)
    assert invoke(*args)[0] == 0
    assert invoke(*args, "--fail-on", "warning")[0] == 1


def test_output_file(tmp_path: Path) -> None:
    p = plan(tmp_path, "- restart: {nodes: [1, 2]}\n")
    target = tmp_path / "report.json"
    args = ("--snapshot", SNAPSHOT, "--plan", p, "--format", "json", "--output", str(target))
    code, out, _ = invoke("cluster", "check", *args)
    assert code == 1
    assert out == ""
    assert json.loads(target.read_text(encoding="utf-8"))["kind"] == "cluster"


def test_a_folder_of_captures(tmp_path: Path) -> None:
    if not CAPTURES.is_dir():
        pytest.skip("no capture folder fixture")
    p = plan(tmp_path, "- restart: {nodes: [1, 2]}\n")
    code, out, _ = invoke("cluster", "check", "--snapshot", str(CAPTURES), "--plan", p)
    assert code == 1
    assert "KC011 restart-breaks-min-isr" in out


def test_plan_errors_are_located_and_exit_2(tmp_path: Path) -> None:
    p = plan(tmp_path, "- rolling-restart: {}\n- restart: {nodes: [1], bogus: 1}\n")
    code, _, err = invoke("cluster", "check", "--snapshot", SNAPSHOT, "--plan", p)
    assert code == 2
    assert f"{p}:2: step 2 (restart): unknown key 'bogus'" in err
    assert "Traceback" not in err
    p = plan(tmp_path, "- restart: {nodes: [42]}\n")
    code, _, err = invoke("cluster", "check", "--snapshot", SNAPSHOT, "--plan", p)
    assert code == 2
    assert "node 42 is not in the cluster" in err


def test_schema_plan() -> None:
    code, out, _ = invoke("schema", "plan")
    assert code == 0
    assert "UpgradeBinaries" in json.loads(out)["$defs"]


@pytest.mark.parametrize(
    ("name", "code", "rules"),
    [
        ("upgrade-to-4.3", 0, {"KC003"}),
        ("add-fourth-broker", 0, {"KC029"}),
        ("risky-maintenance", 1, {"KC006", "KC008", "KC011", "KC013", "KC029"}),
    ],
)
def test_example_plans(name: str, code: int, rules: set[str]) -> None:
    plan_path = str(FIXTURES / "cluster" / "plans" / f"{name}.yml")
    got, out, _ = invoke(
        "cluster", "check", "--snapshot", SNAPSHOT, "--plan", plan_path, "--format", "json"
    )
    assert got == code
    assert {f["rule"] for f in json.loads(out)["findings"]} == rules


def test_captures_bump_after_two_of_three_brokers_fails_at_the_bump(tmp_path: Path) -> None:
    p = plan(
        tmp_path,
        "- upgrade-binaries: {nodes: [101, 102, 103, 1, 2], version: 4.3.0}\n"
        "- update-feature: {feature: metadata.version, level: 4.3-IV0}\n",
    )
    code, out, _ = invoke("cluster", "check", "--snapshot", str(CAPTURES), "--plan", p)
    assert code == 1
    assert f"{p}:2: error KC001 metadata-version-unsupported" in out
    assert "Broker 3 only supports versions 7-27" in out


def test_captures_full_upgrade_runbook_passes(tmp_path: Path) -> None:
    steps = [f"- upgrade-binaries: {{nodes: [{n}], version: 4.3.0}}\n" for n in (101, 102, 103)]
    steps += [
        f"- upgrade-binaries: {{nodes: [{n}], version: 4.3.0, wait-for-urp: true}}\n"
        for n in (1, 2, 3)
    ]
    p = plan(
        tmp_path, "".join(steps) + "- update-feature: {feature: metadata.version, level: 30}\n"
    )
    code, out, _ = invoke("cluster", "check", "--snapshot", str(CAPTURES), "--plan", p)
    assert code == 0, out
    assert " error " not in out
    assert "Verdict: safe" in out


def test_refused_steps_fail_the_check(tmp_path: Path) -> None:
    p = plan(
        tmp_path,
        "- add-partitions: {topic: orders, partitions: 3}\n"
        "- alter-config: {scope: topic, entity: orders, key: min.insync.replicas, value: abc}\n",
    )
    code, out, _ = invoke("cluster", "check", "--snapshot", str(CAPTURES), "--plan", p)
    assert code == 1
    assert f"{p}:1: error KC043 topic-change-refused" in out
    assert f"{p}:2: error KC046 config-value-invalid" in out


@pytest.mark.parametrize("command", ["check", "snapshot"])
def test_the_collector_is_paused_during_a_cluster_command_and_running_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    import gc

    from cluster_engine import ingest

    seen: list[bool] = []
    load = ingest.load_snapshot

    def spy(path: Path) -> object:
        seen.append(gc.isenabled())
        return load(path)

    monkeypatch.setattr(ingest, "load_snapshot", spy)
    monkeypatch.setattr("linter.api.cluster.load_snapshot", spy)
    monkeypatch.setattr("linter.api.snapshots.load_snapshot", spy)
    if command == "check":
        p = plan(tmp_path, "- rolling-restart: {}\n")
        code, _, _ = invoke("cluster", "check", "--snapshot", SNAPSHOT, "--plan", p, "-q")
        assert code in (0, 1)
    else:
        code, _, err = invoke("cluster", "snapshot", SNAPSHOT, "-o", str(tmp_path / "s.json"))
        assert code == 0, err
    assert (seen, gc.isenabled()) == ([False], True)
