"""Hostile text everywhere it is shown: names a user (or an attacker) controls end up in every
output format. Text output must not let them repaint a terminal, Markdown must keep its table,
JSON and SARIF must stay valid and faithful, HTML must show them as text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from linter.report import render
from linter.report.model import Report, Summary
from rules.framework import DeployStrategy, Finding, Impact, Location, Resource, Severity
from rules.verdict import DeploymentPlan, Verdict

HOSTILE = (
    "<script>alert(1)</script>",
    "a & b &amp; c",
    "\"double\" 'single' `tick`",
    "clear \x1b[2J\x1b[H screen",
    "osc8 \x1b]8;;https://evil.example/\x1b\\click me\x1b]8;;\x1b\\",
    "title \x1b]0;owned\x07 bell",
    "pipe | in | cell",
    "new\nline: Verdict: safe",
    "carriage\rreturn",
    "tab\tand nul\x00 and del\x7f and c1\x9b2J",
    "bidi \u202egnp.exe\u202c and \u2066isolate\u2069",
    "regex (a|b)*\\n[x]{2,} ^$",
    "::error file=x::fake %0A %25",
    "${{ github.token }} ](javascript:alert(1)) [x](https://evil.example)",
    "emoji 🚀 and ünïcödé",
)


def _finding(i: int, text: str) -> Finding:
    return Finding(
        rule=f"KS{100 + i:03d}",
        name="store-renamed",
        severity=(Severity.ERROR, Severity.WARNING, Severity.INFO)[i % 3],
        impact=Impact.STATE_LOSS,
        message=f"store {text!s} renamed to {text}",
        resources=(Resource(kind="store", name=text), Resource(kind="topic", name=text + "-x")),
        locations=(
            Location(path=f"dir/{text}.txt", line=3, column=5, side="after"),
            Location(path=f"old/{text}.txt", line=4, side="before"),
        ),
        remediation=f'Use Materialized.as("{text}")',
        fingerprint=f"{i:016x}",
        steps=(f"drain {text}",),
        step=i,
        line=i + 1,
        acknowledged=text if i % 5 == 4 else None,
    )


def hostile_report(texts: tuple[str, ...] = HOSTILE) -> Report:
    """A report with ``texts`` in every field that shows names (at least eight texts)."""
    texts = (texts * 8)[: max(8, len(texts))]
    findings = tuple(_finding(i, t) for i, t in enumerate(texts))
    return Report(
        kind="diff",
        inputs={"before": f"before {texts[0]}.txt", "after": texts[3], "plan": texts[6]},
        findings=findings,
        verdict=Verdict.UNSAFE,
        plan=DeploymentPlan(
            strategy=DeployStrategy.RESET, why=f"because {texts[7]}", steps=tuple(texts)
        ),
        summary=Summary.of(findings),
    )


BENIGN = tuple(f"name{i}" for i in range(len(HOSTILE)))
_SGR = re.compile(r"\x1b\[[0-9;]*m")
_UNSAFE_CHARS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize("color", [False, True])
def test_text_output_cannot_repaint_the_terminal(color: bool) -> None:
    out = render(hostile_report(), "text", color=color)
    if color:
        out = _SGR.sub("", out)  # our own colours are the only escape sequences allowed
    assert not _UNSAFE_CHARS.findall(out), sorted(set(_UNSAFE_CHARS.findall(out)))
    # a name cannot add lines (a forged "Verdict: safe" line, say)
    benign = render(hostile_report(BENIGN), "text", color=color)
    assert out.count("\n") == benign.count("\n")


def test_text_output_still_shows_the_names() -> None:
    out = render(hostile_report(), "text")
    assert "<script>alert(1)</script>" in out
    assert "pipe | in | cell" in out
    assert "\\x1b[2J" in out or "\\u001b[2J" in out or "\\033[2J" in out


def test_json_output_is_valid_faithful_and_matches_the_schema() -> None:
    from linter.api import schema_of

    report = hostile_report()
    data = json.loads(render(report, "json"))
    jsonschema.validate(data, schema_of("report"))
    assert [f["resources"][0]["name"] for f in data["findings"]] == [
        f.resources[0].name for f in report.findings
    ]


def test_sarif_output_is_valid_sarif() -> None:
    schema_path = Path(__file__).resolve().parents[1] / "linter/report/sarif-schema-2.1.0.json"
    data = json.loads(render(hostile_report(), "sarif"))
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    messages = [r["message"]["text"] for r in data["runs"][0]["results"]]
    assert any("<script>alert(1)</script>" in m for m in messages)


def _cells(row: str) -> list[str]:
    """Split a GFM table row on unescaped pipes."""
    return re.split(r"(?<!\\)\|", row.strip())[1:-1]


def test_markdown_keeps_one_table_row_per_finding_with_five_cells() -> None:
    report = hostile_report()
    out = render(report, "markdown")
    rows = [line for line in out.splitlines() if line.startswith("|")]
    header = rows[0]
    assert len(_cells(header)) == 5
    live = [f for f in report.findings if f.acknowledged is None]
    acked = [f for f in report.findings if f.acknowledged is not None]
    # two tables (live, acknowledged), each with header + separator
    assert len(rows) == len(live) + len(acked) + 4
    for row in rows:
        assert len(_cells(row)) == 5, row
    # raw HTML only inside code spans, where Markdown shows it literally
    assert "<script>" not in re.sub(r"`[^`\n]*`", "", out)
    benign = render(hostile_report(BENIGN), "markdown")
    assert out.count("\n") == benign.count("\n")


def test_github_commands_are_one_line_each_and_cannot_forge_commands() -> None:
    report = hostile_report()
    out = render(report, "github")
    lines = out.splitlines()
    commands = [line for line in lines if line.startswith("::")]
    assert len(commands) == len(report.findings)
    benign = render(hostile_report(BENIGN), "github")
    assert len(lines) == len(benign.splitlines())


def test_html_shows_hostile_names_as_text() -> None:
    out = render(hostile_report(), "html")
    assert "<script>alert(1)</script>" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out or "\\u003cscript\\u003e" in out
    assert "javascript:alert(1)" not in re.findall(r'href="([^"]*)"', out)


EVIL_PROC = "proc \x1b[2J\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\ (v2)"
EVIL_SOURCE = 'src <b>&amp; "q" `t`'
EVIL_STORE = "<img src=x onerror=alert(1)>"
HOSTILE_TOPOLOGY = f"""Topologies:
   Sub-topology: 0
    Source: {EVIL_SOURCE} (topics: [in])
      --> {EVIL_PROC}
    Processor: {EVIL_PROC} (stores: [{EVIL_STORE}, KSTREAM-AGGREGATE-STATE-STORE-0000000001, st|ore \u202eevil])
      --> KSTREAM-SINK-0000000002
      <-- {EVIL_SOURCE}
    Sink: KSTREAM-SINK-0000000002 (extractor class: com.x.Router$$Lambda/0x1@2 <script>alert(1)</script>)
      <-- {EVIL_PROC}

  Sub-topology: 1
    Source: KSTREAM-SOURCE-0000000003 (topics: in-(a|b)*\\n[x]{{2,}})
      --> KSTREAM-AGGREGATE-0000000004
    Processor: KSTREAM-AGGREGATE-0000000004 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000005])
      --> none
      <-- KSTREAM-SOURCE-0000000003

