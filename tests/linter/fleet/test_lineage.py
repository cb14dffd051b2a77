"""Lineage facts and the fleet rules, without Spark: whole graph == union of its slices."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import pytest

from linter.api import Settings
from linter.fleet.lineage import (
    edges,
    facts_of,
    fleet_findings,
    judge,
    key_change_topics,
    plan_findings,
    produced_topics,
    slice_graph,
    slice_graphs,
    slice_keys,
    slice_rows,
    sliced_facts,
    whole_graph,
)
from linter.fleet.rows import FindingRow
from linter.lineage import AppFacts, FleetGraph, PartitionChange
from linter.topology.parse import parse
from rules.framework import Finding

SMALL = Path(__file__).resolve().parents[3] / "fixtures" / "fleet" / "small"


def _model(app: str, version: str):  # type: ignore[no-untyped-def]
    path = SMALL / app / f"{version}.txt"
    return parse(path.read_text(encoding="utf-8"), str(path))


FLEET = (
    AppFacts("up", "up", upgrade="v1 -> v2", produces=frozenset({"orders"}),
             key_changes=frozenset({"orders"})),
    AppFacts("down", "down", consumes=frozenset({"orders", "ext"}),
             stateful_on=frozenset({"orders"}), internal=frozenset({"down-s-changelog"})),
    AppFacts("a1", "shared", internal=frozenset({"shared-x-changelog"})),
    AppFacts("a2", "shared", internal=frozenset({"shared-x-changelog"})),
    AppFacts("writer", "writer", produces=frozenset({"down-s-changelog", "out"})),
    AppFacts("stateless", "stateless", consumes=frozenset({"orders"})),
)  # fmt: skip
CHANGES = (PartitionChange("orders", 24, 0, before=12, line=3, plan="plan.yaml"),)


def _key(f: Finding) -> tuple[str, str, str]:
    return (f.rule, f.fingerprint, f.message)


# An app whose repartition topic a plan grows, stateful on another topic: a slice of that topic
# alone would take it for stateless (partitions-added-stateful's advice), hence plan_findings.
REKEY = AppFacts("rekey", "rekey", consumes=frozenset({"orders", "rekey-x-repartition"}),
                 produces=frozenset({"rekey-x-repartition"}), stateful_on=frozenset({"orders"}),
                 internal=frozenset({"rekey-x-repartition"}))  # fmt: skip
GROWN = (*CHANGES, PartitionChange("rekey-x-repartition", 8, 1))


def _judged(
    graphs: list[FleetGraph], plan: Sequence[FindingRow] = ()
) -> tuple[list[str], list[str]]:
    rows = [*(r for g in graphs for r in judge(g, Settings())), *plan]
    found = sorted(repr(r.as_tuple()) for r in rows)
    return found, sorted(repr(e) for g in graphs for e in edges(g))


def _plan(changes: tuple[PartitionChange, ...]) -> list[FindingRow]:
    return [r for app in (*FLEET, REKEY) for r in plan_findings(app, changes, Settings())]


@pytest.mark.parametrize("changes", [(), CHANGES, GROWN, GROWN[1:]])
def test_whole_graph_equals_union_of_slices_and_the_plan_app_by_app(
    changes: tuple[PartitionChange, ...],
) -> None:
    groups: dict[str, list[AppFacts]] = defaultdict(list)
    for app in (*FLEET, REKEY):
        for key, part in slice_keys(app):
            groups[key].append(part)
    sliced = [slice_graph(key, apps) for key, apps in groups.items()]
    whole = whole_graph((*FLEET, REKEY), changes)
    assert _judged(sliced, _plan(changes)) == _judged([whole])


def test_a_grown_internal_topic_of_an_app_stateful_elsewhere_is_blue_green() -> None:
    """The advice a slice of the grown topic alone would get wrong: the app keeps state on
    ``orders``, so adding partitions to its repartition topic loses state."""
    grown = GROWN[1:]  # the repartition topic only
    (plan_row, app_row) = plan_findings(REKEY, grown, Settings())
    assert (plan_row.app_id, app_row.app_id) == (None, "rekey")
    assert app_row.name == "partitions-added-stateful"
    assert app_row.requires == "blue-green"
    assert "keys move partitions and their state is lost" in app_row.message
    whole = [r for r in judge(whole_graph([REKEY], grown), Settings()) if r.rule == app_row.rule]
    assert sorted(map(repr, whole)) == sorted(map(repr, (plan_row, app_row)))


@pytest.mark.parametrize("groups", [1, 2, 3, 100])
def test_graphs_of_whole_slices_judge_as_the_slices(groups: int) -> None:
    rows = [row for app in (*FLEET, REKEY) for row in slice_rows(app)]
    by_key: dict[str, list[tuple[str, str, str, str | None, int]]] = defaultdict(list)
    for key, *app in rows:
        by_key[key].append(tuple(app))  # type: ignore[arg-type]
    one_by_one = [
        slice_graph(key, [sliced_facts(key, *app) for app in apps])
        for key, apps in by_key.items()
    ]
    parts: list[list[tuple[str, str, str, str, str | None, int]]] = [[] for _ in range(groups)]
    for i, key in enumerate(sorted(by_key)):  # whole slices, spread over the groups
        parts[i % groups].extend(r for r in reversed(rows) if r[0] == key)
    together = [g for part in parts for g in slice_graphs(part)]
    assert _judged(together) == _judged(one_by_one)
    assert len(together) <= 2 * groups


def test_rules_on_a_known_fleet() -> None:
    found = {(f.name, tuple(r.name for r in f.resources)) for f in fleet_findings(
        whole_graph(FLEET, CHANGES), Settings())}  # fmt: skip
    assert ("upstream-key-change", ("up", "orders", "down")) in found
    assert ("internal-topic-collision", ("shared", "a1", "a2")) in found
    assert ("internal-topic-collision", ("down-s-changelog", "down", "writer")) in found
    assert ("partitions-added-stateful", ("orders", "down")) in found
    assert ("topic-without-producer", ("ext", "down")) in found
    assert ("topic-without-consumer", ("out", "writer")) in found
    # a stateless reader is an edge, not a finding
    assert not any("stateless" in names for _, names in found)


def test_judge_puts_a_finding_on_every_app_it_names_and_the_plan() -> None:
    rows = judge(whole_graph(FLEET, CHANGES), Settings(select=frozenset({"KS801", "KS805"})))
    assert sorted((r.app_id or "", r.check, r.rule) for r in rows) == [
        ("", "cluster", "KS805"),
        ("down", "cluster", "KS805"),
        ("down", "lineage", "KS801"),
        ("up", "lineage", "KS801"),
    ]


def test_settings_select_and_severity_apply_to_fleet_rules() -> None:
    from rules.framework import Severity

    settings = Settings(ignore=frozenset({"topic-without-producer"}),
                        severities={"KS804": Severity.WARNING})  # fmt: skip
    found = fleet_findings(whole_graph(FLEET), settings)
    assert not any(f.rule == "KS803" for f in found)
    assert {f.severity for f in found if f.rule == "KS804"} == {Severity.WARNING}


def test_facts_of_a_real_description() -> None:
    facts = facts_of("customer-totals", _model("customer-totals", "v1"),
                     application_id="totals-app")  # fmt: skip
    assert facts.consumes == {"orders-enriched"}
    assert facts.stateful_on == {"orders-enriched"}
    assert facts.produces == {"customer-totals"}
    assert facts.internal == {"totals-app-customer-totals-store-changelog"}


def test_repartition_topics_are_internal_and_prefixed() -> None:
    text = """Topologies:
   Sub-topology: 0
    Source: src (topics: [in])
      --> KSTREAM-KEY-SELECT-0000000001
    Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])
      --> by-key-repartition-filter
      <-- src
    Processor: by-key-repartition-filter (stores: [])
      --> by-key-repartition-sink
      <-- KSTREAM-KEY-SELECT-0000000001
    Sink: by-key-repartition-sink (topic: by-key-repartition)
      <-- by-key-repartition-filter

  Sub-topology: 1
    Source: by-key-repartition-source (topics: [by-key-repartition])
      --> count
    Processor: count (stores: [counts])
      --> none
      <-- by-key-repartition-source

