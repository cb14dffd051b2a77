"""Topology rules: one module per rule; this tuple is the catalogue of this half.

KS1xx judge one topology (``ksafe lint``), KS2xx a diff of two (``ksafe diff``), KS3xx a diff of
two Streams configurations (``ksafe diff --config-before/--config-after``).
"""

from __future__ import annotations

from rules.framework import Rule
from rules.topology.application_id_changed import application_id_changed
from rules.topology.generated_processor_name import generated_processor_name
from rules.topology.generated_repartition_topic import generated_repartition_topic
from rules.topology.generated_store_name import generated_store_name
from rules.topology.global_store_changed import global_store_changed
from rules.topology.group_instance_id_changed import group_instance_id_changed
from rules.topology.group_protocol_changed import group_protocol_changed
from rules.topology.key_change_before_stateful import key_change_before_stateful
from rules.topology.key_change_unverified import key_change_unverified
from rules.topology.known_bad_release import known_bad_release
from rules.topology.optimization_unverified import optimization_unverified
from rules.topology.processing_guarantee_changed import processing_guarantee_changed
from rules.topology.repartition_topic_removed import repartition_topic_removed
from rules.topology.sink_topic_changed import sink_topic_changed
from rules.topology.source_topics_changed import source_topics_changed
from rules.topology.state_dir_changed import state_dir_changed
from rules.topology.store_added import store_added
from rules.topology.store_moved_subtopology import store_moved_subtopology
from rules.topology.store_owner_changed import store_owner_changed
from rules.topology.store_removed import store_removed
from rules.topology.store_renamed import store_renamed
from rules.topology.store_replaced import store_replaced
from rules.topology.streams_config_changed import streams_config_changed
from rules.topology.streams_downgrade import streams_downgrade
from rules.topology.streams_start_refused import streams_start_refused
from rules.topology.subtopology_removed import subtopology_removed
from rules.topology.topology_optimization_changed import topology_optimization_changed
from rules.topology.unexplained_change import unexplained_change
from rules.topology.upgrade_from_required import upgrade_from_required

TOPOLOGY_RULES: tuple[Rule, ...] = (
    generated_store_name,
    generated_repartition_topic,
    generated_processor_name,
    store_renamed,
    store_removed,
    store_replaced,
    store_moved_subtopology,
    subtopology_removed,
    repartition_topic_removed,
    key_change_before_stateful,
    key_change_unverified,
    source_topics_changed,
    sink_topic_changed,
    global_store_changed,
    store_added,
    store_owner_changed,
    unexplained_change,
    application_id_changed,
    topology_optimization_changed,
    optimization_unverified,
    upgrade_from_required,
    processing_guarantee_changed,
    group_instance_id_changed,
    state_dir_changed,
    streams_config_changed,
    streams_downgrade,
    known_bad_release,
    group_protocol_changed,
    streams_start_refused,
)
