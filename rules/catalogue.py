"""Every rule ksafe knows, both halves (plus the workflow rules), as one explicit tuple."""

from __future__ import annotations

from rules.cluster import CLUSTER_RULES
from rules.fleet import FLEET_RULES
from rules.framework import Rule
from rules.topology import TOPOLOGY_RULES
from rules.workflow import WORKFLOW_RULES

ALL_RULES: tuple[Rule, ...] = TOPOLOGY_RULES + CLUSTER_RULES + WORKFLOW_RULES + FLEET_RULES
