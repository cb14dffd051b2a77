"""What users of ruff, sqlfluff and buf take for granted: ``-`` for standard input and ``-o -``
for standard output, ``lint DIR``, ``--select``/``--ignore``/``--fail-on``, ``--color``,
``--also-write``, ``-q``/``-v`` and a word on stderr when a command writes a file."""

from __future__ import annotations

import json
from pathlib import Path

import click
import jsonschema
import pytest
from click.testing import CliRunner

from cluster_engine.ingest import load_snapshot
from linter.api import schema_of
from linter.cli import ksafe
from linter.cli.common import should_color, with_rule_options
from linter.cli.group import COMMANDS, load_command
from linter.config import Config
from linter.inputs import LIMIT_ENV, UnreadableInput, read_bytes
from linter.topology.parse import TopologyParseError, parse_file
from tests.conftest import FIXTURES

EXAMPLES = FIXTURES / "examples"
V1, V2 = EXAMPLES / "word-count-v1.txt", EXAMPLES / "word-count-v2.txt"
SNAPSHOT = FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml"
CAPTURES = FIXTURES / "cluster" / "snapshots" / "three-brokers"


@pytest.fixture(autouse=True)
def _outside_the_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)


def invoke(*args: str | Path, stdin: bytes | str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(ksafe, [str(a) for a in args], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def rules_of(out: str) -> set[str]:
    return {f["rule"] for f in json.loads(out)["findings"]}


# --- standard input and output ---------------------------------------------------------------


def test_lint_reads_standard_input_as_a_file_is_read() -> None:
    from_file = invoke("lint", V1, "--format", "json")
    from_stdin = invoke("lint", "-", "--format", "json", stdin=V1.read_bytes())
    assert from_stdin[0] == from_file[0] == 0
    assert rules_of(from_stdin[1]) == rules_of(from_file[1]) != set()
    assert json.loads(from_stdin[1])["inputs"] == {"topology": "<stdin>"}


def test_diff_against_standard_input() -> None:
    code, out, _ = invoke("diff", V1, "-", stdin=V2.read_text(encoding="utf-8"))
    assert code == 1
    assert "error KS201 store-renamed" in out


def test_standard_input_errors_are_located_at_stdin() -> None:
    code, _, err = invoke("lint", "-", stdin=b"Topologies:\n   Sub-topology: 0\n\xff\n")
    assert code == 2
    assert err.startswith("ksafe: <stdin>:3:1:"), err
    assert "0xff" in err


def test_standard_input_obeys_the_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LIMIT_ENV, "100")
    code, _, err = invoke("lint", "-", stdin=V1.read_bytes())
    assert code == 2
    assert err.startswith("ksafe: <stdin>: more is over the input limit of 100 bytes"), err


def test_standard_input_stands_for_one_input_only() -> None:
    code, _, err = invoke("diff", "-", "-", stdin="x")
    assert code == 2
    assert "standard input (-) can stand for one input only" in err


def test_read_bytes_and_parse_file_read_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    class Stdin(io.TextIOWrapper):
        pass

    monkeypatch.setattr(sys, "stdin", Stdin(io.BytesIO(V1.read_bytes())))
    model = parse_file("-")
    assert model.path == "<stdin>"
    assert model == parse_file(V1)  # the path is not compared
    monkeypatch.setattr(sys, "stdin", Stdin(io.BytesIO(b"abc")))
    assert read_bytes("-") == b"abc"
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(UnreadableInput, match="<stdin>: no standard input"):
        read_bytes("-")
    monkeypatch.setattr(sys, "stdin", Stdin(io.BytesIO(b"\xfe\xfe")))
    with pytest.raises(TopologyParseError, match=r"^<stdin>:1:1"):
        parse_file("-")


def test_dash_output_is_standard_output(tmp_path: Path) -> None:
    code, out, _ = invoke("lint", V1, "-o", "-", "--format", "json")
    assert code == 0
    assert json.loads(out)["kind"] == "lint"
    assert not (tmp_path / "-").exists()
    code, out, _ = invoke("parse", V1, "-o", "-")
    assert (code, out.startswith("Topologies:")) == (0, True)
    assert not (tmp_path / "-").exists()


def test_cluster_check_reads_the_plan_and_snapshot_from_standard_input() -> None:
    plan = "- restart: {nodes: [1, 2]}\n"
    code, out, _ = invoke("cluster", "check", "--snapshot", CAPTURES, "--plan", "-", stdin=plan)
    assert code == 1
    assert "<stdin>:1: error KC011 restart-breaks-min-isr" in out
    native = SNAPSHOT.read_text(encoding="utf-8")
    code, out, _ = invoke("cluster", "snapshot", "-", stdin=native)
    assert code == 0
    assert json.loads(out) == load_snapshot(SNAPSHOT).model_dump(mode="json")
    capture = (CAPTURES / "topics.txt").read_text(encoding="utf-8")
    code, out, _ = invoke("cluster", "snapshot", "-", stdin=capture)
    assert code == 0
    assert json.loads(out)["topics"]


# --- lint DIR ----------------------------------------------------------------------------------


def test_lint_a_directory_lints_every_txt_below_it(tmp_path: Path) -> None:
    (tmp_path / "topology" / "old").mkdir(parents=True)
    (tmp_path / "topology" / "a.txt").write_bytes(V1.read_bytes())
    (tmp_path / "topology" / "old" / "b.txt").write_bytes(V2.read_bytes())
    (tmp_path / "topology" / "notes.md").write_text("not a topology\n")
    code, out, _ = invoke("lint", "topology", "--format", "json")
    assert code == 0
    assert sorted(json.loads(out)["inputs"].values()) == [
        "topology/a.txt", "topology/old/b.txt"]


def test_lint_of_a_directory_without_describe_texts_checks_nothing_and_says_so(
    tmp_path: Path,
) -> None:
    (tmp_path / "empty").mkdir()
    code, out, err = invoke("lint", "empty")
    assert (code, out) == (2, "")
    assert err.strip() == "ksafe: empty: no *.txt describe() file inside; nothing checked"


# --- rule selection ---------------------------------------------------------------------------


def test_select_and_ignore_choose_the_rules() -> None:
    everything = rules_of(invoke("lint", V1, "--format", "json")[1])
    assert {"KS101", "KS103"} <= everything
    assert rules_of(invoke("lint", V1, "--format", "json", "--select", "KS101")[1]) == {"KS101"}
    ignored = invoke("lint", V1, "--format", "json", "--ignore", "generated-processor-name")
    assert rules_of(ignored[1]) == everything - {"KS103"}
    both = invoke("lint", V1, "--format", "json", "--select", "ks101,KS103")
    assert rules_of(both[1]) == {"KS101", "KS103"}


def test_command_line_selection_wins_over_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "ksafe.toml").write_text('ignore = ["KS101"]\nfail-on = "warning"\n')
    assert "KS101" not in rules_of(invoke("lint", V1, "--format", "json")[1])
    code, out, _ = invoke("lint", V1, "--format", "json", "--select", "KS101")
    assert (code, rules_of(out)) == (1, {"KS101"})  # the config's fail-on: warning
    assert invoke("lint", V1, "--select", "KS101", "--fail-on", "error")[0] == 0