"""  # noqa: E501


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "markdown", "html"])
def test_hostile_names_from_a_real_describe_text_through_lint_and_diff(
    fmt: str, tmp_path: Path
) -> None:
    """The same checks, end to end: parsed names with ESC sequences, OSC 8 links, HTML, quotes,
    backticks, pipes, bidi overrides and a regex, through the rules and the CLI."""
    from click.testing import CliRunner

    from linter.cli import ksafe

    before = tmp_path / "before.txt"
    before.write_text(HOSTILE_TOPOLOGY, encoding="utf-8")
    after = tmp_path / "after.txt"
    # the next version: every generated index shifted, the hostile store renamed
    after.write_text(
        HOSTILE_TOPOLOGY.replace("000000000", "100000000").replace(EVIL_STORE, EVIL_STORE + "2"),
        encoding="utf-8",
    )
    runner = CliRunner()
    for args in (
        ["lint", str(before), "--format", fmt],
        ["diff", str(before), str(after), "--format", fmt],
    ):
        result = runner.invoke(ksafe, args)
        assert result.exit_code in (0, 1), result.output
        out = result.stdout
        assert out.strip()
        if fmt == "text":
            assert not _UNSAFE_CHARS.findall(out), sorted(set(_UNSAFE_CHARS.findall(out)))
        elif fmt in ("json", "sarif"):
            json.loads(out)
        elif fmt == "markdown":
            for row in (line for line in out.splitlines() if line.startswith("|")):
                assert len(_cells(row)) == 5, row
        elif fmt == "html":
            assert EVIL_STORE not in out
            assert "<script>alert(1)</script>" not in out
