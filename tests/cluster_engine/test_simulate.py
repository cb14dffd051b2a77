"""The step-by-step simulator: outages, feature and config changes, reassignments, summaries."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from cluster_engine.errors import ClusterInputError
from cluster_engine.facts import (
    CreateFacts,
    DecommissionFacts,
    ElectFacts,
    ElrRewriteFacts,
    VerifyFacts,
)
from cluster_engine.plan import parse_plan
from cluster_engine.simulate import Simulation, simulate
from cluster_engine.snapshot import Snapshot
from cluster_engine.state import ClusterState, Health, initial_state
from tests.conftest import FIXTURES

THREE = FIXTURES / "cluster" / "snapshots" / "three-brokers.yaml"


def three_brokers(**patch: object) -> Snapshot:
    data = yaml.safe_load(Path(THREE).read_text(encoding="utf-8"))
    data.update(patch)
    return Snapshot.model_validate(data)


def run(plan: str, snapshot: Snapshot | None = None) -> Simulation:
    return simulate(snapshot or three_brokers(), parse_plan(plan, "plan.yml"))


def test_two_brokers_restarted_together_leave_every_partition_under_min_isr() -> None:
    sim = run("- restart: {nodes: [1, 2]}")
    (t,) = sim.transitions
    (outage,) = t.outages
    assert outage.down == {1, 2}
    assert outage.health.under_min_isr == 9
    assert outage.health.under_min_isr_topics == ("orders", "payments")
    assert outage.health.offline == 0
    assert t.after.summary_health == Health(0, 0, 0, 0)


def test_a_rolling_restart_keeps_min_isr() -> None:
    (t,) = run("- rolling-restart: {}").transitions
    assert [sorted(o.down) for o in t.outages] == [[1], [2], [3]]
    assert all(o.health.under_min_isr == 0 for o in t.outages)
    assert all(o.health.at_min_isr == 9 for o in t.outages)
    assert all(o.health.under_replicated == 9 for o in t.outages)


def test_not_waiting_for_urp_overlaps_batches_and_heals_one_step_later() -> None:
    sim = run(
        "- rolling-restart: {wait-for-urp: false}\n- add-broker: {id: 4}\n- add-broker: {id: 5}"
    )
    roll, first, second = sim.transitions
    assert [sorted(o.out) for o in roll.outages] == [[1], [1, 2], [2, 3]]
    assert roll.outages[1].health.under_min_isr == 9
    assert roll.after.out_of_isr == {3}
    assert first.after.out_of_isr == {3}
    assert second.before.out_of_isr == frozenset()


@pytest.mark.parametrize("in_sync", [0.0, 0.9])
def test_single_broker_fast_path_agrees_with_a_brute_force_count(in_sync: float) -> None:
    # in_sync: the share of partitions fully in sync (most, in a healthy cluster: the per-broker
    # counts are then taken as all partitions less the others)
    rng = random.Random(7)
    brokers = list(range(1, 9))
    topics = []
    for name in ("t", "u", "v"):
        partitions = []
        for p in range(150):
            replicas = rng.sample(brokers, rng.choice([2, 3, 3, 4]))
            isr = replicas[: rng.randint(1, len(replicas))]
            if rng.random() < in_sync:
                isr = replicas
            partitions.append({"partition": p, "replicas": replicas, "leader": isr[0], "isr": isr})
        topics.append({"name": name, "partitions": partitions})
    snapshot = Snapshot.model_validate(
        {
            "nodes": [{"id": b} for b in brokers],
            "topics": topics,
            "configs": {
                "cluster_default": {"min.insync.replicas": "2"},
                "topics": {"u": {"min.insync.replicas": "1"}, "v": {"min.insync.replicas": "3"}},
            },
        }
    )
    state = initial_state(snapshot)
    for b in brokers:
        nxt, third = (b % 8) + 1, ((b + 3) % 8) + 1
        for out in (frozenset({b}), frozenset({b, nxt}), frozenset({b, nxt, third})):
            assert state.health(out) == brute_force(state, out), (b, out)


def brute_force(state: ClusterState, out: frozenset[int]) -> Health:
    table = state.table
    offline = under = urp = at_min = 0
    under_topics: set[str] = set()
    offline_topics: set[str] = set()
    for pid in range(len(table)):
        live = [b for b in table.isr[pid] if b not in out]
        need = min(state.topic_min_isr[table.topic[pid]], len(table.replicas[pid]))
        if not live:
            offline += 1
            offline_topics.add(table.topic[pid])
        if len(live) < need:
            under += 1
            under_topics.add(table.topic[pid])
        elif len(live) == need:
            at_min += 1
        urp += len(live) < len(table.replicas[pid])
    return Health(
        offline, under, urp, at_min, tuple(sorted(under_topics)), tuple(sorted(offline_topics))
    )


def test_refused_feature_update_changes_nothing() -> None:
    (t,) = run("- update-feature: {feature: metadata.version, level: 30}").transitions
    assert t.refused
    assert t.refusals[0].message == "Broker 1 only supports versions 7-27"
    assert t.after.metadata_version == 27


def test_binaries_then_metadata_version() -> None:
    sim = run(
        "- upgrade-binaries: {nodes: [1, 2, 3, 101, 102, 103], version: 4.3.0}\n"
        "- update-feature: {feature: metadata.version, level: 30}\n"
        "- update-feature: {feature: metadata.version, level: 27}\n"
    )
    upgrade, bump, down = sim.transitions
    assert upgrade.after.nodes[3].supported["metadata.version"] == (7, 30)
    assert bump.after.metadata_version == 30
    assert down.refusals[0].kind == "downgrade-blocked"
    assert down.refusals[0].message.startswith("Unsupported metadata.version downgrade from 30 to")
    assert down.after.metadata_version == 30


def test_enabling_elr_rewrites_min_isr_configs() -> None:
    snapshot = three_brokers(
        features={"metadata.version": {"level": 27}},
        configs={"brokers": {"2": {"min.insync.replicas": "3"}}},
    )
    (t,) = run("- update-feature: {release-version: '4.1'}", snapshot).transitions
    assert not t.refused
    assert t.after.elr_enabled
    assert t.facts == ElrRewriteFacts(cluster_value="1", removed_brokers=(2,))
    assert t.after.configs.cluster["min.insync.replicas"] == "1"
    assert "min.insync.replicas" not in t.after.configs.brokers[2]
    assert t.after.features["kraft.version"] == 1
    assert t.after.features["group.version"] == 1


def test_reassignment_sets_then_verify_clears_throttles() -> None:
    sim = run(
        "- add-broker: {id: 4}\n"
        "- reassign:\n"
        "    partitions: [{topic: orders, partition: 0, replicas: [1, 2, 4]}]\n"
        "    throttle: 500000\n"
        "- verify-reassignment: {wait: false}\n"
        "- verify-reassignment: {}\n"
    )
    _, start, early, done = sim.transitions
    assert start.after.throttles == {
        "broker:1:follower.replication.throttled.rate": "500000",
        "broker:1:leader.replication.throttled.rate": "500000",
        "broker:2:follower.replication.throttled.rate": "500000",
        "broker:2:leader.replication.throttled.rate": "500000",
        "broker:3:follower.replication.throttled.rate": "500000",
        "broker:3:leader.replication.throttled.rate": "500000",
        "broker:4:follower.replication.throttled.rate": "500000",
        "broker:4:leader.replication.throttled.rate": "500000",
        "topic:orders:follower.replication.throttled.replicas": "0:4",
        "topic:orders:leader.replication.throttled.replicas": "0:1,0:2,0:3",
    }
    assert start.after.bytes_to_move == 1073741824
    assert early.facts == VerifyFacts(kept_because="reassignments are still in progress")
    assert early.after.throttles == start.after.throttles
    assert done.after.throttles == {}
    assert done.after.moves == {}
    pid = done.after.table.pid_of[("orders", 0)]
    assert done.after.table.replicas[pid] == (1, 2, 4)


def test_existing_reassignment_needs_additional() -> None:
    sim = run(
        "- add-broker: {id: 4}\n"
        "- reassign: {partitions: [{topic: orders, partition: 0, replicas: [1, 2, 4]}]}\n"
        "- reassign: {partitions: [{topic: orders, partition: 1, replicas: [2, 3, 4]}]}\n"
    )
    assert sim.transitions[2].refusals[0].message.startswith("Cannot execute because there is")


def test_decommission_and_unknown_nodes() -> None:
    (t,) = run("- decommission-broker: {brokers: [3]}").transitions
    assert 3 not in t.after.brokers
    assert t.after.out_of_isr == {3}
    assert isinstance(t.facts, DecommissionFacts)
    assert len(t.facts.holding[3]) == 9
    with pytest.raises(ClusterInputError, match=r"plan.yml:2: step 2 \(restart\): node 9"):
        run("- add-broker: {id: 4}\n- restart: {nodes: [9]}")


def test_created_topics_get_unfenced_leaders() -> None:
    sim = run("- create-topic: {topic: new, partitions: 4, replication-factor: 2}")
    table = sim.final.table
    pids = table.pids_of_topic["new"]
    assert [table.replicas[p] for p in pids] == [(1, 2), (2, 3), (3, 1), (1, 3)]
    assert all(table.isr[p] == table.replicas[p] for p in pids)


def test_topic_creation_during_a_restart_counts_brokers_shutting_down() -> None:
    sim = run(
        "- rolling-restart: {}\n"
        "- create-topic: {topic: e, partitions: 1, replication-factor: 3, during-restart: true}"
    )
    create = sim.transitions[1]
    assert create.refusals[0].kind == "replication-factor"
    assert isinstance(create.facts, CreateFacts)
    assert create.facts.usable == (2, 3)


def test_unclean_election_elects_a_live_replica() -> None:
    snapshot = three_brokers(
        topics=[
            {
                "name": "t",
                "partitions": [{"partition": 0, "replicas": [1, 2], "leader": 1, "isr": [1]}],
            }
        ]
    )
    sim = run("- decommission-broker: {brokers: [1]}\n- elect-leaders: {type: unclean}", snapshot)
    elect = sim.transitions[1]
    assert elect.facts == ElectFacts(unclean=(0,))
    assert elect.after.table.isr[0] == (2,)


def test_summaries() -> None:
    sim = run(
        "- restart: {nodes: [1, 2]}\n- update-feature: {feature: metadata.version, level: 30}"
    )
    first, restart, bump = sim.summaries()
    assert first.step is None
    assert first.action == "snapshot"
    assert restart.step == 0
    assert restart.line == 1
    assert restart.worst_under_min_isr == 9
    assert restart.under_min_isr == 0
    assert bump.refused == ("Broker 1 only supports versions 7-27",)
    assert bump.features["metadata.version"] == 27
    assert first.model_dump()["voters"] == (101, 102, 103)


def test_a_node_that_cannot_register_stays_down() -> None:
    sim = run(
        "- upgrade-binaries: {nodes: [1], version: 4.0.0}\n"
        "- restart: {nodes: [2]}\n"
        "- add-broker: {id: 4, version: 3.9.0}\n"
    )
    rollback, restart, add = sim.transitions
    assert [r.kind.value for r in rollback.refusals] == ["registration"]
    assert rollback.refusals[0].node == 1
    assert 1 in rollback.after.down
    assert 1 in rollback.after.out_of_isr
    assert rollback.after.nodes[1].version == "4.0.0"
    # broker 1 never came back, so restarting broker 2 leaves partitions under min ISR
    assert restart.worst is not None
    assert restart.worst.health.under_min_isr > 0
    assert {r.feature for r in add.refusals} >= {"metadata.version"}
    assert 4 not in add.after.nodes


def test_describe_ranges_stand_for_the_nodes_the_plan_does_not_upgrade() -> None:
    data = yaml.safe_load(Path(THREE).read_text(encoding="utf-8"))
    for node in data["nodes"]:
        node.pop("software_version")
    sim = run(
        "- upgrade-binaries: {nodes: [1, 2, 101, 102, 103], version: 4.3.0}\n"
        "- update-feature: {feature: metadata.version, level: 4.3-IV0}\n",
        Snapshot.model_validate(data),
    )
    _, bump = sim.transitions
    assert [(r.kind.value, r.node) for r in bump.refusals] == [("not-supported", 3)]
    assert bump.after.metadata_version == 27


def test_a_broker_that_cannot_register_is_still_down_for_the_rest_of_the_roll() -> None:
    sim = run("- upgrade-binaries: {nodes: [1, 2, 3], version: 4.0.0}")
    (t,) = sim.transitions
    assert [o.down for o in t.outages] == [{1}, {1, 2}, {1, 2, 3}]
    assert t.outages[1].health.under_min_isr == 9
    assert t.after.down == {1, 2, 3}