"""
    facts = facts_of("app", parse(text), application_id="my-app")
    assert facts.consumes == {"in"}
    assert facts.stateful_on == frozenset()  # state sits behind the repartition topic
    assert facts.produces == frozenset()
    assert facts.internal == {"my-app-by-key-repartition", "my-app-counts-changelog"}


def test_key_change_topics_from_the_upgrade_findings() -> None:
    from linter import api

    before, after = _model("orders-enricher", "v1"), _model("orders-enricher", "v2")
    report = api.diff(before, after, Settings())
    if not any(f.name == "sink-topic-changed" for f in report.findings):
        pytest.skip("the diff does not report sink-topic-changed for a new selectKey yet")
    assert key_change_topics(report.findings, before, after) == {"orders-enriched"}
    # facts_of gives what ``after`` produces, worked out on the way: the same topics
    facts = facts_of("a", after, upgrade_findings=report.findings, before=before)
    assert facts.produces == produced_topics(after)
    assert facts.key_changes == {"orders-enriched"}


def test_empty_graph() -> None:
    assert fleet_findings(FleetGraph(apps=()), Settings()) == []
    assert list(edges(FleetGraph(apps=()))) == []


def test_the_topic_index_holds_what_each_app_does_with_each_topic() -> None:
    # "lonely" and "ext" are only in a stateful_on set of "odd": not among its topics, so not
    # indexed for it ("ext" is, for "down", which consumes it)
    lonely = AppFacts("odd", "odd", stateful_on=frozenset({"lonely", "ext", "orders"}),
                      produces=frozenset({"orders"}))  # fmt: skip
    graph = FleetGraph(apps=(*FLEET, lonely))
    assert "lonely" not in graph.topics()
    assert graph.use("lonely") == FleetGraph(apps=()).use("lonely")
    assert [a.app_id for a in graph.producers("orders")] == ["odd", "up"]
    assert [a.app_id for a in graph.consumers("orders")] == ["down", "stateless"]
    assert [a.app_id for a in graph.stateful_readers("orders")] == ["down", "odd"]
    assert [a.app_id for a in graph.key_changers("orders")] == ["up"]
    assert [a.app_id for a in graph.consumers("ext")] == ["down"]
    assert graph.stateful_readers("ext") == []
    assert [a.app_id for a in graph.owners("shared-x-changelog")] == ["a1", "a2"]
    assert [a.app_id for a in graph.producers("down-s-changelog")] == ["writer"]
    assert graph.topics() == sorted(set().union(*(a.topics for a in (*FLEET, lonely))))