def test_an_unknown_rule_on_the_command_line_is_a_usage_error() -> None:
    code, _, err = invoke("lint", V1, "--select", "KS999")
    assert code == 2
    assert "no rule 'KS999'" in err


@pytest.mark.parametrize(
    "args",
    [
        ["lint", V1],
        ["diff", V1, V2],
        ["report", "--topology-before", V1, "--topology-after", V2, "--format", "json"],
        ["cluster", "check", "--snapshot", SNAPSHOT, "--plan",
         FIXTURES / "cluster" / "plans" / "add-fourth-broker.yml"],
    ],
    ids=lambda a: str(a[0]) if a[0] != "cluster" else "cluster-check",
)
def test_every_checking_command_takes_select_ignore_and_fail_on(args: list[str]) -> None:
    code, out, err = invoke(*args, "--select", "KS901", "--fail-on", "info", "--format", "json")
    assert code in (0, 1), err
    assert rules_of(out) <= {"KS901"}
    assert invoke(*args, "--ignore", "nonsense")[0] == 2


def test_with_rule_options_merges_into_the_settings() -> None:
    config = Config()
    base = config.settings.__class__(select=frozenset({"KS201"}), ignore=frozenset({"KS203"}))
    with click.Context(ksafe) as ctx:
        assert with_rule_options(base) == base
        ctx.meta["ksafe.ignore"] = frozenset({"KS101"})
        assert with_rule_options(base).ignore == {"KS203", "KS101"}
        ctx.meta["ksafe.select"] = frozenset({"KS203"})
        merged = with_rule_options(base)
        assert (merged.select, merged.ignore) == ({"KS203"}, {"KS101"})


# --- colour ----------------------------------------------------------------------------------


class _Tty:
    def isatty(self) -> bool:
        return True


class _Pipe:
    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize(
    ("env", "choice", "tty", "expected"),
    [
        ({}, None, True, True),
        ({}, None, False, False),
        ({"NO_COLOR": "1"}, None, True, False),
        ({"TERM": "dumb"}, None, True, False),
        ({"FORCE_COLOR": "1"}, None, False, True),
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, None, True, False),
        ({"NO_COLOR": "1"}, "always", False, True),
        ({"FORCE_COLOR": "1"}, "never", True, False),
    ],
)
def test_colour_choice(
    env: dict[str, str], choice: str | None, tty: bool, expected: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    stream = _Tty() if tty else _Pipe()
    assert should_color(stream, choice) is expected  # type: ignore[arg-type]


def test_color_flag_reaches_the_text_report() -> None:
    assert "\x1b[" in invoke("lint", V1, "--color", "always")[1]
    assert "\x1b[" not in invoke("lint", V1, "--color", "never")[1]
    assert "\x1b[" not in invoke("lint", V1)[1]  # not a terminal


# --- --also-write ----------------------------------------------------------------------------


def test_one_run_writes_every_format(tmp_path: Path) -> None:
    (tmp_path / "with space").mkdir()
    code, out, err = invoke(
        "diff", V1, V2, "--format", "github",
        "--also-write", "sarif=with space/k.sarif", "--also-write", "markdown=summary.md",
    )
    assert code == 1
    assert out.startswith("::error ")
    assert json.loads((tmp_path / "with space" / "k.sarif").read_text())["version"] == "2.1.0"
    assert (tmp_path / "summary.md").read_text().startswith("### ❌ ksafe diff: unsafe")
    assert "sarif report written to with space/k.sarif" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--also-write", "pdf=x.pdf"], "expected FORMAT=FILE"),
        (["--also-write", "sarif"], "expected FORMAT=FILE"),
        (["--also-write", "sarif=-"], "only one output can be standard output"),
    ],
)
def test_also_write_refusals(extra: list[str], message: str) -> None:
    code, _, err = invoke("lint", V1, *extra)
    assert code == 2
    assert message in err


