"""Time to diff two 5,000-node versions of a topology.

Generates an unnamed DSL application of ``--nodes`` nodes (pipelines of source -> filter ->
selectKey -> repartition -> count -> toStream -> mapValues -> sink, all names generated from
one index counter, as a ``StreamsBuilder`` would) and a second version with one ``filter``
inserted before the first pipeline: every later generated index shifts by one, the worst case
for matching; and a third with the first ``filter`` of every seventh pipeline removed: changes
scattered all over, which the alignment of generated names has to bridge one by one. Prints the
time of the matching alone (and of a chain of stateful processors, every index shifted: each
one's key origin is looked up upstream) (``linter.topology.diff.diff``) and of the
whole check (``linter.api.diff``: matching + rules + verdict), best of ``--repeat`` runs.

    python benchmarks/diff.py [--nodes 5000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from linter import api
from linter.topology.diff import diff
from linter.topology.model import (
    Description,
    Node,
    Processor,
    Sink,
    Source,
    Subtopology,
    Topology,
)

PIPELINE_NODES = 10  # nodes per pipeline (two sub-topologies)


class Builder:
    def __init__(self) -> None:
        self.index = 0

    def name(self, prefix: str) -> str:
        out = f"{prefix}{self.index:010d}"
        self.index += 1
        return out

    def store(self, prefix: str) -> str:
        out = f"{prefix}STATE-STORE-{self.index:010d}"
        self.index += 1
        return out


def _link(names: list[str]) -> list[tuple[str, frozenset[str], frozenset[str]]]:
    return [
        (n, frozenset(names[i + 1 : i + 2]), frozenset(names[i - 1 : i] if i else []))
        for i, n in enumerate(names)
    ]


def pipeline(
    b: Builder, k: int, sub_id: int, extra_filter: bool, no_filter: bool = False
) -> list[Subtopology]:
    src = b.name("KSTREAM-SOURCE-")
    first = [src]
    if extra_filter:
        first.append(b.name("KSTREAM-FILTER-"))
    if not no_filter:
        first.append(b.name("KSTREAM-FILTER-"))
    first.append(b.name("KSTREAM-KEY-SELECT-"))
    store = b.store("KSTREAM-AGGREGATE-")
    agg = b.name("KSTREAM-AGGREGATE-")
    rsink, rfilter, rsource = b.name("KSTREAM-SINK-"), b.name("KSTREAM-FILTER-"), b.name(
        "KSTREAM-SOURCE-"
    )
    topic = f"{store}-repartition"
    to_stream, mapv, sink = (
        b.name("KTABLE-TOSTREAM-"),
        b.name("KSTREAM-MAPVALUES-"),
        b.name("KSTREAM-SINK-"),
    )
    up = [*first, rfilter, rsink]
    nodes0: list[Node] = []
    for name, succ, pred in _link(up):
        if name == src:
            nodes0.append(Source(name, topics=frozenset({f"input-{k}"}), successors=succ))
        elif name == rsink:
            nodes0.append(Sink(name, topic=topic, predecessors=pred))
        else:
            nodes0.append(Processor(name, successors=succ, predecessors=pred))
    down = [rsource, agg, to_stream, mapv, sink]
    nodes1: list[Node] = []
    for name, succ, pred in _link(down):
        if name == rsource:
            nodes1.append(Source(name, topics=frozenset({topic}), successors=succ))
        elif name == sink:
            nodes1.append(Sink(name, topic=f"output-{k}", predecessors=pred))
        else:
            stores = frozenset({store}) if name == agg else frozenset()
            nodes1.append(Processor(name, stores=stores, successors=succ, predecessors=pred))
    return [Subtopology(sub_id, frozenset(nodes0)), Subtopology(sub_id + 1, frozenset(nodes1))]


def application(nodes: int, inserted: bool, thinned: bool = False) -> Description:
    b = Builder()
    subs: list[Subtopology] = []
    for k in range(max(1, nodes // PIPELINE_NODES)):
        no_filter = thinned and k % 7 == 3
        subs += pipeline(b, k, len(subs), extra_filter=inserted and k == 0, no_filter=no_filter)
    return Description((Topology(tuple(subs)),), path=f"v{2 if inserted else 1}.txt")


def stateful_chain(nodes: int, offset: int) -> Description:
    """One sub-topology: a source, a path of ``transformValues`` every other one with a store,
    a sink; ``offset`` shifts every generated index."""
    names = [f"KSTREAM-TRANSFORMVALUES-{i + offset:010d}" for i in range(1, nodes - 1)]
    src, sink = f"KSTREAM-SOURCE-{offset:010d}", f"KSTREAM-SINK-{nodes - 1 + offset:010d}"
    path = [src, *names, sink]
    out: list[Node] = [Source(src, topics=frozenset({"in"}), successors=frozenset({path[1]}))]
    for i, (name, succ, pred) in enumerate(_link(path)[1:-1], start=1):
        stores = frozenset({f"store-{i}"}) if i % 2 else frozenset()
        out.append(Processor(name, stores=stores, successors=succ, predecessors=pred))
    out.append(Sink(sink, topic="out", predecessors=frozenset({path[-2]})))
    return Description((Topology((Subtopology(0, frozenset(out)),)),))


def best_of(repeat: int, func: object) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    before, after = application(args.nodes, False), application(args.nodes, True)
    n_before = sum(1 for _ in before.nodes())
    n_after = sum(1 for _ in after.nodes())
    result = diff(before, after)
    report = api.diff(before, after)
    match = best_of(args.repeat, lambda: diff(before, after))
    whole = best_of(args.repeat, lambda: api.diff(before, after))
    same = best_of(args.repeat, lambda: api.diff(before, before))
    thinned = application(args.nodes, False, thinned=True)
    scattered = best_of(args.repeat, lambda: diff(before, thinned))
    chain_b, chain_a = stateful_chain(args.nodes, 0), stateful_chain(args.nodes, 1)
    chain = best_of(args.repeat, lambda: diff(chain_b, chain_a))
    print(f"nodes: {n_before} before, {n_after} after; stores: {len(result.stores.pairs)} matched")
    print(f"findings: {len(report.findings)} ({report.summary.errors} errors), "
          f"verdict {report.verdict.value if report.verdict else '-'}")
    print(f"matching (diff.diff), one filter inserted first: {match * 1000:.0f} ms")
    print(f"whole check (api.diff), one filter inserted first: {whole * 1000:.0f} ms")
    print(f"whole check (api.diff), identical versions: {same * 1000:.0f} ms")
    print(f"matching (diff.diff), a filter removed in every 7th pipeline: "
          f"{scattered * 1000:.0f} ms")
    print(f"matching (diff.diff), a chain of stateful processors shifted: {chain * 1000:.0f} ms")


if __name__ == "__main__":
    main()
