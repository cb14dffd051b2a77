"""The change plan: an ordered list of typed steps read from YAML, each knowing its line.

A plan is a YAML list of steps (or a mapping with ``steps:`` and an optional ``description:``).
Each step is either a one-key mapping, ``- restart: {nodes: [1, 2]}``, or carries its kind in
``action:``, ``- action: restart`` + fields. Keys are kebab-case, as on the Kafka tools' command
lines. Unknown keys and impossible values are :class:`ClusterInputError` with ``path:line``.

The model is in :mod:`cluster_engine.plan_steps`, the reader in :mod:`cluster_engine.plan_load`.
"""

from __future__ import annotations

from cluster_engine.plan_load import load_plan, parse_plan
from cluster_engine.plan_steps import (
    ACTIONS,
    AddBroker,
    AddController,
    AddPartitions,
    AlterConfig,
    CancelReassignment,
    CreateTopic,
    DecommissionBroker,
    ElectLeaders,
    Move,
    Plan,
    Reassign,
    RemoveController,
    Restart,
    RollingRestart,
    Step,
    UpdateFeature,
    UpgradeBinaries,
    VerifyReassignment,
)

__all__ = [
    "ACTIONS",
    "AddBroker",
    "AddController",
    "AddPartitions",
    "AlterConfig",
    "CancelReassignment",
    "CreateTopic",
    "DecommissionBroker",
    "ElectLeaders",
    "Move",
    "Plan",
    "Reassign",
    "RemoveController",
    "Restart",
    "RollingRestart",
    "Step",
    "UpdateFeature",
    "UpgradeBinaries",
    "VerifyReassignment",
    "load_plan",
    "parse_plan",
]
