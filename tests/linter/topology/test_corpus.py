"""The parser on every real describe() text of the shared corpus (read in place, never copied).

Skipped with a reason when ``../shared`` is absent. The counts come from each file's
``features:`` header (``subtopologies=N``, ``global-stores=M``), which the corpus INDEX
documents per file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from linter.topology.model import Description, Sink, Source
from linter.topology.parse import TopologyParseError, parse
from linter.topology.render import render
from tests.conftest import TOPOLOGY_CORPUS, corpus_files, corpus_header, corpus_id, corpus_text

FILES = corpus_files("topologies")
# The AK 4.4 CLI formatter's samples are not describe() output: one names neighbours that no node
# declares, which strict parsing rejects.
FORMATTER = "variants/kafka-streams-groups-cli-formatter/"


def read(path: Path) -> Description:
    return parse(corpus_text(path), corpus_id(path), strict=FORMATTER not in path.as_posix())


def count(features: str, key: str) -> int:
    found = re.search(rf"\b{key}=(\d+)", features)
    return int(found[1]) if found else 0


@pytest.mark.usefixtures("topology_corpus")
@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_every_corpus_file_parses_with_the_indexed_shape(path: Path) -> None:
    description = read(path)
    features = corpus_header(path)["features"]
    subs = [sub for topology in description.topologies for sub in topology.subtopologies]
    assert sum(not sub.is_global for sub in subs) == count(features, "subtopologies")
    assert sum(sub.is_global for sub in subs) == count(features, "global-stores")
    for topology in description.topologies:
        for sub, node in topology.nodes():
            assert node.position.line > 0
            names = {n.name for n in sub.nodes}
            assert node.successors <= names or FORMATTER in path.as_posix()
            assert node.predecessors <= names or FORMATTER in path.as_posix()


@pytest.mark.usefixtures("topology_corpus")
@pytest.mark.parametrize(
    "path",
    [p for p in FILES if corpus_header(p).get("exact", "").startswith("yes")],
    ids=corpus_id,
)
def test_exact_files_round_trip(path: Path) -> None:
    description = read(path)
    assert parse(render(description), strict=FORMATTER not in path.as_posix()) == description


@pytest.mark.usefixtures("topology_corpus")
def test_the_formatter_sample_with_undeclared_neighbours_is_rejected_when_strict() -> None:
    path = TOPOLOGY_CORPUS / FORMATTER / "testFormatSinkWithoutTopicAndMultipleSuccessors.txt"
    with pytest.raises(TopologyParseError, match=r":4:11: expected the name of a node"):
        parse(corpus_text(path), corpus_id(path))
    sink = next(n for _, _, n in read(path).nodes() if isinstance(n, Sink))
    assert (sink.topic, sink.extractor) == (None, None)


def corpus(relative: str) -> Description:
    return read(TOPOLOGY_CORPUS / relative)


@pytest.mark.usefixtures("topology_corpus")
def test_named_topologies_of_both_header_styles() -> None:
    current = corpus("kafka/NamedTopologyTest/shouldDescribeWithMultipleNamedTopologies.txt")
    older = corpus(
        "kafka-versions/NamedTopologyTest__shouldDescribeWithMultipleNamedTopologies/"
        "AK-3.1.0_to_3.1.0.txt"
    )
    assert [t.name for t in current.topologies] == ["topology-1", "topology-2", "topology-3"]
    assert older == current


@pytest.mark.usefixtures("topology_corpus")
def test_legacy_layouts() -> None:
    with_prefix = corpus(
        "wild/zz85-kafka-streams-viz/test_example2__ak1.0-format-with-log-prefix.txt"
    )
    (topology,) = with_prefix.topologies
    assert topology.layout == "legacy-1.0"
    assert (topology.position.line, topology.position.column) == (1, 17)
    tutorial = corpus("kafka-docs/tutorial-legacy-format/trunk__wordcount.txt")
    source = next(n for _, _, n in tutorial.nodes() if n.name == "KSTREAM-SOURCE-0000000000")
    assert isinstance(source, Source)
    assert source.topics == {"streams-plaintext-input"}


@pytest.mark.usefixtures("topology_corpus")
def test_split_children_and_extractor_sinks() -> None:
    merged = corpus("kafka/StreamsGraphTest/expectedComplexMergeOptimizeTopology.txt")
    names = {node.name for _, _, node in merged.nodes()}
    assert any(re.fullmatch(r"KSTREAM-BRANCH-\d{11,}", name) for name in names)
    routed = corpus("kafka/TopologyTest/topologyWithDynamicRoutingShouldDescribeExtractorClass.txt")
    sinks = [node for _, _, node in routed.nodes() if isinstance(node, Sink)]
    assert [s.extractor is not None and s.topic is None for s in sinks] == [True]


@pytest.mark.usefixtures("topology_corpus")
def test_global_stores_and_headless_text() -> None:
    two = corpus("wild/kstreamplify/TopicWithSerdeTest__shouldCreateGlobalStore.txt")
    assert [(s.id, s.is_global) for s in two.topologies[0].subtopologies] == [(0, True), (1, True)]
    headless = corpus("wild/ketul654-kafka-streams/StreamRepartition.txt")
    assert [s.id for s in headless.topologies[0].subtopologies] == [0, 1]


@pytest.mark.usefixtures("topology_corpus")
def test_the_docs_hand_formatting_reads_like_the_real_text() -> None:
    docs = corpus("kafka-docs/dsl-topology-naming/03_stateful_count_unnamed.txt")
    stores = docs.topologies[0].stores
    assert stores == {"KSTREAM-AGGREGATE-STATE-STORE-0000000001"}
