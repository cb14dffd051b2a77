"""The change plan loader: step kinds, lines, reassignment files, located errors."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from cluster_engine.errors import ClusterInputError
from cluster_engine.plan import (
    ACTIONS,
    AlterConfig,
    Plan,
    Reassign,
    RollingRestart,
    UpdateFeature,
    load_plan,
    parse_plan,
)

EVERY_KIND = """\
description: every step kind
steps:
  - upgrade-binaries: {nodes: [1, 2, 3], version: 4.3.0}
  - restart: {nodes: [1]}
  - rolling-restart: {at-once: 2, wait-for-urp: false}
  - update-feature: {feature: metadata.version, level: 4.3-IV0}
  - update-feature: {release-version: "4.1"}
  - alter-config: {scope: topic, entity: orders, key: retention.ms, value: 1000}
  - reassign:
      partitions: [{topic: orders, partition: 0, replicas: [1, 2, 4]}]
      throttle: 50000000
  - verify-reassignment: {preserve-throttles: true}
  - cancel-reassignment:
  - add-broker: {id: 4, rack: a}
  - decommission-broker: {brokers: 3}
  - add-controller: {id: 104, wait: false}
  - remove-controller: {id: 101}
  - elect-leaders: {type: unclean, topics: [orders]}
  - create-topic: {topic: t, partitions: 3, replication-factor: 3, configs: {retention.ms: 1}}
  - add-partitions: {topic: t, partitions: 6}
  - action: alter-config
    scope: cluster
    key: min.insync.replicas
    delete: true
