"""Properties of lint and diff over generated models and their next versions.

* a model diffed with itself, however printed, has no findings;
* the matching is total and one-to-one (nodes and stores);
* the diff of two versions does not depend on print order (nodes, ``-->``/``<--`` lists, sets);
* every resource a finding names exists in the inputs;
* fingerprints do not depend on line numbers (blank lines, a log prefix) nor on the process
  (hash seed), so an acknowledgement keeps matching.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from linter import api
from linter.report.model import Report
from linter.topology import naming
from linter.topology.diff import diff
from linter.topology.model import Description, Processor, Sink, Source, Subtopology, Topology
from linter.topology.parse import parse
from linter.topology.render import render
from tests.hardening.fuzzing import ROOT
from tests.hardening.strategies import (
    describe_text,
    descriptions,
    shift_indices,
    shuffled_by,
    versions,
)

Pair = tuple[Description, Description]


def _key(report: Report) -> list[tuple[str, str, str, str, tuple[tuple[str, str], ...]]]:
    """Everything about the findings except where in the text they are."""
    return sorted(
        (
            f.rule,
            f.fingerprint,
            f.severity.value,
            f.message,
            tuple((r.kind, r.name) for r in f.resources),
        )
        for f in report.findings
    )


@given(descriptions(), st.randoms(use_true_random=False))
def test_a_model_diffed_with_any_reprint_of_itself_has_no_findings(
    model: Description, rng: random.Random
) -> None:
    before = parse(render(model), "before.txt")
    after = parse(describe_text(model, shuffled_by(rng)), "after.txt")
    report = api.diff(before, after)
    assert report.findings == ()


@given(versions(), st.randoms(use_true_random=False))
def test_diff_does_not_depend_on_print_order(pair: Pair, rng: random.Random) -> None:
    before, after = pair
    canonical = api.diff(parse(render(before), "b.txt"), parse(render(after), "a.txt"))
    shuffled = api.diff(
        parse(describe_text(before, shuffled_by(rng)), "b.txt"),
        parse(describe_text(after, shuffled_by(rng)), "a.txt"),
    )
    assert _key(shuffled) == _key(canonical)


def _known(models: tuple[Description, ...], app: str) -> dict[str, set[str]]:
    known: dict[str, set[str]] = {
        "node": set(), "store": set(), "topic": set(), "subtopology": set(),
        "changelog-topic": set(), "repartition-topic": set(),
    }  # fmt: skip
    for model in models:
        for topology, sub, node in model.nodes():
            name = topology.name
            known["node"].add(node.name)
            known["subtopology"].add(f"{name}:{sub.id}" if name else str(sub.id))
            known["store"].update(node.stores)
            for store in node.stores:
                known["changelog-topic"].add(naming.changelog_topic(app, store, name))
            topics: set[str] = set()
            if isinstance(node, Source):
                topics |= set(node.topics) | ({node.pattern} if node.pattern else set())
            if isinstance(node, Sink) and node.topic is not None:
                topics.add(node.topic)
            known["topic"] |= topics
            # repartition topics are named after the topic (or the store/node it derives from)
            for base in (*topics, node.name, *node.stores):
                known["repartition-topic"].add(naming.internal_topic(app, base, name))
                known["repartition-topic"].add(
                    naming.internal_topic(app, base.removesuffix("-repartition"), name)
                )
    return known


def _assert_resources_exist(report: Report, models: tuple[Description, ...], app: str) -> None:
    known = _known(models, app)
    for f in report.findings:
        for r in f.resources:
            assert r.kind in known, f"{f.rule}: unexpected resource kind {r.kind}"
            assert r.name in known[r.kind], f"{f.rule} {f.name}: {r.kind} {r.name!r} not in input"


@given(versions())
def test_every_diff_finding_names_resources_of_the_inputs(pair: Pair) -> None:
    before, after = pair
    report = api.diff(before, after, api.Settings(application_id="app"))
    _assert_resources_exist(report, pair, "app")


@given(descriptions())
def test_every_lint_finding_names_resources_of_the_input(model: Description) -> None:
    _assert_resources_exist(api.lint(model, api.Settings(application_id="app")), (model,), "app")


def _moved(text: str, rng: random.Random) -> str:
    """The same description further down a file: log lines before it, blank lines inside."""
    prefix = "".join(
        f"2026-11-22 12:00:{i:02d} INFO  [main] o.a.k.s.KafkaStreams - starting\n"
        for i in range(rng.randint(1, 5))
    )
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith(("Source:", "Processor:", "Sink:", "Sub-topology:")):
            out.extend([""] * rng.randint(0, 2))
        out.append(line)
    return prefix + "\n".join(out)


@given(versions(), st.randoms(use_true_random=False))
def test_fingerprints_do_not_depend_on_line_numbers(pair: Pair, rng: random.Random) -> None:
    before, after = (render(m) for m in pair)
    plain = api.diff(parse(before, "b.txt"), parse(after, "a.txt"))
    moved = api.diff(parse(_moved(before, rng), "b.txt"), parse(_moved(after, rng), "a.txt"))
    assert _key(moved) == _key(plain)
    lint_plain = api.lint(parse(after, "a.txt"))
    lint_moved = api.lint(parse(_moved(after, rng), "a.txt"))
    assert _key(lint_moved) == _key(lint_plain)


_FINGERPRINTS = """
import json, sys
from linter import api
from linter.topology.parse import parse_file
out = []
for b, a in zip(sys.argv[1::2], sys.argv[2::2]):
    before, after = parse_file(b), parse_file(a)
    reports = [api.diff(before, after), api.lint(after)]
    out.append(sorted(f.rule + ":" + f.fingerprint for r in reports for f in r.findings))
