"""Hostile names through every renderer: one test per class of injection, parametrised over the
formats it applies to, with the name in a node (the message), a store, a topic and a file name."""

from __future__ import annotations

import json
import re

import pytest

from linter.report import render
from linter.report.model import Report, Summary
from linter.report.safe import markdown, sarif_text, visible, workflow_property
from rules.framework import Finding, Impact, Location, Resource, Severity

CONTROLS = {
    "esc": "\x1b[2J\x1b[31mfake",
    "osc52": "\x1b]52;c;cm0gLXJmIH4=\x07",
    "osc8": "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
    "c1-csi": "\x9b31m",
    "nul-del": "a\x00b\x7fc",
}
INVISIBLE = {
    "rlo": "evil\u202egnp.exe",
    "lri": "a\u2066b\u2069",
    "zwsp": "orders\u200b-store",
    "zwj": "a\u200db",
    "bom": "\ufeffname",
    "line-separator": "a\u2028b",
}
MARKUP = {
    "image": "![p](https://tracker.example/pixel.png)",
    "link": "[x](https://evil.example)",
    "mention": "@everyone",
    "bare-url": "https://evil.example/x",
    "www": "www.evil.example",
    "autolink": "<https://evil.example>",
}
PLACES = ("node", "store", "topic", "file")
FORMATS = ("text", "json", "sarif", "github", "markdown", "html")


def _report(name: str, place: str) -> Report:
    node = name if place == "node" else "KSTREAM-FILTER-0000000001"
    store = name if place == "store" else "counts"
    topic = name if place == "topic" else "orders"
    path = name if place == "file" else "topology.txt"
    finding = Finding(
        rule="KS201",
        name="store-renamed",
        severity=Severity.ERROR,
        impact=Impact.STATE_LOSS,
        message=f"processor {node} reads store {store} from {topic}",
        resources=(Resource(kind="store", name=store), Resource(kind="topic", name=topic)),
        locations=(Location(path=path, line=3, side="after"),),
        remediation=f"name the store {store}",
        fingerprint="0123456789abcdef",
    )
    return Report(kind="lint", inputs={"after": path}, findings=(finding,),
                  summary=Summary(errors=1))


def _cases(names: dict[str, str]) -> list[object]:
    return [
        pytest.param(fmt, name, place, id=f"{fmt}-{key}-{place}")
        for fmt in FORMATS for key, name in names.items() for place in PLACES
    ]


def _unsafe_chars(name: str) -> set[str]:
    return {c for c in name if visible(c) != c}


@pytest.mark.parametrize(("fmt", "name", "place"), _cases(CONTROLS | INVISIBLE))
def test_no_control_bidi_or_invisible_character_reaches_the_output(
    fmt: str, name: str, place: str
) -> None:
    out = render(_report(name, place), fmt)
    unsafe = _unsafe_chars(name)
    assert unsafe
    for char in unsafe:
        assert char not in out, f"{char!r} escaped into {fmt}"


@pytest.mark.parametrize("fmt", ["json", "sarif"])
@pytest.mark.parametrize("name", [*CONTROLS.values(), *INVISIBLE.values()])
def test_json_formats_keep_the_name_as_data(fmt: str, name: str) -> None:
    data = json.loads(render(_report(name, "store"), fmt))
    found = json.dumps(data, ensure_ascii=False)
    assert json.dumps(name, ensure_ascii=False)[1:-1] in found


_UNESCAPED_BRACKET = re.compile(r"(?<!\\)\[")


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("name", MARKUP.values(), ids=MARKUP.keys())
def test_markdown_carries_no_link_image_or_mention(name: str, place: str) -> None:
    # nothing inside a code span is read as Markdown
    out = re.sub(r"`[^`\n]*`", "``", render(_report(name, place), "markdown"))
    assert "](" not in out.replace("\\](", "")
    assert not _UNESCAPED_BRACKET.search(out.replace("\\\\", ""))
    assert "@everyone" not in out
    assert "https://" not in out
    assert "www.evil" not in out
    assert "<https" not in out


def test_markdown_escapes_render_as_the_literal_name() -> None:
    assert markdown("![p](https://t.example/p.png)") == (
        "\\!\\[p\\](https:&#8203;//t.example/p.png)"
    )
    assert markdown("@everyone") == "@&#8203;everyone"
    assert markdown("a|b\nc <d> *e* _f_ `g`") == (
        "a\\|b<br>c &lt;d&gt; \\*e\\* \\_f\\_ \\`g\\`"
    )
    assert markdown("x\u202ey") == "x\\\\u202ey"


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("name", MARKUP.values(), ids=MARKUP.keys())
def test_sarif_message_has_no_embedded_link(name: str, place: str) -> None:
    sarif = json.loads(render(_report(name, place), "sarif"))
    for result in sarif["runs"][0]["results"]:
        text = result["message"]["text"]
        assert not _UNESCAPED_BRACKET.search(text.replace("\\\\", "")), text


def test_sarif_text_escapes_brackets_and_backslashes() -> None:
    assert sarif_text("[x](y) a\\b") == "\\[x\\](y) a\\\\b"


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("name", MARKUP.values(), ids=MARKUP.keys())
def test_html_makes_no_link_from_a_name(name: str, place: str) -> None:
    out = render(_report(name, place), "html")
    assert "evil.example\"" not in out
    assert not re.search(r"<a [^>]*href=\"https?:", out)
    assert "<https" not in out


# HTML is left out: a line break there is whitespace, it starts nothing
@pytest.mark.parametrize("fmt", [f for f in FORMATS if f != "html"])
@pytest.mark.parametrize("place", PLACES)
def test_a_newline_in_a_name_forges_no_line(fmt: str, place: str) -> None:
    forged = "x\n::error file=a.txt::forged\r\n| fake | row |\n### heading"
    out = render(_report(forged, place), fmt)
    lines = out.splitlines()
    assert not any(line.startswith("::error file=a.txt") for line in lines)
    assert not any(line.startswith("| fake") for line in lines)
    assert not any(line.startswith("### heading") for line in lines)


def test_github_encodes_a_newline_in_a_file_name() -> None:
    out = render(_report("dir/a\nb,c:d%.txt", "file"), "github")
    assert "file=dir/a%0Ab%2Cc%3Ad%25.txt," in out
    assert workflow_property("a\r\nb") == "a%0D%0Ab"


def test_regression_text_output_passed_terminal_escape_sequences_through() -> None:
    from linter.report import render
    from tests.hardening.test_hostile_text import hostile_report

    out = render(hostile_report(("clear \x1b[2J", "osc8 \x1b]8;;https://e.example\x1b\\x")), "text")
    assert "\x1b" not in out
    assert "clear \\x1b[2J" in out


def test_regression_markdown_path_with_pipe_broke_the_table() -> None:
    from linter.report import render
    from tests.hardening.test_hostile_text import hostile_report

    out = render(hostile_report(("a | b", "c\nd")), "markdown")
    rows = [line for line in out.splitlines() if line.startswith("| error")]
    assert rows
    assert all(len(re.split(r"(?<!\\)\|", row.strip())) == 7 for row in rows), rows
