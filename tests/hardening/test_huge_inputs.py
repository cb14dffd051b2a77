"""Big inputs stay bounded: memory per node/partition/byte within a generous limit, the deepest
graph (one path through every node) never hits the recursion limit, and a big file that is not
a topology is refused with a located error. Figures and growth rates: ``benchmarks/huge.py``;
nothing here is timed."""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from tests.hardening.generators import log_text, topics_describe_text, topology_text

T = TypeVar("T")


def _peak(operation: Callable[[], T]) -> tuple[T, int]:
    tracemalloc.start()
    try:
        result = operation()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("shape", ["many", "chain"])
def test_big_topology_parses_lints_and_diffs_in_bounded_memory(shape: str) -> None:
    from linter import api
    from linter.topology.parse import parse
    from linter.topology.render import render

    nodes = 2_000
    text = topology_text(nodes, shape)
    model, parse_peak = _peak(lambda: parse(text, "big.txt"))
    assert parse_peak < 20_000 * nodes  # a node takes about 2 KB: ten times that is a leak
    after = parse(topology_text(nodes, shape, offset=1), "next.txt")
    report, diff_peak = _peak(lambda: api.diff(model, after))
    assert diff_peak < 30_000 * nodes  # a node pair takes about 3 KB: ten times that is a leak
    assert report.findings  # every generated store name shifted: findings expected
    lint, _ = _peak(lambda: api.lint(after))
    assert lint.findings
    assert parse(render(after), "again.txt") == after


def test_chain_deeper_than_the_recursion_limit_is_fine() -> None:
    from linter import api
    from linter.topology.parse import parse
    from linter.topology.render import render

    depth = sys.getrecursionlimit() + 500
    model = parse(topology_text(depth, "chain"), "deep.txt")
    assert parse(render(model), "again.txt") == model
    api.diff(model, parse(topology_text(depth, "chain", offset=1), "next.txt"))
    api.lint(model)


def test_big_topics_describe_assembles_in_bounded_memory(tmp_path: Path) -> None:
    from cluster_engine.ingest import load_snapshot

    partitions = 10_000
    path = tmp_path / "topics.txt"
    path.write_text(topics_describe_text(partitions), encoding="utf-8")
    snapshot, peak = _peak(lambda: load_snapshot(path))
    assert peak < 10_000 * partitions  # a partition takes about 2 KB: five times that is a leak
    assert sum(len(t.partitions) for t in snapshot.topics) == partitions


def test_big_file_that_is_not_a_topology_is_refused_located(tmp_path: Path) -> None:
    from cluster_engine.errors import ClusterInputError
    from cluster_engine.ingest import load_snapshot
    from linter.topology.errors import TopologyParseError
    from linter.topology.parse import parse_file

    data = log_text(8)
    path = tmp_path / "app.log"
    path.write_bytes(data)

    def refuse_topology() -> None:
        with pytest.raises(TopologyParseError, match=r"app\.log:1:1: "):
            parse_file(path)

    _, peak = _peak(refuse_topology)
    assert peak < 4 * len(data)  # the bytes and their text, not a copy per line
    with pytest.raises(ClusterInputError, match=r"app\.log:1"):
        load_snapshot(path)
