"""Matching two versions, on models built directly and on reprinted texts."""

from __future__ import annotations

import random
from typing import Any

from linter import api
from linter.topology.diff import Change, diff
from linter.topology.model import Description, Processor, Sink, Source, Subtopology, Topology
from linter.topology.parse import parse
from tests.conftest import FIXTURES


def chain(*names: str, stores: dict[str, str] | None = None, topic: str = "in") -> Subtopology:
    """Source -> processors -> sink, ``stores`` mapping processor name -> store name."""
    stores = stores or {}
    nodes: list[Source | Processor | Sink] = [Source(names[0], topics=frozenset({topic}),
                                                     successors=frozenset({names[1]}))]
    for i, name in enumerate(names[1:-1], 1):
        nodes.append(
            Processor(
                name,
                stores=frozenset({stores[name]}) if name in stores else frozenset(),
                successors=frozenset({names[i + 1]}),
                predecessors=frozenset({names[i - 1]}),
            )
        )
    nodes.append(Sink(names[-1], topic="out", predecessors=frozenset({names[-2]})))
    return Subtopology(0, frozenset(nodes))


def desc(*subs: Subtopology, name: str | None = None) -> Description:
    return Description((Topology(tuple(subs), name=name),))


def gen(prefix: str, i: int) -> str:
    return f"KSTREAM-{prefix}-{i:010d}"


def test_identical_models_have_no_changes() -> None:
    d = desc(chain("src", "agg", "out", stores={"agg": "counts"}))
    result = diff(d, d)
    assert result.identical
    assert not result.nodes.added
    assert not result.nodes.removed
    assert all(not p.changes for p in result.nodes.pairs)
    assert all(not p.changes for p in result.stores.pairs)
    assert result.key_changes == ()


def test_a_kept_processor_whose_stores_changed_shows_it() -> None:
    """``_node_matching`` passes a kept stateful processor as unchanged only when its stores are
    the same names (a planted short cut that ignores them passes the other diff tests)."""
    before = desc(chain("src", "agg", "cnt", "out", stores={"agg": "sums", "cnt": "counts"}))
    after = desc(chain("src", "agg", "cnt", "out", stores={"agg": "counts", "cnt": "totals"}))
    changes = {p.before.name: p.changes for p in diff(before, after).nodes.pairs}
    assert changes["agg"] == frozenset({Change.STORES})
    assert changes["cnt"] == frozenset({Change.STORES})
    kept = desc(chain("src", "agg", "cnt", "out", stores={"agg": "sums", "cnt": "counts"}))
    assert all(not p.changes for p in diff(before, kept).nodes.pairs)


def test_index_shift_is_matched_by_position_in_the_index_sequence() -> None:
    store1 = "KSTREAM-AGGREGATE-STATE-STORE-0000000001"
    store2 = "KSTREAM-AGGREGATE-STATE-STORE-0000000002"
    before = desc(chain(gen("SOURCE", 0), gen("AGGREGATE", 2), gen("SINK", 3),
                        stores={gen("AGGREGATE", 2): store1}))
    after = desc(chain(gen("SOURCE", 0), gen("FILTER", 1), gen("AGGREGATE", 3), gen("SINK", 4),
                       stores={gen("AGGREGATE", 3): store2}))
    result = diff(before, after)
    pairs = {p.before.name: (p.after.name, p.how) for p in result.nodes.pairs}
    assert pairs[gen("AGGREGATE", 2)] == (gen("AGGREGATE", 3), "index")
    assert [n.name for n in result.nodes.added] == [gen("FILTER", 1)]
    (store,) = result.stores.pairs
    assert (store.before.name, store.after.name, store.how) == (store1, store2, "owner")
    assert "renamed" in store.changes
    assert result.key_changes == ()


def test_same_generated_name_on_another_operator_is_not_matched_by_name() -> None:
    """After an insertion, ``KSTREAM-FILTER-0000000002`` may name a different operator."""
    before = desc(chain(gen("SOURCE", 0), gen("MAPVALUES", 1), gen("FILTER", 2), gen("SINK", 3)))
    after = desc(chain(gen("SOURCE", 0), gen("FILTER", 1), gen("MAPVALUES", 2), gen("FILTER", 3),
                       gen("SINK", 4)))
    pairs = {p.before.name: p.after.name for p in diff(before, after).nodes.pairs}
    assert pairs[gen("FILTER", 2)] == gen("FILTER", 3)
    assert pairs[gen("MAPVALUES", 1)] == gen("MAPVALUES", 2)


def test_named_operators_match_by_name_and_unmatched_neighbours_by_structure() -> None:
    before = desc(chain("src", gen("WINDOWED", 3), gen("JOINTHIS", 5), "out",
                        stores={gen("WINDOWED", 3): "KSTREAM-JOINTHIS-0000000005-store"}))
    after = desc(chain("src", "j-this-windowed", "j-this-join", "out",
                       stores={"j-this-windowed": "s-this-join-store"}))
    result = diff(before, after)
    pairs = {p.before.name: (p.after.name, p.how) for p in result.nodes.pairs}
    assert pairs[gen("WINDOWED", 3)] == ("j-this-windowed", "structure")
    assert pairs[gen("JOINTHIS", 5)] == ("j-this-join", "structure")
    (store,) = result.stores.pairs
    assert store.after.name == "s-this-join-store"


