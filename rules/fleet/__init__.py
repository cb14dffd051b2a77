"""Fleet rules: what only the whole fleet's topic graph shows (one module per rule).

They judge a :class:`~linter.lineage.FleetGraph`, never a single topology.
"""

from __future__ import annotations

from rules.fleet.internal_topic_collision import internal_topic_collision
from rules.fleet.partitions_added_stateful import partitions_added_stateful
from rules.fleet.topic_without_consumer import topic_without_consumer
from rules.fleet.topic_without_producer import topic_without_producer
from rules.fleet.upstream_key_change import upstream_key_change
from rules.framework import Rule

FLEET_RULES: tuple[Rule, ...] = (
    upstream_key_change,
    internal_topic_collision,
    topic_without_producer,
    topic_without_consumer,
    partitions_added_stateful,
)

PLAN_RULES: tuple[Rule, ...] = (partitions_added_stateful,)
"""The fleet rules that judge a cluster plan's partition changes: each finding is about one app,
from all of that app's facts (whether it keeps state anywhere, all its internal topics), so the
fleet job judges them app by app, not on its slices of one topic."""
