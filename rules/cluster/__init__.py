"""Cluster change rules: one module per rule; this tuple is the catalogue of this half.

``cluster-step`` rules receive one :class:`~cluster_engine.simulate.Transition` (the step and
the state before and after it); ``cluster`` rules receive the whole
:class:`~cluster_engine.simulate.Simulation`; ``cluster-apps`` rules a
:class:`~rules.cluster._apps.ClusterApps` (the simulation and the apps' topologies).
:func:`rules.cluster.runner.run_cluster` runs them.
"""

from __future__ import annotations

from collections.abc import Mapping

from cluster_engine.controller import RefusalKind
from rules.cluster.broker_added_without_reassignment import broker_added_without_reassignment
from rules.cluster.cancel_requires_unclean_election import cancel_requires_unclean_election
from rules.cluster.config_value_invalid import config_value_invalid
from rules.cluster.controller_not_caught_up import controller_lag_unknown, controller_not_caught_up
from rules.cluster.controller_removed_while_leading import controller_removed_while_leading
from rules.cluster.decommission_before_drain import decommission_before_drain
from rules.cluster.decommission_overlap import decommission_overlap
from rules.cluster.disk_usage_high import disk_usage_high
from rules.cluster.elr_broker_min_isr_refused import elr_broker_min_isr_refused
from rules.cluster.elr_cluster_min_isr_removal_refused import elr_cluster_min_isr_removal_refused
from rules.cluster.elr_enable_rewrites_min_isr import elr_enable_rewrites_min_isr
from rules.cluster.elr_state_cleared import elr_state_cleared
from rules.cluster.facts_not_captured import facts_not_captured
from rules.cluster.feature_dependency_unmet import feature_dependency_unmet
from rules.cluster.feature_update_refused import feature_update_refused
from rules.cluster.metadata_version_downgrade_blocked import metadata_version_downgrade_blocked
from rules.cluster.metadata_version_irreversible import metadata_version_irreversible
from rules.cluster.metadata_version_unsupported import metadata_version_unsupported
from rules.cluster.metadata_version_unverified import metadata_version_unverified
from rules.cluster.min_isr_not_below_rf import min_isr_not_below_rf
from rules.cluster.node_cannot_register import node_cannot_register
from rules.cluster.partitions_added_keyed import partitions_added_keyed
from rules.cluster.quorum_change_refused import quorum_change_refused
from rules.cluster.quorum_change_unsupported import quorum_change_unsupported
from rules.cluster.quorum_concurrent_changes import quorum_concurrent_changes
from rules.cluster.quorum_even_size import quorum_even_size
from rules.cluster.quorum_static_config import quorum_static_config
from rules.cluster.reassignment_duration import reassignment_duration
from rules.cluster.reassignment_refused import reassignment_refused
from rules.cluster.reassignment_unthrottled import reassignment_unthrottled
from rules.cluster.release_version_side_effects import release_version_side_effects
from rules.cluster.restart_breaks_min_isr import restart_breaks_min_isr
from rules.cluster.restart_loses_quorum import restart_loses_quorum
from rules.cluster.restart_unavoidable_outage import restart_unavoidable_outage
from rules.cluster.restart_without_urp_wait import restart_without_urp_wait
from rules.cluster.throttle_below_produce_rate import throttle_below_produce_rate
from rules.cluster.throttle_left_behind import throttle_left_behind
from rules.cluster.throttle_removed_mid_reassignment import throttle_removed_mid_reassignment
from rules.cluster.throttle_too_low import throttle_too_low
from rules.cluster.topic_change_refused import topic_change_refused
from rules.cluster.topic_creation_insufficient_brokers import topic_creation_insufficient_brokers
from rules.cluster.unclean_election_enabled import unclean_election_enabled
from rules.cluster.unclean_election_enabled_leaderless import unclean_election_enabled_leaderless
from rules.cluster.unclean_election_planned import unclean_election_planned
from rules.framework import Rule

CLUSTER_RULES: tuple[Rule, ...] = (
    metadata_version_unsupported,
    metadata_version_downgrade_blocked,
    metadata_version_irreversible,
    feature_dependency_unmet,
    release_version_side_effects,
    throttle_too_low,
    reassignment_unthrottled,
    throttle_left_behind,
    throttle_removed_mid_reassignment,
    cancel_requires_unclean_election,
    restart_breaks_min_isr,
    restart_without_urp_wait,
    decommission_before_drain,
    decommission_overlap,
    broker_added_without_reassignment,
    quorum_change_unsupported,
    quorum_concurrent_changes,
    quorum_even_size,
    quorum_static_config,
    unclean_election_enabled,
    unclean_election_planned,
    elr_broker_min_isr_refused,
    elr_cluster_min_isr_removal_refused,
    elr_state_cleared,
    elr_enable_rewrites_min_isr,
    topic_creation_insufficient_brokers,
    min_isr_not_below_rf,
    disk_usage_high,
    reassignment_duration,
    restart_loses_quorum,
    partitions_added_keyed,
    throttle_below_produce_rate,
    unclean_election_enabled_leaderless,
    controller_not_caught_up,
    controller_lag_unknown,
    controller_removed_while_leading,
    restart_unavoidable_outage,
    facts_not_captured,
    metadata_version_unverified,
    node_cannot_register,
    reassignment_refused,
    topic_change_refused,
    quorum_change_refused,
    feature_update_refused,
    config_value_invalid,
)

# Which rules report each refusal the simulator can produce (any one of them, at the refused
# step, as an error); tests/rules/cluster/test_refusals.py holds that every kind is here.
REFUSAL_RULES: Mapping[RefusalKind, tuple[Rule, ...]] = {
    RefusalKind.UNKNOWN_LEVEL: (metadata_version_unsupported,),
    RefusalKind.NOT_SUPPORTED: (metadata_version_unsupported, feature_update_refused),
    RefusalKind.DOWNGRADE_BLOCKED: (metadata_version_downgrade_blocked,),
    RefusalKind.UNSAFE_DOWNGRADE: (metadata_version_downgrade_blocked,),
    RefusalKind.DEPENDENCY: (feature_dependency_unmet,),
    RefusalKind.KRAFT_DOWNGRADE: (feature_update_refused,),
    RefusalKind.REGISTRATION: (node_cannot_register,),
    RefusalKind.INVALID_CONFIG: (config_value_invalid,),
    RefusalKind.ELR_BROKER_MIN_ISR: (elr_broker_min_isr_refused,),
    RefusalKind.ELR_CLUSTER_MIN_ISR_REMOVAL: (elr_cluster_min_isr_removal_refused,),
    RefusalKind.EXISTING_REASSIGNMENT: (reassignment_refused,),
    RefusalKind.UNKNOWN_BROKER: (reassignment_refused,),
    RefusalKind.UNKNOWN_PARTITION: (reassignment_refused,),
    RefusalKind.CANCEL_UNCLEAN: (cancel_requires_unclean_election,),
    RefusalKind.KRAFT_VERSION_0: (quorum_change_unsupported,),
    RefusalKind.VOTER_CHANGE_PENDING: (quorum_concurrent_changes,),
    RefusalKind.DUPLICATE_VOTER: (quorum_change_refused,),
    RefusalKind.VOTER_NOT_FOUND: (quorum_change_refused,),
    RefusalKind.TOPIC_EXISTS: (topic_change_refused,),
    RefusalKind.PARTITION_COUNT: (topic_change_refused,),
    RefusalKind.REPLICATION_FACTOR: (topic_creation_insufficient_brokers,),
}
