"""Streams ``.properties`` parsing and the config diff."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.topology.streams_config import (
    StreamsConfigError,
    diff_configs,
    parse_properties,
)


def test_properties_syntax() -> None:
    cfg = parse_properties(
        "# comment\n"
        "! also a comment\n"
        "application.id = orders\n"
        "state.dir:/var/ks\n"
        "num.stream.threads 4\n"
        "long.value = a,\\\n"
        "    b\n"
        "escaped\\ key=tab\\there \\u0041\n"
        "application.id=orders-v2\n",
        "app.properties",
    )
    assert cfg.application_id == "orders-v2"  # the last one wins, as in Java
    assert cfg.get("application.id").line == 9  # type: ignore[union-attr]
    assert cfg.state_dir == "/var/ks"
    assert cfg.value("num.stream.threads") == "4"
    assert cfg.value("long.value") == "a,b"
    assert cfg.value("escaped key") == "tab\there A"
    assert cfg.get("long.value").line == 6  # type: ignore[union-attr]


def test_optimizations() -> None:
    assert parse_properties("topology.optimization=all").optimizations() == {
        "reuse.ktable.source.topics", "merge.repartition.topics", "single.store.self.join"
    }
    assert parse_properties("topology.optimization=none").optimizations() == frozenset()
    assert parse_properties("").optimizations() == frozenset()
    assert parse_properties(
        "topology.optimization=merge.repartition.topics, reuse.ktable.source.topics"
    ).optimizations() == {"merge.repartition.topics", "reuse.ktable.source.topics"}


@pytest.mark.parametrize(
    ("value", "message"),
    [("all,merge.repartition.topics", "not a valid optimization"), ("fast", "unknown")],
)
def test_invalid_optimizations_are_located(value: str, message: str) -> None:
    cfg = parse_properties(f"application.id=a\ntopology.optimization={value}\n", "s.properties")
    with pytest.raises(StreamsConfigError, match=message) as err:
        cfg.optimizations()
    assert str(err.value).startswith("s.properties:2:1:")


def test_malformed_unicode_escape() -> None:
    with pytest.raises(StreamsConfigError, match=r"x.properties:1:\d+: malformed"):
        parse_properties("key=\\u00G1\n", "x.properties")


def test_diff_lists_changed_keys_only() -> None:
    before = parse_properties("a=1\nb=2\nc=3\n")
    after = parse_properties("a=1\nb= 2 \nc=4\nd=5\n")
    d = diff_configs(before, after, version_before="3.4", version_after="3.8")
    assert [c.key for c in d.changes] == ["c", "d"]
    assert d.change("d") is not None
    assert d.change("d").before is None  # type: ignore[union-attr]
    assert d.version_after == "3.8"


def test_regression_streams_properties_invalid_utf8_raised_unicode_decode_error(
    tmp_path: Path,
) -> None:
    from linter.topology.errors import TopologyParseError
    from linter.topology.streams_config import parse_properties_file

    path = tmp_path / "app.properties"
    path.write_bytes(b"application.id=orders\n# caf\xe9\n")
    with pytest.raises(TopologyParseError, match=r"app\.properties:2:"):
        parse_properties_file(path)


def test_regression_streams_properties_utf16_with_bom_was_not_read(tmp_path: Path) -> None:
    from linter.topology.streams_config import parse_properties_file

    path = tmp_path / "app.properties"
    path.write_bytes("application.id=orders\n".encode("utf-16"))
    assert parse_properties_file(path).value("application.id") == "orders"