# --- -q / -v and saying what was done ---------------------------------------------------------


def _commands() -> list[tuple[str, click.Command]]:
    found = []
    for name in COMMANDS:
        command = load_command(name)
        found.append((name, command))
        if isinstance(command, click.Group):
            found += [(f"{name} {s}", c) for s, c in command.commands.items()]
    return found


@pytest.mark.parametrize(("name", "command"), _commands(), ids=lambda x: str(x))
def test_every_command_takes_quiet_and_verbose(name: str, command: click.Command) -> None:
    opts = {o for p in command.params for o in getattr(p, "opts", [])}
    assert {"-q", "-v"} <= opts, name


def test_written_files_are_named_on_stderr_unless_quiet(tmp_path: Path) -> None:
    code, out, err = invoke("cluster", "snapshot", CAPTURES, "-o", "snap.json")
    assert (code, out) == (0, "")
    snapshot = load_snapshot(CAPTURES)
    counts = f"{len(snapshot.nodes)} node(s), {len(snapshot.topics)} topic(s)"
    assert err.strip() == f"ksafe: snapshot ({counts}) written to snap.json"
    assert (tmp_path / "snap.json").exists()
    code, out, err = invoke("cluster", "snapshot", CAPTURES, "-o", "snap.json", "-q")
    assert (code, out, err) == (0, "", "")
    code, _, err = invoke("lint", V1, "-o", "report.txt")
    assert err.strip() == "ksafe: text report written to report.txt"


def test_verbose_names_the_configuration(tmp_path: Path) -> None:
    assert "configuration: none found" in invoke("lint", V1, "-v")[2]
    (tmp_path / "ksafe.toml").write_text("")
    assert "configuration: ksafe.toml" in invoke("lint", V1, "-v")[2]
    assert "configuration" not in invoke("lint", V1)[2]


def test_baseline_with_nothing_to_write_says_so(tmp_path: Path) -> None:
    clean = EXAMPLES / "orders-v1.txt"
    code, out, err = invoke("baseline", clean, "--write")
    assert (code, out) == (0, "")
    assert "nothing to baseline" in err
    assert not (tmp_path / "ksafe.toml").exists()
    assert invoke("baseline", clean, "-q") == (0, "", "")


# --- JSON documents --------------------------------------------------------------------------


def test_json_report_carries_its_schema_and_version() -> None:
    code, out, _ = invoke("diff", V1, V2, "--format", "json")
    assert code == 1
    doc = json.loads(out)
    assert (doc["$schema"], doc["format_version"]) == ("urn:ksafe:schema:report:1", 1)
    schema = schema_of("report")
    assert schema["$id"] == doc["$schema"]
    jsonschema.validate(doc, schema)
    del doc["format_version"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema)


def test_config_schema_accepts_the_reference_configuration_and_refuses_typos() -> None:
    import tomllib

    from tests.linter.test_config import FULL

    code, out, _ = invoke("schema", "config")
    assert code == 0
    schema = json.loads(out)
    jsonschema.Draft202012Validator.check_schema(schema)
    data = json.loads(json.dumps(tomllib.loads(FULL), default=str))
    jsonschema.validate(data, schema)
    for bad in ({"fail-on": "sometimes"}, {"selects": []}, {"select": ["KS999"]},
                {"paths": [{"application-id": "x"}]}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


def test_config_schema_knows_every_key_the_reader_knows() -> None:
    from linter.config import reader

    schema = schema_of("config")
    assert set(schema["properties"]) == reader._TOP_KEYS
    paths = schema["properties"]["paths"]["items"]["properties"]
    assert set(paths) == reader._PATH_KEYS
    acks = schema["properties"]["acknowledgements"]["items"]["properties"]
    assert set(acks) == reader._ACK_KEYS


def test_baseline_and_fleet_scan_take_the_rule_selection() -> None:
    code, out, _ = invoke("baseline", V1, "--select", "KS101")
    assert code == 0
    assert out.count("[[acknowledgements]]") == 1
    assert 'rule = "generated-store-name"' in out
    code, _, err = invoke("fleet", "scan", V1, "--out", "out", "--select", "KS999")
    assert code == 2  # refused while parsing the options, before any Spark session
    assert "no rule 'KS999'" in err
