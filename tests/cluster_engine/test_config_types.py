"""Config values Kafka's ConfigDef refuses, with its message."""

from __future__ import annotations

import pytest

from cluster_engine.config_types import invalid_config_value


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("min.insync.replicas", "abc", "Not a number of type INT"),
        ("min.insync.replicas", "-1", "Value must be at least 1"),
        ("min.insync.replicas", "0", "Value must be at least 1"),
        ("min.insync.replicas", "2.5", "Not a number of type INT"),
        ("min.insync.replicas", "", "Not a number of type INT"),
        ("min.insync.replicas", "3000000000", "Not a number of type INT"),
        ("unclean.leader.election.enable", "yes", "Expected value to be either true or false"),
        ("retention.ms", "-2", "Value must be at least -1"),
        ("leader.replication.throttled.rate", "1e6", "Not a number of type LONG"),
        ("min.cleanable.dirty.ratio", "1.5", "Value must be no more than 1"),
        ("message.timestamp.type", "create", "String must be one of: CreateTime, LogAppendTime"),
    ],
)
def test_refused(key: str, value: str, message: str) -> None:
    assert invalid_config_value(key, value) == (
        f"Invalid value {value} for configuration {key}: {message}"
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("min.insync.replicas", "2"),
        ("min.insync.replicas", " 2 "),
        ("min.insync.replicas", "+2"),
        ("unclean.leader.election.enable", "TRUE"),
        ("retention.ms", "-1"),
        ("retention.bytes", "-1"),
        ("min.cleanable.dirty.ratio", "0.5"),
        ("follower.replication.throttled.rate", "9223372036854775807"),
        ("a.config.not.in.the.table", "anything"),
    ],
)
def test_accepted(key: str, value: str) -> None:
    assert invalid_config_value(key, value) is None
