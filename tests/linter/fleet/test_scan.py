"""One app's scan without Spark: ordering, pairs, quarantine."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from linter.acknowledgements import Acknowledgement
from linter.api import Settings, Severity
from linter.fleet.inputs import assemble, detect_format, split_path, version_of
from linter.fleet.rows import FindingRow
from linter.fleet.scan import QUARANTINED, SCANNED, Version, natural_key, order_versions, scan_app

SMALL = Path(__file__).resolve().parents[3] / "fixtures" / "fleet" / "small"


def _versions(app: str) -> list[Version]:
    files = [(p.name, p.read_text(encoding="utf-8")) for p in sorted((SMALL / app).iterdir())]
    return assemble(app, files)


def test_versions_order_naturally_or_by_timestamp() -> None:
    names = ["v10", "v2", "v1", "v2.1"]
    assert sorted(names, key=natural_key) == ["v1", "v2", "v2.1", "v10"]
    rows = [Version("a", "v10", "", timestamp="2024-01-01T00:00:00Z"),
            Version("a", "v2", "", timestamp="2024-02-01T00:00:00Z")]  # fmt: skip
    assert [v.version for v in order_versions(rows)] == ["v10", "v2"]
    rows.append(Version("a", "v3", ""))  # one row without timestamp: natural order for all
    assert [v.version for v in order_versions(rows)] == ["v2", "v3", "v10"]


def test_deployed_to_latest() -> None:
    result = scan_app("orders-enricher", _versions("orders-enricher"), Settings())
    assert result.app.status == SCANNED
    assert result.app.deployed_version == "v1"
    assert result.app.latest_version == "v2"
    assert result.app.application_id == "orders-enricher"
    diffs = {(r.version_before, r.version_after) for r in result.findings if r.check == "diff"}
    assert diffs <= {("v1", "v2")}
    assert result.facts is not None
    assert result.facts.upgrade == "v1 -> v2"


def test_consecutive_pairs_without_a_deployed_version() -> None:
    text = (SMALL / "billing" / "v1.txt").read_text(encoding="utf-8")
    rows = [Version("b", v, text) for v in ("v10", "v1", "v2")]
    result = scan_app("b", rows, Settings())
    assert result.app.latest_version == "v10"
    assert result.app.verdict == "safe"
    assert result.facts is not None
    assert result.facts.upgrade == "v2 -> v10"


def test_a_corrupt_description_quarantines_the_app_with_its_message() -> None:
    result = scan_app("broken-app", _versions("broken-app"), Settings())
    assert result.app.status == QUARANTINED
    assert result.facts is None
    (row,) = result.findings
    assert row.check == "parse"
    assert row.version_after == "v1"
    assert row.message.startswith("broken-app/v1:3:")
    assert result.app.error == row.message


def test_missing_description_and_missing_app_id_are_quarantined_not_dropped() -> None:
    only_props = assemble("p", [("v1.properties", "application.id=p\n")])
    assert scan_app("p", only_props, Settings()).app.status == QUARANTINED
    row = version_of((None, "v1", "Topologies:\n", None, None, None))
    assert scan_app(row.app_id, [row], Settings()).app.status == QUARANTINED


def test_a_version_given_twice_is_quarantined_naming_it() -> None:
    text = (SMALL / "billing" / "v1.txt").read_text(encoding="utf-8")
    rows = [Version("b", "v1", text, source="fleet-a.jsonl"),
            Version("b", "v1", text, source="fleet-b.jsonl"), Version("b", "v2", text)]  # fmt: skip
    result = scan_app("b", rows, Settings())
    assert result.app.status == QUARANTINED
    assert result.app.versions == 3
    assert result.app.error == (
        "b: cannot be scanned: version v1 is given 2 times (fleet-a.jsonl, fleet-b.jsonl)"
    )


def test_rows_without_app_id_are_named_by_their_file() -> None:
    rows = [version_of((None, f"v{i}", "Topologies:\n", None, None, None), source=f"f{i}.jsonl")
            for i in range(7)]  # fmt: skip
    result = scan_app(rows[0].app_id, rows, Settings())
    assert result.app.status == QUARANTINED
    assert result.app.versions == 7
    assert result.app.error == (
        "<no app_id>: cannot be scanned: f0.jsonl: a row without app_id (version v0); "
        "f1.jsonl: a row without app_id (version v1); f2.jsonl: a row without app_id (version v2); "
        "f3.jsonl: a row without app_id (version v3); f4.jsonl: a row without app_id (version v4)"
        "; and 2 more"
    )


def test_a_directory_without_versions_or_with_a_wrong_deployed_is_reported() -> None:
    (empty,) = assemble("notes", [("README.md", "hi"), ("v1.describe", "Topologies:\n")])
    result = scan_app("notes", [empty], Settings())
    assert result.app.status == QUARANTINED
    assert result.app.versions == 1
    assert result.app.error == (
        "notes: cannot be scanned: notes/: no <version>.txt or <version>.properties "
        "(found: README.md, v1.describe)"
    )
    text = (SMALL / "billing" / "v1.txt").read_text(encoding="utf-8")
    rows = assemble("b", [("v1.txt", text), ("v2.txt", text), ("DEPLOYED", "v3\n")])
    assert [v.source for v in rows] == ["b/v1.txt", "b/v2.txt"]
    result = scan_app("b", rows, Settings())
    assert result.app.error == (
        "b: cannot be scanned: b/DEPLOYED: names version 'v3', which has no v3.txt here"
    )
    fine = assemble("b", [("v1.txt", text), ("v2.txt", text), ("DEPLOYED", "v1\n")])
    assert scan_app("b", fine, Settings()).app.deployed_version == "v1"


def test_one_app_name_in_two_directories_is_reported_not_merged() -> None:
    text = (SMALL / "billing" / "v1.txt").read_text(encoding="utf-8")
    rows = assemble("orders", [("v1.txt", text, "/f/team-b/orders/v1.txt"),
                               ("v1.txt", text, "/f/team-a/orders/v1.txt")])  # fmt: skip
    assert len(rows) == 2
    assert scan_app("orders", rows, Settings()).app.error == (
        "orders: cannot be scanned: version v1 is given 2 times "
        "(/f/team-a/orders/v1.txt, /f/team-b/orders/v1.txt)"
    )


def test_bad_properties_quarantine_too() -> None:
    text = (SMALL / "billing" / "v1.txt").read_text(encoding="utf-8")
    rows = [Version("b", "v1", text, properties="application.id=b\nbad\\u12")]
    result = scan_app("b", rows, Settings())
    assert result.app.status in (QUARANTINED, SCANNED)  # whatever the parser accepts, no crash


def test_input_shapes(tmp_path: Path) -> None:
    assert split_path("file:/data/fleet/orders/v1.txt") == ("orders", "v1.txt")
    assert split_path("v1.txt") is None
    assert detect_format("s3a://bucket/fleet.jsonl") == "jsonl"
    assert detect_format(str(SMALL)) == "dir"
    (tmp_path / "part-0.parquet").write_bytes(b"")
    assert detect_format(str(tmp_path)) == "parquet"
    assert detect_format(str(tmp_path), "jsonl") == "jsonl"
    spark_json = tmp_path / "written-by-spark"  # no suffix on the directory
    spark_json.mkdir()
    for name in ("_SUCCESS", "._SUCCESS.crc", "part-00000-c000.json", ".part-00000-c000.json.crc"):
        (spark_json / name).write_bytes(b"")
    assert detect_format(str(spark_json)) == "jsonl"


def test_a_local_input_that_cannot_be_a_fleet_is_named_before_spark_starts(
    tmp_path: Path,
) -> None:
    from linter.fleet.inputs import input_problem

    (tmp_path / "fleet.csv").write_text("app_id,version\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    (tmp_path / "flat").mkdir()
    (tmp_path / "flat" / "v1.txt").write_text("Topologies:\n", encoding="utf-8")
    assert input_problem(str(tmp_path / "fleet.csv")) == (
        f"{tmp_path}/fleet.csv: not a fleet table: a directory of <app_id>/<version>.txt, JSON "
        "Lines (.jsonl, .ndjson, .json, .jsonl.gz, .json.gz) or Parquet (.parquet); or say "
        "which with --input-format"
    )
    assert input_problem(str(tmp_path / "fleet.csv"), "jsonl") is None
    for name in ("empty", "flat"):
        assert input_problem(str(tmp_path / name)) == (
            f"{tmp_path}/{name}: no <app_id>/<version>.txt in this directory"
        )
    assert input_problem(str(SMALL)) is None
    assert input_problem("s3a://bucket/fleet/") is None
    assert input_problem(str(tmp_path / "missing")) is None  # the CLI says so itself


def test_files_beside_the_app_directories_are_named_not_passed_over(tmp_path: Path) -> None:
    from linter.fleet.inputs import unread_files

    (tmp_path / "orders").mkdir()
    (tmp_path / "orders" / "v1.txt").write_text("Topologies:\n", encoding="utf-8")
    for name in ("billing.txt", "README.md", ".hidden", "_SUCCESS_MARKER"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert unread_files(str(tmp_path)) == ["README.md", "billing.txt"]
    assert unread_files(str(SMALL)) == []
    assert unread_files(str(tmp_path), "jsonl") == []
    assert unread_files("s3a://bucket/fleet/") == []


def test_the_cli_names_a_bad_input_and_a_spark_error_in_one_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from linter.cli import ksafe
    from linter.cli.fleet import _first_line

    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(ksafe, ["fleet", "scan", str(tmp_path / "empty"), "--out", "x"])
    assert result.exit_code == 2
    message = f"ksafe: {tmp_path}/empty: no <app_id>/<version>.txt in this directory\n"
    assert result.output == message
    jvm = RuntimeError(
        "An error occurred while calling o69.count.\n: org.apache.hadoop.mapred."
        "InvalidInputException: Input Pattern s3a://b/f/*/* matches 0 files\n\tat org.apache"
    )
    assert _first_line(jvm) == (
        "org.apache.hadoop.mapred.InvalidInputException: "
        "Input Pattern s3a://b/f/*/* matches 0 files"
    )
    assert _first_line(ValueError("bad\nmore")) == "bad"
    assert _first_line(ValueError()) == "ValueError"


def test_an_unexpected_error_quarantines_instead_of_crashing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import linter.fleet.scan as scan

    def broken(text: str, path: str = "<text>") -> object:
        raise AttributeError("'list' object has no attribute 'x'")

    monkeypatch.setattr(scan, "parse", broken)
    result = scan_app("a", [Version("a", "v1", "Topologies:\n")], Settings())
    assert result.app.status == QUARANTINED
    assert result.app.error == (
        "a/v1: internal error: AttributeError: 'list' object has no attribute 'x'"
    )


def test_local_paths() -> None:
    from linter.fleet.inputs import local_path

    assert local_path("fleet/") == "fleet/"
    assert local_path("file:/data/fleet") == "/data/fleet"
    assert local_path("file:///data/my%20fleet") == "/data/my fleet"
    assert local_path("s3a://bucket/fleet") is None
    assert local_path("hdfs://nn:8020/fleet") is None


def test_the_rows_of_an_app_come_in_the_findings_table_order() -> None:
    text = {v: (SMALL / "orders-enricher" / f"{v}.txt").read_text(encoding="utf-8")
            for v in ("v1", "v2")}  # fmt: skip
    rows = [Version("b", "v1", text["v2"]), Version("b", "v2", text["v1"]),
            Version("b", "v3", text["v2"])]  # fmt: skip
    found = scan_app("b", rows, Settings()).findings
    assert {r.check for r in found} == {"lint", "diff"}
    assert len({(r.version_before, r.version_after) for r in found}) == 3
    assert list(found) == sorted(found, key=FindingRow.sort_key)


@pytest.mark.parametrize("enabled", [True, False])
def test_a_scan_leaves_the_cyclic_collector_as_it_found_it(enabled: bool) -> None:
    import gc

    from linter.fleet.local import cycles_uncollected, scan_fleet

    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        scan_fleet({})
        assert gc.isenabled() == enabled
        def fails() -> None:
            with cycles_uncollected():
                assert not gc.isenabled()
                raise ZeroDivisionError

        with pytest.raises(ZeroDivisionError):
            fails()
        assert gc.isenabled() == enabled
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize(
    "settings",
    [
        Settings(),
        Settings(severities={"KS103": Severity.WARNING, "store-renamed": Severity.INFO}),
        Settings(ignore=frozenset({"KS101"}), application_id="orders"),
        Settings(
            acknowledgements=(
                Acknowledgement(reason="known", rule="KS103"),
                Acknowledgement(reason="never used", rule="KS999"),
            )
        ),
    ],
    ids=["defaults", "severities", "ignore", "acknowledgements"],
)
def test_an_apps_rows_are_its_reports_findings(settings: Settings) -> None:
    """The scan makes its rows without the reports (lint's straight from the rules' hits), and
    they are the rows of the reports' findings: same fields, order, verdict and strategy."""
    from linter import api
    from linter.fleet.rows import finding_row
    from linter.topology.parse import parse
    from linter.topology.streams_config import parse_properties

    here = SMALL / "orders-enricher"
    text = {v: (here / f"{v}.txt").read_text(encoding="utf-8") for v in ("v1", "v2")}
    props = {v: (here / f"{v}.properties").read_text(encoding="utf-8") for v in ("v1", "v2")}
    rows = [Version("b", v, text[v], props[v], deployed=v == "v1") for v in ("v1", "v2")]
    found = scan_app("b", rows, settings)
    model = {v: parse(text[v], f"b/{v}") for v in ("v1", "v2")}
    config = {v: parse_properties(props[v], f"b/{v}.properties") for v in ("v1", "v2")}
    own = replace(settings, application_id=config["v2"].application_id or settings.application_id)
    lint = api.lint(model["v2"], own)
    diff = api.diff(
        model["v1"], model["v2"], own, streams_before=config["v1"], streams_after=config["v2"]
    )
    expected = [finding_row(f, "b", "diff", "v1", "v2") for f in diff.findings] + [
        finding_row(f, "b", "lint", None, "v2") for f in lint.findings
    ]
    assert found.app.status == SCANNED
    assert list(found.findings) == expected
    assert diff.verdict is not None
    assert diff.plan is not None
    assert (found.app.verdict, found.app.strategy) == (diff.verdict, diff.plan.strategy)
    assert len({r.check for r in found.findings}) == 2
