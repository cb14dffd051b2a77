"""Cluster x fleet: the partition changes of a change plan, as the fleet rules see them."""

from __future__ import annotations

from pathlib import Path

from cluster_engine.ingest.native import load_native
from cluster_engine.plan import AddPartitions, Plan, load_plan
from cluster_engine.snapshot import Snapshot
from linter.lineage import PartitionChange


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
    """A native snapshot (JSON or YAML, as ``ksafe cluster snapshot`` writes it), read and
    checked as ``ksafe cluster check`` reads it: the same located one-line errors."""
    return load_native(Path(path))


def load_changes(plan_path: str, snapshot_path: str | None) -> tuple[PartitionChange, ...]:
    plan = load_plan(plan_path)
    snapshot = load_snapshot(snapshot_path) if snapshot_path else None
    return partition_changes(plan, snapshot)