"""


def test_every_step_kind_with_its_line() -> None:
    plan = parse_plan(EVERY_KIND, "plan.yml")
    assert plan.description == "every step kind"
    assert {s.action for s in plan.steps} == set(ACTIONS)
    assert [s.index for s in plan.steps] == list(range(len(plan.steps)))
    assert [s.line for s in plan.steps][:4] == [3, 4, 5, 6]
    assert plan.steps[-1].line == 21
    roll = plan.steps[2]
    assert isinstance(roll, RollingRestart)
    assert (roll.at_once, roll.wait_for_urp, roll.nodes) == (2, False, None)
    mv = plan.steps[3]
    assert isinstance(mv, UpdateFeature)
    assert mv.target_level == 30
    release = plan.steps[4]
    assert isinstance(release, UpdateFeature)
    assert release.target_level == 27
    config = plan.steps[5]
    assert isinstance(config, AlterConfig)
    assert config.value == "1000"
    assert plan.steps[10].brokers == (3,)  # type: ignore[union-attr]


def test_a_bare_list_is_a_plan() -> None:
    plan = parse_plan("- rolling-restart: {}\n- restart: {nodes: [2]}\n")
    assert [s.action for s in plan.steps] == ["rolling-restart", "restart"]
    assert parse_plan("[]").steps == ()


def test_reassignment_file_relative_to_the_plan(tmp_path: Path) -> None:
    moves = {"version": 1, "partitions": [{"topic": "a", "partition": 0, "replicas": [1, 2]}]}
    (tmp_path / "moves").mkdir()
    (tmp_path / "moves" / "m.json").write_text(json.dumps(moves), encoding="utf-8")
    (tmp_path / "plan.yml").write_text(
        "- reassign: {file: moves/m.json, throttle: 1000000}\n", encoding="utf-8"
    )
    step = load_plan(tmp_path / "plan.yml").steps[0]
    assert isinstance(step, Reassign)
    assert step.partitions[0].replicas == (1, 2)
    assert step.throttle == 1000000


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("- restart: {nodes: [1], foo: 2}", "p.yml:1", "unknown key 'foo'"),
        ("- restat: {nodes: [1]}", "p.yml:1", "did you mean 'restart'"),
        ("- restart:\n    nodes: [1, x]", "p.yml:2", "nodes.1"),
        ("- restart: {nodes: [1, 1]}", "p.yml:1", "lists a node twice"),
        ("- restart: {}", "p.yml:1", "nodes"),
        ("- rolling-restart: {at-once: 0}", "p.yml:1", "at-once"),
        ("- alter-config: {scope: cluster, key: a}", "p.yml:1", "value or delete"),
        ("- alter-config: {scope: broker, entity: x, key: a, value: 1}", "p.yml:1", "broker id"),
        ("- alter-config: {scope: topic, key: a, value: 1}", "p.yml:1", "needs an entity"),
        ("- update-feature: {feature: metadata.version}", "p.yml:1", "needs a level"),
        ("- update-feature: {feature: group.version, level: -1}", "p.yml:1", "less than 0"),
        ("- update-feature: {release-version: banana}", "p.yml:1", "unknown release-version"),
        ("- update-feature: {level: 3}", "p.yml:1", "either feature"),
        ("- reassign: {throttle: 5}", "p.yml:1", "JSON file or inline partitions"),
        (
            "- reassign:\n    partitions: [{topic: a, partition: 0, replicas: [1, 1]}]",
            "p.yml:2",
            "duplicate brokers",
        ),
        ("- create-topic: {topic: t, partitions: 0}", "p.yml:1", "partitions"),
        ("- [1]", "p.yml:1", "expected a mapping"),
        ("- {restart: {nodes: [1]}, add-broker: {id: 4}}", "p.yml:1", "one step kind"),
        ("steps: 3", "p.yml:1", "expected a list of steps"),
        ("foo: []", "p.yml:1", "unknown key 'foo'"),
        ("", "p.yml", "the plan is empty"),
        ("- [1", "p.yml:1:5", "not valid YAML"),
        ("- upgrade-binaries: {nodes: [1], version: x}", "p.yml:1", "'x' is not a Kafka release"),
        ("- add-broker: {id: 4, version: latest}", "p.yml:1", "not a Kafka release"),
        ("- restart:\n    nodes: [1, true]", "p.yml:2", "nodes.1: expected an id, got the boolean"),
        ("- add-broker: {id: yes}", "p.yml:1", "id: expected an id, got the boolean true"),
        ("- remove-controller: {id: false}", "p.yml:1", "got the boolean false"),
        ("- update-feature: {feature: group.version, level: true}", "p.yml:1", "the boolean"),
        (
            "- reassign:\n    partitions: [{topic: a, partition: 0, replicas: [1, true]}]",
            "p.yml:2",
            "got the boolean true",
        ),
    ],
)
def test_located_errors(text: str, where: str, message: str) -> None:
    with pytest.raises(ClusterInputError) as info:
        parse_plan(text, "p.yml")
    assert str(info.value).startswith(where + ":"), str(info.value)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"version": 2, "partitions": []}', "Not supported version field value 2"),
        ('{"version": 1, "partitions": []}', "Partition reassignment list cannot be empty"),
        ('{"partitions": 3}', "expected"),
        ("{", "not valid JSON"),
    ],
)
def test_bad_reassignment_files(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "m.json").write_text(content, encoding="utf-8")
    with pytest.raises(ClusterInputError, match=message):
        parse_plan("- reassign: {file: m.json}", "p.yml", base_dir=tmp_path)


def test_missing_reassignment_file_points_at_the_plan_line(tmp_path: Path) -> None:
    with pytest.raises(ClusterInputError) as info:
        parse_plan("- rolling-restart: {}\n- reassign: {file: nope.json}", "p.yml", tmp_path)
    assert str(info.value).startswith(f"p.yml:2: cannot read nope.json ({tmp_path / 'nope.json'})")


def test_log_dirs_must_match_replicas() -> None:
    text = '- reassign: {partitions: [{topic: a, partition: 0, replicas: [1, 2], log_dirs: [any]}]}'
    with pytest.raises(ClusterInputError, match="Size of replicas list"):
        parse_plan(text, "p.yml")


def test_canonical_form_validates_against_the_published_schema() -> None:
    plan = parse_plan(EVERY_KIND, "plan.yml")
    schema = Plan.model_json_schema(by_alias=True)
    document = plan.model_dump(mode="json", by_alias=True)
    jsonschema.validate(document, schema)
    again = Plan.model_validate(yaml.safe_load(yaml.safe_dump(document)))
    assert again == plan


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
