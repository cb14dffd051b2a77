"""GitHub workflow commands: one line per finding, escaped the way the runner unescapes."""

from __future__ import annotations

from linter.report import render
from linter.report.github import escape_data, escape_property
from tests.linter.report.sample import cluster_report, diff_report


def test_escaping_rules() -> None:
    assert escape_data("100%\r\nnext: a,b") == "100%25%0D%0Anext: a,b"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_one_command_per_finding_then_a_summary() -> None:
    lines = render(diff_report(), "github").splitlines()
    assert lines[0] == (
        "::error file=topology/word-count.txt,line=10,col=5,title=KS201 store-renamed::"
        "store KSTREAM-AGGREGATE-STATE-STORE-0000000001 is now "
        "KSTREAM-AGGREGATE-STATE-STORE-0000000002 (index shift | filter inserted)"
        '%0AFix: Name the store: Materialized.as("counts")'
    )
    assert lines[1].startswith(
        "::warning file=topology/word-count.txt,line=7,title=KS102 generated-repartition-topic::"
    )
    assert "has a generated name%0Ait shifts" in lines[1]
    # acknowledged findings are notices that say why; ':' and ',' stay literal in the message
    assert lines[2].startswith(
        "::notice file=topology/word-count.txt,line=4,"
        "title=KS103 generated-processor-name (acknowledged)::"
    )
    assert "100%25 harmless, a:b,c%0AAcknowledged: stateless; named" in lines[2]
    assert lines[3] == (
        "ksafe diff: verdict unsafe, 1 error(s), 1 warning(s), 0 info, 1 acknowledged"
    )
    assert len(lines) == 4


def test_control_characters_from_the_input_cannot_colour_the_log() -> None:
    report = diff_report()
    hostile = report.findings[0].model_copy(
        update={"message": "store \x1b[31mred\x1b[0m\nnext line", "remediation": ""}
    )
    line = render(report.model_copy(update={"findings": (hostile,)}), "github").splitlines()[0]
    assert "\x1b" not in line
    assert line.endswith("::store \\x1b[31mred\\x1b[0m%0Anext line")


def test_cluster_finding_points_at_the_plan() -> None:
    first = render(cluster_report(), "github").splitlines()[0]
    assert first.startswith(
        "::error file=plans/roll.yaml,line=8,title=KC301 restart-breaks-min-isr::"
    )
