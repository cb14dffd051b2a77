"""Rules about how ksafe is used rather than about Kafka: acknowledgements that went stale or
expired, and topology files deleted between two revisions. One module per concern."""

from __future__ import annotations

from rules.framework import Rule
from rules.workflow.acknowledgements import acknowledgement_expired, acknowledgement_unused
from rules.workflow.file_deleted import topology_file_deleted

WORKFLOW_RULES: tuple[Rule, ...] = (
    acknowledgement_unused,
    acknowledgement_expired,
    topology_file_deleted,
)
