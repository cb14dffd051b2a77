"""Inputs the HTML report tests share: hand-built topologies (a hostile one, a 300-node one), real
corpus pairs, and a simulated cluster plan."""

from __future__ import annotations

from pathlib import Path

from cluster_engine.ingest import load_snapshot
from cluster_engine.plan import load_plan
from cluster_engine.simulate import Simulation
from linter import api
from linter.report.model import Report
from linter.topology.diff import TopologyDiff, diff
from linter.topology.model import Description, Processor, Sink, Source, Subtopology, Topology
from linter.topology.parse import parse
from rules.framework import Finding, Impact, Resource, Severity
from tests.conftest import FIXTURES, corpus_text

HOSTILE = "<img src=x onerror=alert(1)>"
HOSTILE_STORE = "</script><script>alert(2)</script>"
HOSTILE_TOPIC = "\"><svg onload=alert(3)>"


def _sub(sub_id: int, nodes: list[Source | Processor | Sink]) -> Subtopology:
    return Subtopology(sub_id, frozenset(nodes))


def word_count(with_filter: bool, hostile: bool = False) -> Description:
    """The Streams upgrade guide's example: a filter inserted before ``count`` shifts the store's
    generated index. ``hostile`` adds a Processor-API node, store and topic with hostile names."""
    src = "KSTREAM-SOURCE-0000000000"
    agg = "KSTREAM-AGGREGATE-000000000" + ("3" if with_filter else "2")
    store = "KSTREAM-AGGREGATE-STATE-STORE-000000000" + ("2" if with_filter else "1")
    to_stream = "KTABLE-TOSTREAM-000000000" + ("4" if with_filter else "3")
    sink = "KSTREAM-SINK-000000000" + ("5" if with_filter else "4")
    first = "KSTREAM-FILTER-0000000001" if with_filter else agg
    nodes: list[Source | Processor | Sink] = [
        Source(src, topics=frozenset({"input"}), successors=frozenset({first})),
        Processor(agg, stores=frozenset({store}), successors=frozenset({to_stream}),
                  predecessors=frozenset({first if with_filter else src})),
        Processor(to_stream, successors=frozenset({sink} | ({HOSTILE} if hostile else set())),
                  predecessors=frozenset({agg})),
        Sink(sink, topic="output", predecessors=frozenset({to_stream})),
    ]
    if with_filter:
        nodes.append(Processor("KSTREAM-FILTER-0000000001", successors=frozenset({agg}),
                               predecessors=frozenset({src})))
    if hostile:
        nodes.append(Processor(HOSTILE, stores=frozenset({HOSTILE_STORE}),
                               successors=frozenset({"evil-sink"}),
                               predecessors=frozenset({to_stream})))
        nodes.append(Sink("evil-sink", topic=HOSTILE_TOPIC, predecessors=frozenset({HOSTILE})))
    return Description((Topology((_sub(0, nodes),)),), path="word-count.txt")


def hostile_report() -> Report:
    findings = (
        Finding(rule="KS201", name="store-renamed", severity=Severity.ERROR,
                impact=Impact.STATE_LOSS, message=f"store {HOSTILE_STORE} renamed to {HOSTILE}",
                resources=(Resource(kind="store", name=HOSTILE_STORE),
                           Resource(kind="node", name=HOSTILE)),
                remediation=f'Materialized.as("{HOSTILE}")', fingerprint="00000000deadbeef",
                steps=(f"Delete the task directory of {HOSTILE}",)),
    )
    return api.finish("diff", findings, api.Settings(),
                      inputs={"before": HOSTILE, "after": "after.txt"})


def big_description(subtopologies: int = 30, chain: int = 8) -> Description:
    """``subtopologies`` sub-topologies of ``chain`` processors plus a source and a sink each,
    linked by repartition topics, with a store every third processor: 300 nodes by default."""
    subs = []
    for s in range(subtopologies):
        names = [f"app-{s:02d}-step-{i:02d}" for i in range(chain)]
        src, sink = f"app-{s:02d}-source", f"app-{s:02d}-sink"
        topic_in = "orders" if s == 0 else f"app-{s - 1:02d}-repartition"
        topic_out = f"app-{s:02d}-repartition" if s < subtopologies - 1 else "results"
        nodes: list[Source | Processor | Sink] = [
            Source(src, topics=frozenset({topic_in}), successors=frozenset({names[0]}))
        ]
        for i, name in enumerate(names):
            succ = {names[i + 1]} if i + 1 < chain else {sink}
            if i == 2 and chain > 5:
                succ.add(names[5])  # a diamond, so the layout has crossings to avoid
            pred = {names[i - 1]} if i else {src}
            if i == 5 and chain > 5:
                pred.add(names[2])
            stores = frozenset({f"app-{s:02d}-store-{i:02d}"}) if i % 3 == 1 else frozenset()
            nodes.append(Processor(name, stores=stores, successors=frozenset(succ),
                                   predecessors=frozenset(pred)))
        nodes.append(Sink(sink, topic=topic_out, predecessors=frozenset({names[-1]})))
        subs.append(_sub(s, nodes))
    return Description((Topology(tuple(subs)),), path="big.txt")


def corpus_pair(corpus: Path, before: str, after: str) -> tuple[
    Description, Description, TopologyDiff, Report
]:
    """Parse a real pair in place and diff it with the library API."""
    b_path, a_path = corpus / before, corpus / after
    b = parse(corpus_text(b_path), str(b_path.relative_to(corpus)))
    a = parse(corpus_text(a_path), str(a_path.relative_to(corpus)))
    report = api.diff(b, a, api.Settings(application_id="word-count"))
    return b, a, diff(b, a), report


def cluster_plan() -> tuple[Simulation, Report]:
    """The three-broker snapshot and a plan that restarts two brokers at once."""
    snapshot = load_snapshot(FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml")
    plan = load_plan(FIXTURES / "reports" / "html" / "restart-two-then-bump.yaml")
    report, simulation = api.cluster_simulation(snapshot, plan, api.Settings(),
                                                snapshot_path="three-brokers.yaml")
    return simulation, report
