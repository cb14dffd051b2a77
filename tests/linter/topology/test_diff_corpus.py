"""Real before/after pairs from ``../shared/corpus/topologies``: what ksafe must say, and why.

Each case lists the rules that must fire (as a multiset, ``unexplained-change`` aside: it is an
``info`` listing of operators added or removed and never changes the verdict), the verdict, and
in ``why`` the reason a reviewer would give.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from linter import api
from linter.report.model import Report
from linter.topology.model import Description
from linter.topology.parse import parse
from tests.conftest import corpus_text

NAMING = "kafka-docs/dsl-topology-naming/"
TUTORIAL = "wild/confluent-kafka-tutorials-naming/"
REPARTITION = "kafka/RepartitionTopicNamingTest/"
GRAPH = "kafka/StreamsGraphTest/"
KSQL = "wild/ksqldb-version-series/"
JOINS = KSQL + "joins_-_on_non-STRING_value_column/"
MULTI = KSQL + "multi-joins_-_stream-stream-table_-_inner-inner_-_rekey_left/"
TABLE = KSQL + "table_-_should_NOT_reuse_source_topic_for_change_log_if_topology_optimizations_are_off/"  # noqa: E501


@dataclass(frozen=True)
class Pair:
    before: str
    after: str
    rules: tuple[str, ...]
    verdict: str
    why: str


PAIRS = [
    Pair(
        NAMING + "03_stateful_count_unnamed.txt",
        NAMING + "04_stateful_count_unnamed_plus_filter.txt",
        ("store-renamed",),
        "unsafe",
        "the documented unsafe upgrade: a filter inserted before an unnamed count shifts the "
        "store index 0000000001 -> 0000000002, so the changelog changes and the count restarts",
    ),
    Pair(
        NAMING + "04_stateful_count_unnamed_plus_filter.txt",
        NAMING + "05_stateful_count_named_store_plus_filter.txt",
        ("store-renamed",),
        "unsafe",
        "the docs' fix (Materialized.as) is itself a rename when deployed over 04: the generated "
        "changelog is abandoned once; from then on the name is stable",
    ),
    Pair(
        TUTORIAL + "01_unnamed.txt",
        TUTORIAL + "02_unnamed_plus_filter.txt",
        ("store-renamed",) * 3 + ("repartition-topic-removed",) * 2,
        "unsafe",
        "the filter inserted after selectKey shifts every later index: the count store and both "
        "join window stores get new names, and both generated repartition topics change (the "
        "join's even takes the filter's name) so records in flight are lost",
    ),
    Pair(
        TUTORIAL + "02_unnamed_plus_filter.txt",
        TUTORIAL + "03_named.txt",
        ("store-renamed",) * 3 + ("repartition-topic-removed",) * 2,
        "unsafe",
        "naming the store, repartition topics and join on a running app renames all of them "
        "(the tutorial's point: name things before the first deploy)",
    ),
    Pair(
        TUTORIAL + "03_named.txt",
        TUTORIAL + "04_named_plus_filter.txt",
        (),
        "safe",
        "with everything named, the same filter only re-indexes stateless generated operators",
    ),
    Pair(
        REPARTITION + "EXPECTED_UNOPTIMIZED_TOPOLOGY.txt",
        REPARTITION + "EXPECTED_OPTIMIZED_TOPOLOGY.txt",
        ("repartition-topic-removed",) * 3
        + ("store-moved-subtopology",) * 2
        + ("subtopology-removed",),
        "safe-with-restore",
        "turning merge.repartition.topics on: three repartition topics disappear (drain them "
        "first), sub-topologies 2 and 3 are gone and their stores move into sub-topology 1",
    ),
    Pair(
        REPARTITION + "EXPECTED_OPTIMIZED_TOPOLOGY.txt",
        REPARTITION + "EXPECTED_UNOPTIMIZED_TOPOLOGY.txt",
        ("store-moved-subtopology",) * 2,
        "safe-with-restore",
        "turning the optimization off splits the merged repartition topic again: the kept topic "
        "is still read, the two stores move to new sub-topologies and restore; the key does not "
        "change (the same map feeds every repartition topic)",
    ),
    Pair(
        GRAPH + "expectedJoinedTopology.txt",
        GRAPH + "expectedJoinedFilteredTopology.txt",
        (),
        "safe",
        "the builder grows at the end: a filter after the join shifts no earlier index",
    ),
    Pair(
        GRAPH + "expectedJoinedFilteredTopology.txt",
        GRAPH + "expectedFullTopology.txt",
        (),
        "safe",
        "mapValues and a new output topic appended after the filter: nothing stateful changes",
    ),
    Pair(
        JOINS + "01_ksqldb-5.5.0_ak-2.5.txt",
        JOINS + "02_ksqldb-6.0.0_ak-2.6.txt",
        (),
        "safe",
        "ksqlDB 6.0 replaces the generated key selector by a named one and drops a filter; the "
        "join's store and repartition topic keep their names and the key comes from the same "
        "(matched) selector",
    ),
    Pair(
        JOINS + "04_ksqldb-7.1.0_ak-3.1.txt",
        JOINS + "05_ksqldb-8.0.0_ak-4.0.txt",
        (),
        "safe",
        "the AK 4.0 re-plan swaps transformValues for processValues and adds peeks, and moves "
        "PrependAliasLeft across the repartition; the key still comes from the same selector",
    ),
    Pair(
        MULTI + "01_ksqldb-6.0.0_ak-2.6.txt",
        MULTI + "02_ksqldb-6.0.0_ak-2.6.txt",
        ("store-renamed",) * 2 + ("store-owner-changed",),
        "unsafe",
        "a KTable mapValues inserted early shifts the generated stream-stream join store names "
        "(JOINTHIS/JOINOTHER-...-store): the join windows restart empty; the table store is now "
        "written by the mapValues",
    ),
    Pair(
        TABLE + "01_ksqldb-5.5.0_ak-2.5.txt",
        TABLE + "02_ksqldb-6.0.0_ak-2.6.txt",
        ("store-owner-changed",),
        "safe",
        "the store keeps its name (so its changelog) but moves from the source table to a "
        "mapValues after it: a warning to check that the stored value format is the same",
    ),
]


def _load(base: Path, rel: str) -> Description:
    return parse(corpus_text(base / rel), rel)


def _rules(report: Report) -> Counter[str]:
    return Counter(f.name for f in report.findings if f.name != "unexplained-change")


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p.before} -> {p.after}")
def test_corpus_pair(topology_corpus: Path, pair: Pair) -> None:
    report = api.diff(_load(topology_corpus, pair.before), _load(topology_corpus, pair.after))
    assert _rules(report) == Counter(pair.rules), pair.why
    assert report.verdict is not None
    assert report.verdict.value == pair.verdict, pair.why


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p.after} (itself)")
def test_corpus_text_against_itself_is_silent(topology_corpus: Path, pair: Pair) -> None:
    model = _load(topology_corpus, pair.after)
    report = api.diff(model, model)
    assert report.findings == ()
    assert report.verdict is not None
    assert report.verdict.value == "safe"


def test_store_index_shift_names_both_changelogs(topology_corpus: Path) -> None:
    report = api.diff(
        _load(topology_corpus, PAIRS[0].before),
        _load(topology_corpus, PAIRS[0].after),
        api.Settings(application_id="purchases"),
    )
    (finding,) = [f for f in report.findings if f.name == "store-renamed"]
    names = {r.name for r in finding.resources}
    assert "purchases-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog" in names
    assert "purchases-KSTREAM-AGGREGATE-STATE-STORE-0000000002-changelog" in names
    assert "0000000001 -> 0000000002" in finding.message
    assert report.plan is not None
    assert report.plan.strategy.value == "application-reset"
