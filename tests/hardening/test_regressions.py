"""Regression tests for bugs the hardening suite found, one per bug, named after what it was."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from cluster_engine.errors import ClusterInputError
from cluster_engine.plan import load_plan, parse_plan

PLAN = "- restart:\n    nodes: [1]\n"


def test_regression_plan_invalid_utf8_raised_unicode_decode_error(tmp_path: Path) -> None:
    path = tmp_path / "plan.yaml"
    path.write_bytes(b"- restart:\n    nodes: [1]\n# caf\xe9\n")
    with pytest.raises(ClusterInputError, match=r"plan\.yaml:3: .*not UTF-8"):
        load_plan(path)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-8-sig"])
def test_regression_plan_with_bom_was_not_read(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "plan.yaml"
    data = PLAN.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    path.write_bytes(data)
    assert [s.action for s in load_plan(path).steps] == ["restart"]


def test_regression_plan_nul_byte_raised_yaml_reader_error() -> None:
    with pytest.raises(ClusterInputError, match=r"p\.yaml:2"):
        parse_plan(PLAN.replace("nodes", "no\x00des"), "p.yaml")


def test_regression_plan_deep_nesting_raised_recursion_error() -> None:
    with pytest.raises(ClusterInputError, match=r"p\.yaml"):
        parse_plan(PLAN + "- x: " + "[" * 5000, "p.yaml")


def test_regression_plan_python_tag_raised_constructor_error() -> None:
    with pytest.raises(ClusterInputError, match=r"p\.yaml:1:"):
        parse_plan("- restart: !!python/object:os.system {nodes: [1]}\n", "p.yaml")


def test_regression_reassignment_json_invalid_utf8_raised_unicode_decode_error(
    tmp_path: Path,
) -> None:
    (tmp_path / "move.json").write_bytes(b'{"version": 1, "partitions": [{"topic": "\xff"}]}')
    plan = tmp_path / "plan.yaml"
    plan.write_text("- reassign:\n    file: move.json\n", encoding="utf-8")
    with pytest.raises(ClusterInputError, match=r"move\.json"):
        load_plan(plan)


def test_regression_plan_deep_flow_nesting_took_seconds() -> None:
    # PyYAML slows down quadratically with flow nesting; plans are
    # rejected before YAML sees them when nested deeper than any real plan.
    with pytest.raises(ClusterInputError, match=r"p\.yaml:1: .*nested"):
        parse_plan("[" * 2_500, "p.yaml")


CAPTURE = (
    "Topic: t\tTopicId: QmLwMsncTBWiSn2HoB0Kqg\tPartitionCount: 1\tReplicationFactor: 1\t"
    "Configs: \n\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n"
)


def test_regression_capture_invalid_utf8_raised_unicode_decode_error(tmp_path: Path) -> None:
    from cluster_engine.ingest import load_snapshot

    path = tmp_path / "topics.txt"
    path.write_bytes(CAPTURE.encode() + b"# caf\xe9\n")
    with pytest.raises(ClusterInputError, match=r"topics\.txt:3: .*not UTF-8"):
        load_snapshot(path)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig"])
def test_regression_capture_utf16_with_bom_was_not_read(tmp_path: Path, encoding: str) -> None:
    from cluster_engine.ingest import read_file

    path = tmp_path / "topics.txt"
    path.write_bytes(CAPTURE.encode(encoding))
    assert [s.kind for s in read_file(path)] == ["topics"]


def test_regression_quorum_voters_deep_json_raised_recursion_error(tmp_path: Path) -> None:
    from cluster_engine.ingest import read_file

    path = tmp_path / "quorum.txt"
    path.write_text(
        "ClusterId:              q1Sh-9_ISia_zwGINzRvyQ\nLeaderId:               101\n"
        "CurrentVoters:          " + "[" * 100_000 + "]" * 100_000 + "\n",
        encoding="utf-8",
    )
    with pytest.raises(ClusterInputError, match=r"quorum\.txt:3: "):
        read_file(path)


def test_regression_log_dirs_negative_size_raised_validation_error(tmp_path: Path) -> None:
    from cluster_engine.ingest import read_file

    path = tmp_path / "log-dirs.txt"
    path.write_text(
        '{"version":1,"brokers":[{"broker":1,"logDirs":[{"logDir":"/data","error":null,'
        '"partitions":[{"partition":"t-0","size":-1,"offsetLag":0,"isFuture":false}]}]}]}\n',
        encoding="utf-8",
    )
    with pytest.raises(ClusterInputError, match=r"log-dirs\.txt:1: .*size"):
        read_file(path)


def test_regression_native_snapshot_invalid_utf8_raised_unicode_decode_error(
    tmp_path: Path,
) -> None:
    from cluster_engine.ingest import load_snapshot

    path = tmp_path / "snap.yaml"
    path.write_bytes(b"snapshot_version: 1\n# caf\xe9\n")
    with pytest.raises(ClusterInputError, match=r"snap\.yaml:2: .*not UTF-8"):
        load_snapshot(path)


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_regression_native_snapshot_deep_nesting_raised_recursion_error(
    tmp_path: Path, suffix: str
) -> None:
    from cluster_engine.ingest import load_snapshot

    path = tmp_path / f"snap{suffix}"
    path.write_text('{"nodes": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    with pytest.raises(ClusterInputError, match=r"nested"):
        load_snapshot(path)


def test_regression_streams_properties_invalid_utf8_raised_unicode_decode_error(
    tmp_path: Path,
) -> None:
    from linter.topology.errors import TopologyParseError
    from linter.topology.streams_config import parse_properties_file

    path = tmp_path / "app.properties"
    path.write_bytes(b"application.id=orders\n# caf\xe9\n")
    with pytest.raises(TopologyParseError, match=r"app\.properties:2:"):
        parse_properties_file(path)


def test_regression_streams_properties_utf16_with_bom_was_not_read(tmp_path: Path) -> None:
    from linter.topology.streams_config import parse_properties_file

    path = tmp_path / "app.properties"
    path.write_bytes("application.id=orders\n".encode("utf-16"))
    assert parse_properties_file(path).value("application.id") == "orders"


def test_regression_native_snapshot_deep_block_nesting_raised_recursion_error(
    tmp_path: Path,
) -> None:
    from cluster_engine.ingest import load_snapshot

    path = tmp_path / "snap.yaml"
    path.write_text("nodes:\n  " + "- " * 2_500 + "1\n", encoding="utf-8")
    with pytest.raises(ClusterInputError, match=r"snap\.yaml:2:\d+: nested"):
        load_snapshot(path)


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


def test_regression_negative_broker_id_in_isr_raised_validation_error(tmp_path: Path) -> None:
    from cluster_engine.ingest import load_snapshot

    path = tmp_path / "topics.txt"
    path.write_text(CAPTURE.replace("Isr: 1", "Isr: 1,-1"), encoding="utf-8")
    with pytest.raises(ClusterInputError, match=r"topics\.txt:2: Isr"):
        load_snapshot(path)


def test_regression_topology_utf16_without_bom_reported_a_nul_character(tmp_path: Path) -> None:
    from linter.topology.errors import TopologyParseError
    from linter.topology.parse import parse_file

    path = tmp_path / "t.txt"
    path.write_bytes("Topologies:\n   Sub-topology: 0\n".encode("utf-16-le"))
    with pytest.raises(TopologyParseError, match=r"t\.txt:1:1: .*UTF-16 without a byte-order mark"):
        parse_file(path)


def test_regression_topology_long_line_of_repeated_nodes_was_quadratic() -> None:
    # a regex retried at every `Source:` of one long line is quadratic in its length. The limit
    # is a hang guard far above the real cost (milliseconds), not a timing assertion.
    from linter.topology.errors import TopologyParseError
    from linter.topology.parse import parse
    from tests.hardening.fuzzing import time_limit

    unit = "    Source: KSTREAM-SOURCE-0000000000 (topics: [one"
    text = "Topologies:\n   Sub-topology: 0\n" + unit * 20_000
    with time_limit(30), pytest.raises(TopologyParseError, match=r"x\.txt:3:"):
        parse(text, "x.txt")


@pytest.mark.parametrize("name", ["ksafe.toml", "pyproject.toml"])
def test_regression_config_not_utf8_raised_unicode_decode_error(tmp_path: Path, name: str) -> None:
    # a discovered pyproject.toml in any parent folder made every command crash
    from linter.config import ConfigError, load_config

    (tmp_path / name).write_bytes(b'[tool.ksafe]\nfail-on = "warning"\n# caf\xe9\n')
    with pytest.raises(ConfigError, match=rf"{name}:3: .*UTF-8"):
        load_config(start=tmp_path)


def test_regression_config_utf16_is_a_located_error(tmp_path: Path) -> None:
    from linter.config import ConfigError, load_config

    (tmp_path / "ksafe.toml").write_bytes('fail-on = "warning"\n'.encode("utf-16"))
    with pytest.raises(ConfigError, match=r"ksafe\.toml:1: .*UTF-8"):
        load_config(start=tmp_path)


@pytest.mark.parametrize("name", ["ksafe.toml", "pyproject.toml"])
def test_regression_config_deep_nesting_raised_recursion_error(tmp_path: Path, name: str) -> None:
    from linter.config import ConfigError, find_config, load_config

    (tmp_path / name).write_text("[tool.ksafe]\nselect = " + "[" * 5_000 + "\n", encoding="utf-8")
    # a pyproject.toml that mentions ksafe is found even when it is not valid TOML, and reported
    assert find_config(tmp_path) == tmp_path / name
    with pytest.raises(ConfigError, match=rf"{name.replace('.', '[.]')}: .*nested"):
        load_config(start=tmp_path)


def test_regression_parse_text_on_a_terminal_printed_escape_sequences(tmp_path: Path) -> None:
    """``ksafe parse`` prints names verbatim into files (the text must parse again) but escaped
    on a terminal, where an ESC sequence in a Processor-API name would repaint the screen."""
    import os
    import pty
    import subprocess
    import sys

    from tests.hardening.test_hostile_text import HOSTILE_TOPOLOGY

    path = tmp_path / "t.txt"
    path.write_text(HOSTILE_TOPOLOGY, encoding="utf-8")
    program = "import sys; from linter.cli import main; sys.exit(main(['parse', sys.argv[1]]))"
    master, slave = pty.openpty()
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", program, str(path)], stdout=slave, cwd=root, check=False
    )
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    assert done.returncode == 0
    assert b"\x1b" not in shown
    assert b"\\x1b[2J" in shown
    piped = subprocess.run(
        [sys.executable, "-c", program, str(path)], capture_output=True, cwd=root, check=True
    )
    assert b"\x1b[2J" in piped.stdout  # a file keeps the name as it is


def test_regression_error_message_carried_escape_sequences_to_stderr(tmp_path: Path) -> None:
    """Messages quote the input (a file name, a conflicting value read from a capture)."""
    from click.testing import CliRunner

    from linter.cli import ksafe

    missing = str(tmp_path / "missing\x1b[2J\x1b]8;;https://e.example\x1b\\.txt")
    result = CliRunner().invoke(ksafe, ["lint", missing])
    assert result.exit_code == 2
    assert "\x1b" not in result.stderr
    assert "missing\\x1b[2J" in result.stderr


def test_regression_deployment_plan_deduplicated_steps_in_quadratic_time() -> None:
    # `step not in steps` on a list: 100,000 steps took minutes; the limit is a hang guard.
    from rules.framework import DeployStrategy, Finding, Impact, Severity
    from rules.verdict import plan_of
    from tests.hardening.fuzzing import time_limit

    findings = [
        Finding(
            rule="KS201",
            name="store-renamed",
            severity=Severity.ERROR,
            impact=Impact.STATE_LOSS,
            message="m",
            fingerprint=f"{i:016x}",
            requires=DeployStrategy.RESET,
            steps=(*(f"delete task directory {i}_{j}" for j in range(10)), "drain t"),
        )
        for i in range(10_000)
    ]
    with time_limit(20):
        plan = plan_of(findings)
    assert len(plan.steps) == 100_001
    assert plan.steps[:2] == ("delete task directory 0_0", "delete task directory 0_1")
    assert plan.steps[10] == "drain t"


def test_regression_diff_alignment_of_scattered_changes_was_cubic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``_align`` ran ``difflib.SequenceMatcher(autojunk=False)`` over the whole middle of the
    generated-name sequences: roles repeat, so it was cubic in the worst case (3,125 nodes with an
    operator removed in every 7th sub-topology: 4 s; 12,500: 4 min). It now cuts at anchors
    and only gives difflib small gaps. Held three ways: no large difflib call, a time limit far
    above the expected second, and the alignment's work (the summed sizes of the stretches it
    examines, deterministic) growing linearly when the input doubles."""
    import difflib

    from linter import api
    from linter.topology.parse import parse
    from tests.hardening.fuzzing import time_limit
    from tests.hardening.generators import topology_text
    from tests.linter.topology.align_work import count_stretch_work

    set_seqs = difflib.SequenceMatcher.set_seqs

    def bounded(self: difflib.SequenceMatcher[Any], a: Sequence[Any], b: Sequence[Any]) -> None:
        if len(a) * len(b) > 1_000_000:  # fail at once instead of running for seconds
            raise AssertionError(f"aligns {len(a)} x {len(b)} repeated roles at once")
        set_seqs(self, a, b)

    monkeypatch.setattr(difflib.SequenceMatcher, "set_seqs", bounded)
    work = count_stretch_work(monkeypatch)
    spent: list[int] = []
    for nodes in (3_125, 6_250):
        before = parse(topology_text(nodes), "before.txt")
        after = parse(topology_text(nodes, thin=7), "after.txt")
        work[0] = 0
        with time_limit(30):
            report = api.diff(before, after)
        assert report.findings
        spent.append(work[0])
    assert spent[0] > 0
    assert spent[1] <= 2.5 * spent[0], f"alignment work {spent} grows faster than the input"