print(json.dumps(out))
"""


def test_fingerprints_are_the_same_in_every_process(tmp_path: Path) -> None:
    """Sets iterate in hash order, which changes with PYTHONHASHSEED between runs."""
    examples = ROOT / "fixtures" / "examples"
    before, after = _generated_pair()
    (tmp_path / "gb.txt").write_text(render(before), encoding="utf-8")
    (tmp_path / "ga.txt").write_text(render(after), encoding="utf-8")
    files = [
        examples / "orders-v1.txt", examples / "orders-v2.txt",
        examples / "word-count-v1.txt", examples / "word-count-v2.txt",
        tmp_path / "gb.txt", tmp_path / "ga.txt",
    ]  # fmt: skip
    outputs = set()
    for seed in ("0", "12345"):
        done = subprocess.run(
            [sys.executable, "-c", _FINGERPRINTS, *map(str, files)],
            capture_output=True, text=True, cwd=ROOT, check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )  # fmt: skip
        outputs.add(done.stdout)
    assert len(outputs) == 1, outputs
    assert all(json.loads(outputs.pop())), "every pair should have findings to compare"


def _generated_pair() -> Pair:
    """Generated names, a two-store processor and a two-topic source; the next version has
    every generated index shifted by one (an operator inserted early)."""
    src = "KSTREAM-SOURCE-0000000000"
    agg = "KSTREAM-AGGREGATE-0000000002"
    sink = "KTABLE-TOSTREAM-0000000004"
    store = "KSTREAM-AGGREGATE-STATE-STORE-0000000001"
    sub = Subtopology(0, frozenset({
        Source(src, frozenset({"in", "in-2"}), None, frozenset({agg})),
        Processor(agg, frozenset({store, "other store (v1)"}), frozenset({sink}), frozenset({src})),
        Sink(sink, "out", None, frozenset({agg})),
    }))  # fmt: skip
    before = Description((Topology((sub,)),))
    return before, Description((shift_indices(before.topologies[0], 1),))


@settings(max_examples=60, deadline=None)
@given(descriptions(), descriptions())
def test_matching_is_one_to_one_and_total(before: Description, after: Description) -> None:
    result = diff(before, after)
    nb = sum(1 for _ in before.nodes())
    na = sum(1 for _ in after.nodes())
    pairs = result.nodes.pairs
    assert len({p.before.key for p in pairs}) == len(pairs)
    assert len({p.after.key for p in pairs}) == len(pairs)
    assert len(pairs) + len(result.nodes.removed) == nb
    assert len(pairs) + len(result.nodes.added) == na
    stores = result.stores
    assert len({p.after.key for p in stores.pairs}) == len(stores.pairs)
