"""Cluster x fleet: the partition changes of a change plan, as the fleet rules see them."""

from __future__ import annotations

from pathlib import Path

import yaml

from cluster_engine.errors import ClusterInputError
from cluster_engine.plan import AddPartitions, Plan, load_plan
from cluster_engine.snapshot import Snapshot
from rules.fleet.graph import PartitionChange


def partition_changes(plan: Plan, snapshot: Snapshot | None = None) -> tuple[PartitionChange, ...]:
    """Every ``add-partitions`` step, with the topic's count before it (from the snapshot and the
    plan's earlier steps) when known."""
    counts = {t.name: t.partition_count for t in snapshot.topics} if snapshot else {}
    out: list[PartitionChange] = []
    for step in plan.steps:
        if isinstance(step, AddPartitions):
            out.append(
                PartitionChange(
                    topic=step.topic,
                    partitions=step.partitions,
                    step=step.index,
                    before=counts.get(step.topic),
                    line=step.line or None,
                    plan=plan.path,
                )
            )
            counts[step.topic] = step.partitions
    return tuple(out)


def load_snapshot(path: str | Path) -> Snapshot:
    """A native snapshot (JSON or YAML, as ``ksafe cluster snapshot`` writes it)."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        return Snapshot.model_validate(yaml.safe_load(text))
    except (yaml.YAMLError, ValueError) as error:
        raise ClusterInputError(str(path), None, f"not a cluster snapshot: {error}") from None


def load_changes(plan_path: str, snapshot_path: str | None) -> tuple[PartitionChange, ...]:
    plan = load_plan(plan_path)
    snapshot = load_snapshot(snapshot_path) if snapshot_path else None
    return partition_changes(plan, snapshot)