@pytest.mark.parametrize(
    "node",
    [
        "Processor: p (stores: [, ])\n      --> none\n      <-- s",
        "Processor: p (stores: [a, , b])\n      --> none\n      <-- s",
        "Processor: p (stores: [a, ])\n      --> none\n      <-- s",
    ],
)
def test_regression_empty_store_name_broke_the_round_trip(node: str) -> None:
    # `[, ]` read as a store named "" (found by the fuzz campaign's round-trip check): no Java
    # Set prints an empty item, and "" renders as `[]`, which reads back as no store at all
    from linter.topology.errors import TopologyParseError
    from linter.topology.parse import parse

    text = (
        "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [t])\n      --> p\n"
        f"    {node}\n\n"
    )
    with pytest.raises(TopologyParseError, match=r"x\.txt:5:5: "):
        parse(text, "x.txt")
    with pytest.raises(TopologyParseError, match=r"x\.txt:5:5: "):  # the careful path too
        parse(text.replace("Source: s", "Source:\ts"), "x.txt")


def test_regression_empty_topic_name_broke_the_round_trip() -> None:
    from linter.topology.errors import TopologyParseError
    from linter.topology.parse import parse

    text = "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [a, ])\n      --> none\n\n"
    with pytest.raises(TopologyParseError, match=r"x\.txt:3:5: "):
        parse(text, "x.txt")


