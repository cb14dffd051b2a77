"""The HTML report without a browser: safety of untrusted names, self-containment, determinism,
structure, and golden files of its context (``pytest --update-goldens`` rewrites them)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
from typing import Any

from linter.report import render
from linter.report.html import build_context, render_html, script_json
from linter.report.result import Result
from linter.report.ruledocs import doc_blocks
from linter.report.timeline import TimelineStep, timeline_from_simulation
from linter.settings import Settings
from linter.topology.diff import diff
from tests.conftest import FIXTURES, ROOT
from tests.linter.report.html_samples import (
    HOSTILE,
    HOSTILE_STORE,
    HOSTILE_TOPIC,
    cluster_plan,
    hostile_report,
    word_count,
)
from tests.linter.report.sample import cluster_report, diff_report

GOLDENS = FIXTURES / "reports" / "html"

STEPS = (
    TimelineStep(-1, "snapshot", "cluster snapshot", features={"metadata.version": 27}),
    TimelineStep(0, "rolling-restart", "rolling-restart nodes=1, 2, 3", line=3,
                 under_replicated=6, features={"metadata.version": 27}),
    TimelineStep(1, "restart", "restart nodes=1, 2", line=8, under_min_isr=12, offline=0,
                 under_replicated=24, nodes_down=(1, 2), features={"metadata.version": 27},
                 throttles=("broker 1 leader.replication.throttled.rate=500000",),
                 notes=("orders: 12 partitions below min.insync.replicas=2",)),
    TimelineStep(2, "update-feature", "update-feature metadata.version=30", line=12,
                 features={"metadata.version": 30}),
)


def _diff_html() -> str:
    before, after = word_count(False), word_count(True)
    return render_html(Result(
        diff_report(),
        before=before,
        after=after,
        diff=diff(before, after),
        settings=Settings(application_id="wc"),
    ))


def _json_block(html: str) -> str:
    match = re.search(r'<script type="application/json" id="ksafe-data">(.*?)</script>', html,
                      re.S)
    assert match is not None
    return match.group(1)


def test_the_same_input_gives_the_same_bytes() -> None:
    assert _diff_html() == _diff_html()
    assert render_html(Result(
        cluster_report(),
        timeline=STEPS,
    )) == render_html(Result(cluster_report(), timeline=STEPS))


def test_the_bytes_do_not_depend_on_the_hash_seed() -> None:
    """Frozensets iterate in hash order, which changes with PYTHONHASHSEED: nothing may leak."""
    code = (
        "import hashlib, sys; sys.path.insert(0, '.');"
        "from tests.linter.report.test_html import _diff_html;"
        "print(hashlib.sha256(_diff_html().encode()).hexdigest())"
    )
    digests = {
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2", "3")
    }
    assert len(digests) == 1


def test_hostile_names_are_escaped_everywhere() -> None:
    html = render_html(Result(
        hostile_report(),
        before=word_count(False, hostile=True),
        after=word_count(True, hostile=True),
    ))
    for raw in (HOSTILE, HOSTILE_STORE, HOSTILE_TOPIC, "<svg onload"):
        assert raw not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in html
    # Exactly the two script elements of the template: the JSON block and the page's script.
    assert html.count("<script") == 2
    assert html.count("</script>") == 2
    block = _json_block(html)
    assert "<" not in block
    assert ">" not in block
    assert "&" not in block
    names = {item["name"] for side in json.loads(block).values() for item in side.values()}
    assert {HOSTILE, HOSTILE_STORE, HOSTILE_TOPIC} <= names


def test_script_json_escapes_what_could_end_the_element() -> None:
    text = script_json({"a": "</script><!-- & \u2028"})
    # a line separator in a name is shown, not obeyed
    assert str(text) == '{"a":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\\\u2028"}'
    assert json.loads(str(text)) == {"a": "</script><!-- & \\u2028"}


def test_nothing_is_loaded_from_anywhere() -> None:
    html = _diff_html()
    assert "<link" not in html
    assert "@import" not in html
    assert "<iframe" not in html
    assert not re.search(r"\bsrc\s*=", html)
    urls = set(re.findall(r"https?://[^\s\"')]+", html))
    assert urls <= {"http://www.w3.org/2000/svg"}  # the SVG namespace name, never fetched
    assert all(u.startswith("#") for u in re.findall(r"url\(([^)]*)\)", html))


def test_the_content_security_policy_allows_only_the_page_script() -> None:
    html = _diff_html()
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html)
    assert csp is not None
    assert "default-src 'none'" in csp.group(1)
    script = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(script) == 1
    digest = base64.b64encode(hashlib.sha256(script[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in csp.group(1)


def test_the_dispatcher_renders_html() -> None:
    html = render(diff_report(), "html")
    assert html.startswith("<!DOCTYPE html>")
    assert 'id="finding-a1b2c3d4e5f60718"' in html


def test_verdict_runbook_and_findings_by_impact() -> None:
    context = build_context(Result(diff_report(), before=word_count(False), after=word_count(True)))
    assert context["verdict"]["value"] == "unsafe"
    assert context["plan"]["strategy"] == "application-reset"
    assert [g["impact"] for g in context["groups"]] == ["state-loss", "hygiene"]
    lost = next(c for c in context["checklist"] if c["key"] == "lost")
    assert {"kind": "store", "name": "KSTREAM-AGGREGATE-STATE-STORE-0000000001"} in lost["items"]
    html = _diff_html()
    assert html.index('id="verdict"') < html.index('id="runbook"') < html.index('id="findings"')
    assert 'href="#rule-KS201"' in html
    assert 'id="rule-KS201"' in html


def test_the_matching_marks_renames_and_insertions() -> None:
    before, after = word_count(False), word_count(True)
    context = build_context(Result(
        diff_report(),
        before=before,
        after=after,
        diff=diff(before, after),
    ))
    b_side, a_side = context["diagrams"]
    status = {n["name"]: (n["status"], n["other"]) for n in a_side["nodes"]}
    assert status["KSTREAM-FILTER-0000000001"] == ("added", None)
    assert status["KSTREAM-AGGREGATE-STATE-STORE-0000000002"] == (
        "renamed", "KSTREAM-AGGREGATE-STATE-STORE-0000000001")
    old = {n["name"]: (n["status"], n["other"]) for n in b_side["nodes"]}
    assert old["KSTREAM-AGGREGATE-STATE-STORE-0000000001"] == (
        "renamed", "KSTREAM-AGGREGATE-STATE-STORE-0000000002")
    changes = {row["label"]: row["counts"] for row in context["changes"]}
    assert changes["nodes"][0] == 1  # the filter
    assert changes["stores"][2] == 1  # renamed


def test_without_a_diff_names_decide() -> None:
    context = build_context(Result(diff_report(), before=word_count(False), after=word_count(True)))
    before, after = context["diagrams"]
    status = {n["name"]: n["status"] for n in after["nodes"]}
    assert status["KSTREAM-FILTER-0000000001"] == "added"
    gone = {n["name"]: n["status"] for n in before["nodes"]}
    assert gone["KSTREAM-AGGREGATE-STATE-STORE-0000000001"] == "removed"
    store = next(n for n in before["nodes"] if n["kind"] == "store")
    assert store["rules"] == ["KS201"]
    changelog = "<application.id>-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog"
    assert store["internal"] == changelog


def test_a_cluster_timeline_pins_findings_to_steps() -> None:
    context = build_context(Result(cluster_report(), timeline=STEPS))
    rows = context["timeline"]
    assert [r["index"] for r in rows] == [-1, 0, 1, 2]
    assert rows[1]["findings"] == []
    assert rows[2]["findings"][0]["rule"] == "KC301"
    assert rows[2]["wait_for"].startswith("the restarted nodes")
    assert context["plan"] is None  # no Streams deployment strategy for a cluster-only change


def test_the_simulator_output_feeds_the_timeline() -> None:
    simulation, report = cluster_plan()
    context = build_context(Result(report, timeline=timeline_from_simulation(simulation)))
    rows = context["timeline"]
    assert len(rows) == len(simulation.plan.steps) + 1
    restart = rows[2]
    assert restart["action"] == "restart"
    assert restart["under_min_isr"] > 0
    assert any(f["rule"] for f in restart["findings"])


def test_doc_blocks() -> None:
    doc = "Summary line.\n\nWhy: ``a<b``\nmatters.\n\n    Before:\n      x\n\n- one\n- `two`\n"
    assert [(b["kind"], b["text"]) for b in doc_blocks(doc)] == [
        ("p", "Summary line."),
        ("p", "Why: ``a<b`` matters."),
        ("pre", "Before:\n  x"),
        ("li", "one"),
        ("li", "`two`"),
    ]
    assert doc_blocks(doc)[1]["parts"] == [
        {"kind": "text", "text": "Why: "},
        {"kind": "code", "text": "a<b"},
        {"kind": "text", "text": " matters."},
    ]
    assert doc_blocks(doc)[4]["parts"] == [{"kind": "code", "text": "two"}]


def _check_golden(name: str, text: str, update: bool) -> None:
    path = GOLDENS / name
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run pytest --update-goldens"
    assert text == path.read_text(encoding="utf-8"), f"{path} differs: run pytest --update-goldens"


def _dump(context: dict[str, Any]) -> str:
    return json.dumps(context, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def test_golden_diff_context(update_goldens: bool) -> None:
    before, after = word_count(False), word_count(True)
    context = build_context(Result(
        diff_report(),
        before=before,
        after=after,
        diff=diff(before, after),
        settings=Settings(application_id="wc"),
    ))
    _check_golden("diff-context.json", _dump(context), update_goldens)


def test_golden_cluster_context(update_goldens: bool) -> None:
    _check_golden("cluster-context.json", _dump(build_context(Result(
        cluster_report(),
        timeline=STEPS,
    ))),
                  update_goldens)


def test_golden_diff_html(update_goldens: bool) -> None:
    _check_golden("diff-report.html", _diff_html(), update_goldens)
