"""``ksafe lint``, ``ksafe diff``, ``ksafe rules``, ``ksafe explain`` end to end (most checks are
on the library API; here: arguments, formats, exit codes, user errors)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from linter.cli import ksafe
from linter.report.model import Report
from tests.conftest import FIXTURES

V1 = str(FIXTURES / "examples" / "word-count-v1.txt")
V2 = str(FIXTURES / "examples" / "word-count-v2.txt")
ORDERS1 = str(FIXTURES / "examples" / "orders-v1.txt")
ORDERS2 = str(FIXTURES / "examples" / "orders-v2.txt")


@pytest.fixture(autouse=True)
def _outside_the_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run where no ksafe.toml/pyproject.toml configuration is discovered."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(ksafe, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_readme_example_is_unsafe_with_a_plan() -> None:
    code, out, _ = invoke("diff", V1, V2)
    assert code == 1
    assert "error KS201 store-renamed" in out
    tail = out.strip().splitlines()
    assert any(line == "Verdict: unsafe" for line in tail)
    assert "Deployment plan: application-reset" in out
    assert out.index("Verdict:") > out.index("KS201")


def test_json_report_follows_the_published_schema() -> None:
    code, out, _ = invoke("diff", ORDERS1, ORDERS2, "--format", "json",
                          "--application-id", "daily-order-aggregator")
    assert code == 1
    doc = json.loads(out)
    jsonschema.validate(doc, Report.model_json_schema())
    assert doc["verdict"] == "unsafe"
    assert doc["plan"]["strategy"] == "blue-green"
    names = {f["name"] for f in doc["findings"]}
    assert {"store-moved-subtopology", "key-change-before-stateful"} <= names
    assert "store-renamed" not in names
    for f in doc["findings"]:
        assert {"rule", "name", "severity", "message", "fingerprint"} <= f.keys()
    assert doc["summary"]["errors"] == 1


def test_fingerprints_are_stable_across_layouts(tmp_path: Path) -> None:
    moved = tmp_path / "v2-moved.txt"
    moved.write_text("\n\n" + Path(V2).read_text(encoding="utf-8"), encoding="utf-8")
    _, a, _ = invoke("diff", V1, V2, "--format", "json")
    _, b, _ = invoke("diff", V1, str(moved), "--format", "json")
    prints = [sorted(f["fingerprint"] for f in json.loads(x)["findings"]) for x in (a, b)]
    assert prints[0] == prints[1]


def _prefixed(tmp_path: Path, source: str, prefix: str, name: str) -> str:
    lines = Path(source).read_text(encoding="utf-8").split("\n")
    path = tmp_path / name
    path.write_text("".join(f"{prefix}{line}\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "prefix", ["2026-11-23T10:15:00.123456789Z ", "orders-app-1  | ", "// ", " * "]
)
def test_diff_against_a_prefixed_paste_judges_the_real_topology(
    tmp_path: Path, prefix: str
) -> None:
    pasted = _prefixed(tmp_path, ORDERS2, prefix, "v2-pasted.txt")
    code, out, _ = invoke("diff", ORDERS1, ORDERS2, "--format", "json")
    pasted_code, pasted_out, _ = invoke("diff", ORDERS1, pasted, "--format", "json")
    plain, prefixed = json.loads(out), json.loads(pasted_out)
    assert (pasted_code, prefixed["verdict"]) == (code, plain["verdict"]) == (1, "unsafe")
    assert sorted(f["fingerprint"] for f in prefixed["findings"]) == sorted(
        f["fingerprint"] for f in plain["findings"]
    )
    same = _prefixed(tmp_path, ORDERS1, prefix, "v1-pasted.txt")
    code, out, _ = invoke("diff", ORDERS1, same, "--format", "json")
    assert (code, json.loads(out)["verdict"], json.loads(out)["findings"]) == (0, "safe", [])


def test_diff_against_a_half_prefixed_paste_is_a_located_error(tmp_path: Path) -> None:
    lines = Path(ORDERS2).read_text(encoding="utf-8").split("\n")
    half = tmp_path / "half.txt"
    half.write_text(
        "".join(("// " if i < 5 else "") + line + "\n" for i, line in enumerate(lines)),
        encoding="utf-8",
    )
    code, _, err = invoke("diff", ORDERS1, str(half))
    assert code == 2
    assert "Traceback" not in err
    (message,) = err.strip().splitlines()
    assert message.startswith(f"ksafe: {half}:6:7: ")
    assert "expected no describe() line after the end of the description" in message


@pytest.mark.parametrize(("fail_on", "code"), [("never", 0), ("error", 1), ("info", 1)])
def test_fail_on(fail_on: str, code: int) -> None:
    assert invoke("diff", V1, V2, "--fail-on", fail_on)[0] == code


def test_lint_exit_codes_follow_fail_on() -> None:
    code, out, _ = invoke("lint", V1)
    assert code == 0
    assert "KS101 generated-store-name" in out
    assert invoke("lint", V1, "--fail-on", "warning")[0] == 1
    assert invoke("lint", ORDERS1, ORDERS2, "--fail-on", "info")[0] == 0


def test_output_file(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    code, out, _ = invoke("lint", V1, "--format", "json", "--output", str(target))
    assert code == 0
    assert out == ""
    assert json.loads(target.read_text(encoding="utf-8"))["kind"] == "lint"


def test_config_only_diff(tmp_path: Path) -> None:
    (tmp_path / "a.properties").write_text("application.id=orders\n", encoding="utf-8")
    (tmp_path / "b.properties").write_text("application.id=orders-v2\n", encoding="utf-8")
    code, out, _ = invoke(
        "diff", "--config-before", "a.properties", "--config-after", "b.properties"
    )
    assert code == 1
    assert "KS301 application-id-changed" in out
    assert "b.properties:1" in out


def test_config_with_topologies_names_real_topics(tmp_path: Path) -> None:
    (tmp_path / "a.properties").write_text("application.id=wc\n", encoding="utf-8")
    code, out, _ = invoke(
        "diff", V1, V2, "--config-before", "a.properties", "--config-after", "a.properties"
    )
    assert code == 1
    assert "wc-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog" in out


def test_user_errors_exit_2_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("Topologies:\n   Sub-topology: x\n", encoding="utf-8")
    code, _, err = invoke("diff", V1, str(bad))
    assert code == 2
    assert str(bad) in err
    assert "Traceback" not in err
    props = tmp_path / "bad.properties"
    props.write_text("application.id=a\ntopology.optimization=all,none\n", encoding="utf-8")
    code, _, err = invoke("diff", "--config-before", str(props), "--config-after", str(props))
    assert code == 2
    assert f"{props}:2:1:" in err
    assert invoke("diff", V1)[0] == 2
    assert invoke("diff")[0] == 2
    assert invoke("lint", str(tmp_path / "missing.txt"))[0] == 2


def test_rules_catalogue_lists_both_halves() -> None:
    code, out, _ = invoke("rules")
    assert code == 0
    assert out.splitlines()[0].split() == ["ID", "NAME", "SEVERITY", "IMPACT", "SUMMARY"]
    assert any(line.startswith("KS201  store-renamed") for line in out.splitlines())
    from rules.catalogue import ALL_RULES

    for r in ALL_RULES:
        assert r.id in out
    rows = json.loads(invoke("rules", "--format", "json")[1])
    assert {"id", "name", "severity", "impact", "summary"} == rows[0].keys()


@pytest.mark.parametrize("ref", ["KS201", "ks201", "store-renamed"])
def test_explain(ref: str) -> None:
    code, out, _ = invoke("explain", ref)
    assert code == 0
    assert out.startswith("KS201 store-renamed (error, state-loss)")
    assert "Why:" in out
    assert "Fix:" in out


def test_explain_unknown_rule() -> None:
    code, _, err = invoke("explain", "KS999")
    assert code == 2
    assert "no rule" in err