@pytest.mark.parametrize(
    "entry",
    [
        '"broker":-1,"logDirs":[{"logDir":"/data","error":null,"partitions":[]}]',
        '"broker":1,"logDirs":[{"logDir":"/data","error":null,"partitions":'
        '[{"partition":"t-0","size":1,"offsetLag":Infinity,"isFuture":false}]}]',
    ],
)
def test_regression_log_dirs_impossible_values_escaped_as_validation_or_overflow_error(
    tmp_path: Path, entry: str
) -> None:
    from cluster_engine.ingest import read_file

    path = tmp_path / "log-dirs.txt"
    path.write_text('{"version":1,"brokers":[{' + entry + "}]}\n", encoding="utf-8")
    with pytest.raises(ClusterInputError, match=r"log-dirs\.txt:1: "):
        read_file(path)


def test_regression_long_neighbour_list_with_a_comma_name_raised_recursion_error() -> None:
    # resolving `--> p0, ..., p2999, x, y` against the declared names recursed once per item
    from linter.topology.parse import parse
    from linter.topology.render import render

    procs = [f"p{i}" for i in range(3_000)]
    lines = [
        "Topologies:",
        "   Sub-topology: 0",
        "    Source: s (topics: [t])",
        "      --> " + ", ".join([*procs, "x, y"]),
    ]
    for p in [*procs, "x, y"]:
        lines += [f"    Processor: {p} (stores: [])", "      --> none", "      <-- s"]
    model = parse("\n".join(lines) + "\n\n", "x.txt")
    source = next(n for _, _, n in model.nodes() if n.name == "s")
    assert source.successors == frozenset([*procs, "x, y"])
    assert parse(render(model), "again.txt") == model


