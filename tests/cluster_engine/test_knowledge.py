"""The knowledge tables: levels, downgrade walks, feature defaults, node ranges."""

from __future__ import annotations

import pytest

from cluster_engine import knowledge as k


def test_metadata_version_table_covers_7_to_33_in_order() -> None:
    levels = [mv.level for mv in k.METADATA_VERSIONS]
    assert levels == list(range(7, 34))
    assert k.MV_BY_LEVEL[7].name == "3.3-IV3"
    assert k.MV_BY_LEVEL[30].name == "4.3-IV0"
    assert all(mv.source for mv in k.METADATA_VERSIONS)
    changed = {mv.level for mv in k.METADATA_VERSIONS if mv.did_metadata_change}
    assert changed == {7, 8, 11, 13, 14, 15, 17, 23, 30, 32, 33}


@pytest.mark.parametrize(
    ("release", "level"),
    [("3.7", 19), ("3.9", 21), ("4.0", 25), ("4.1", 27), ("4.2", 29), ("4.3", 30)],
)
def test_latest_production(release: str, level: int) -> None:
    assert k.LATEST_PRODUCTION[release] == level
    assert k.latest_production_of(f"{release}.1") == level


@pytest.mark.parametrize(
    ("text", "level"),
    [(30, 30), ("30", 30), ("4.3-IV0", 30), ("4.1", 27), ("4.1.2", 27), ("nope", None)],
)
def test_parse_metadata_version(text: str | int, level: int | None) -> None:
    assert k.parse_metadata_version(text) == level


@pytest.mark.parametrize(
    ("current", "lowest"),
    [(7, 7), (10, 8), (12, 11), (16, 15), (20, 17), (22, 17), (23, 23), (29, 23), (30, 30),
     (31, 30), (33, 33)],
)  # fmt: skip
def test_lowest_reachable_matches_cluster_facts(current: int, lowest: int) -> None:
    assert k.lowest_reachable(current) == lowest


def test_downgrade_blocker() -> None:
    blocker = k.downgrade_blocker(30, 27)
    assert blocker is not None
    assert blocker.level == 30
    assert k.downgrade_blocker(29, 27) is None
    assert k.downgrade_blocker(29, 22) is not None  # 23 changed metadata


@pytest.mark.parametrize(
    ("mv", "expected"),
    [
        (21, {"group.version": 0, "transaction.version": 0, "kraft.version": 1}),
        (25, {"group.version": 1, "transaction.version": 2,
              "eligible.leader.replicas.version": 0, "share.version": 0}),
        (27, {"eligible.leader.replicas.version": 1, "share.version": 0, "streams.version": 0}),
        (29, {"share.version": 1, "streams.version": 1}),
        (33, {"share.version": 2, "streams.version": 1}),
    ],
)  # fmt: skip
def test_release_version_defaults(mv: int, expected: dict[str, int]) -> None:
    levels = k.release_version_levels(mv)
    assert levels["metadata.version"] == mv
    for name, level in expected.items():
        assert levels[name] == level, name


def test_elr_depends_on_metadata_version_23() -> None:
    assert k.feature_dependencies("eligible.leader.replicas.version", 1) == {
        "metadata.version": 23
    }
    assert k.feature_dependencies("group.version", 1) == {"metadata.version": 7}
    assert k.feature_dependencies("group.version", 0) == {}
    elr = "eligible.leader.replicas.version"
    message = k.msg_feature_dependency(elr, 1, "metadata.version", 23)
    assert message == (
        "eligible.leader.replicas.version could not be set to 1 because it depends on "
        "metadata.version=23 (4.0-IV1)"
    )


def test_supported_ranges() -> None:
    assert k.supported_range("metadata.version", "4.1.0") == (7, 27)
    assert k.supported_range("streams.version", "4.1.0") is None  # latestProduction 0
    assert k.supported_range("streams.version", "4.2.0") == (0, 1)
    assert k.supported_range("kraft.version", "4.0.0") == (0, 1)
    assert k.supported_range("group.version", "3.9.0") is None


def test_config_defaults_cite_sources() -> None:
    assert k.CONFIG_DEFAULTS["min.insync.replicas"].default == "1"
    assert k.CONFIG_DEFAULTS["unclean.leader.election.enable"].default == "false"
    assert all(c.source for c in k.CONFIG_DEFAULTS.values())


def test_controller_messages() -> None:
    assert k.msg_invalid_mv(27, k.MSG_DOWNGRADE_REFUSED) == (
        "Invalid metadata.version 27. Refusing to perform the requested downgrade because it "
        "might delete metadata information."
    )
    assert k.msg_rf_unreachable(3, 2) == (
        "Unable to replicate the partition 3 time(s): The target replication factor of 3 "
        "cannot be reached because only 2 broker(s) are registered."
    )