def test_key_selector_inserted_before_a_store_is_a_key_change() -> None:
    before = desc(chain("src", "count", "out", stores={"count": "counts"}))
    after = desc(chain("src", gen("KEY-SELECT", 1), "count", "out", stores={"count": "counts"}))
    result = diff(before, after)
    (kc,) = [k for k in result.key_changes if k.stores]
    assert kc.node == "count"
    assert kc.before == frozenset({"src"})
    assert kc.after == frozenset({gen("KEY-SELECT", 1)})


def test_stateless_named_operator_added_is_not_an_error() -> None:
    before = desc(chain("src", "count", "out", stores={"count": "counts"}))
    after = desc(chain("src", "drop-invalid", "count", "out", stores={"count": "counts"}))
    report = api.diff(before, after)
    assert report.summary.errors == 0
    assert report.summary.warnings == 0
    assert [f.name for f in report.findings] == ["unexplained-change"]
    assert report.verdict is not None
    assert report.verdict.value == "safe"


def test_named_topologies_are_paired_by_name() -> None:
    a = chain("a-src", "a-count", "a-out", stores={"a-count": "a-store"})
    b = chain("b-src", "b-count", "b-out", stores={"b-count": "b-store"}, topic="other")
    before = Description((Topology((a,), name="alpha"), Topology((b,), name="beta")))
    after = Description((Topology((b,), name="beta"), Topology((a,), name="alpha")))
    result = diff(before, after)
    assert not result.nodes.added
    assert not result.nodes.removed
    assert all(not p.changes for p in result.stores.pairs)


def test_changelog_names_include_the_topology_name() -> None:
    a = chain("src", "count", "out", stores={"count": "s1"})
    b = chain("src", "count", "out", stores={"count": "s2"})
    report = api.diff(
        Description((Topology((a,), name="orders"),)),
        Description((Topology((b,), name="orders"),)),
        api.Settings(application_id="app"),
    )
    (f,) = [f for f in report.findings if f.name == "store-renamed"]
    assert {"app-orders-s1-changelog", "app-orders-s2-changelog"} <= {r.name for r in f.resources}


def _shuffled(text: str, seed: int) -> str:
    """Reprint a describe() text with node blocks and ``-->``/``<--`` lists in another order."""
    rng = random.Random(seed)
    out: list[str] = []
    block: list[list[str]] = []

    def flush() -> None:
        rng.shuffle(block)
        for node in block:
            out.extend(node)
        block.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("Source:", "Processor:", "Sink:")):
            block.append([line])
        elif stripped.startswith(("-->", "<--")):
            indent, arrow, names = line[: line.index(stripped[:3])], stripped[:3], stripped[4:]
            items = names.split(", ")
            rng.shuffle(items)
            block[-1].append(f"{indent}{arrow} {', '.join(items)}")
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out) + "\n"


def test_reprinted_in_another_order_gives_no_findings() -> None:
    for name in ("word-count-v2.txt", "orders-v2.txt"):
        text = (FIXTURES / "examples" / name).read_text(encoding="utf-8")
        for seed in range(5):
            report = api.diff(parse(text, "a.txt"), parse(_shuffled(text, seed), "b.txt"))
            assert report.findings == (), seed


def test_reprinted_corpus_text_gives_no_findings(topology_corpus: object) -> None:
    from tests.conftest import TOPOLOGY_CORPUS, corpus_text

    path = TOPOLOGY_CORPUS / "wild/confluent-kafka-tutorials-naming/01_unnamed.txt"
    text = corpus_text(path)
    for seed in range(5):
        shuffled = _shuffled(text, seed)
        assert shuffled != text or seed > 0
        report = api.diff(parse(text, "a.txt"), parse(shuffled, "b.txt"))
        assert report.findings == ()


def test_transform_replaced_by_process_is_the_same_step() -> None:
    """AK 4.0 removed ``transform``; a ``process`` at the same index is its replacement, not a
    new key change in front of the aggregation."""
    store = "KSTREAM-AGGREGATE-STATE-STORE-0000000002"
    before = desc(chain(gen("SOURCE", 0), gen("TRANSFORM", 1), gen("AGGREGATE", 3), "out",
                        stores={gen("AGGREGATE", 3): store}))
    after = desc(chain(gen("SOURCE", 0), gen("PROCESSOR", 1), gen("AGGREGATE", 3), "out",
                       stores={gen("AGGREGATE", 3): store}))
    result = diff(before, after)
    pairs = {p.before.name: p.after.name for p in result.nodes.pairs}
    assert pairs[gen("TRANSFORM", 1)] == gen("PROCESSOR", 1)
    assert result.key_changes == ()


def test_repartition_sinks_are_not_matched_to_output_sinks() -> None:
    """Sinks of user topics anchor on the topic: a shifted repartition sink never pairs with an
    output sink that happens to sit at the same place in the index sequence."""
    out = Sink(gen("SINK", 2), topic="out", predecessors=frozenset({gen("SOURCE", 0)}))
    src = Source(gen("SOURCE", 0), topics=frozenset({"in"}), successors=frozenset({out.name}))
    before = desc(Subtopology(0, frozenset({src, out})))
    rep = Sink(gen("SINK", 2), topic="x-repartition", predecessors=frozenset({src.name}))
    out2 = Sink(gen("SINK", 3), topic="out", predecessors=frozenset({src.name}))
    src2 = Source(src.name, topics=src.topics, successors=frozenset({rep.name, out2.name}))
    after = desc(Subtopology(0, frozenset({src2, rep, out2})))
    pairs = {p.before.name: p.after.name for p in diff(before, after).nodes.pairs}
    assert pairs[gen("SINK", 2)] == gen("SINK", 3)


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