def test_regression_unexplained_change_rebuilt_the_node_map_per_rewired_pair() -> None:
    # `_rewired` built set(node_map.values()) once per changed pair: quadratic when changes grow
    # with the topology (25,000 nodes thinned: 8.7 s of a 10 s diff). Held by counting.
    from dataclasses import replace

    from linter.topology.diff import diff as match
    from linter.topology.parse import parse
    from rules.topology.context import DiffSubject
    from rules.topology.unexplained_change import unexplained_change
    from tests.hardening.generators import topology_text

    class CountingMap(dict[Any, Any]):
        calls = 0

        def values(self) -> Any:
            CountingMap.calls += 1
            return super().values()

    before = parse(topology_text(700), "before.txt")
    after = parse(topology_text(700, thin=7), "after.txt")
    diff = match(before, after)
    subject = DiffSubject(replace(diff, node_map=CountingMap(diff.node_map)))
    hits = list(unexplained_change(subject))
    assert len(hits) >= 10
    assert CountingMap.calls <= 2


def test_regression_topology_long_line_of_headers_was_quadratic() -> None:
    # a long line of `Topology: topology-1:` headers is refused in linear time
    import time

    from linter.topology.parse import TopologyParseError, parse

    text = "Topology: topology-1:" * 12_000 + " and more\n"  # not a header: no `:` at its end
    started = time.process_time()
    with pytest.raises(TopologyParseError, match=r"<text>:1:1: expected a describe\(\) text"):
        parse(text)
    assert time.process_time() - started < 2
