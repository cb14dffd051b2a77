"""Regression tests for bugs the hardening suite found, one per bug, named after what it was."""

from __future__ import annotations

from pathlib import Path

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
