"""KC105 facts-not-captured."""

from __future__ import annotations

from collections.abc import Iterator

from cluster_engine.knowledge import MIN_INSYNC_REPLICAS, UNCLEAN_LEADER_ELECTION
from cluster_engine.plan import (
    AddController,
    AddPartitions,
    AlterConfig,
    CreateTopic,
    DecommissionBroker,
    ElectLeaders,
    Reassign,
    RemoveController,
    Restart,
    RollingRestart,
    Step,
    UpdateFeature,
    UpgradeBinaries,
)
from cluster_engine.simulate import Simulation
from cluster_engine.snapshot import FactKind
from rules.cluster._common import CLUSTER, names, on_snapshot
from rules.framework import Hit, Impact, Resource, Severity, rule

# What is left unjudged without each kind of capture, and the command that captures it.
CAPTURE: dict[FactKind, tuple[str, str]] = {
    "topics": ("topic", "kafka-topics.sh --describe"),
    "quorum": ("quorum", "kafka-metadata-quorum.sh describe --status and --replication"),
    "features": ("feature", "kafka-features.sh describe"),
}


def needs(step: Step) -> tuple[FactKind, str] | None:
    """The kind of facts judging ``step`` needs, and what goes unjudged without it."""
    if isinstance(step, Restart | RollingRestart | UpgradeBinaries):
        return "topics", "whether partitions stay above min.insync.replicas while brokers restart"
    if isinstance(step, DecommissionBroker):
        return "topics", "whether the brokers still hold replicas"
    if isinstance(step, Reassign | AddPartitions | CreateTopic | ElectLeaders):
        return "topics", "the partitions this step changes"
    if isinstance(step, AlterConfig) and step.key in (MIN_INSYNC_REPLICAS, UNCLEAN_LEADER_ELECTION):
        return "topics", f"which partitions the new {step.key} affects"
    if isinstance(step, AddController | RemoveController):
        return "quorum", "the voters and whether the new controller has caught up"
    if isinstance(step, UpdateFeature):
        return "features", "the finalized feature levels this step changes"
    return None


@rule(
    id="KC105",
    name="facts-not-captured",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=CLUSTER,
)
def facts_not_captured(sim: Simulation) -> Iterator[Hit]:
    """The plan needs facts the snapshot was not given: those checks were not made.

    Why: a capture directory without ``kafka-topics.sh --describe`` output gives a snapshot
    with no topics, on which restarting two of three brokers breaks no partition; "no
    findings" would then mean "not checked", not "safe". The snapshot records which kinds of
    facts its captures gave (``facts``) and which files of the directory it did not read and
    why (``unread``: hidden files, subdirectories, files the system refused); each step whose
    checks need a missing kind is named here and in the verdict's note.

    Example:

        - restart: {nodes: [1, 2]}          # the capture directory has no topics output

    Fix: capture the missing output (``kafka-topics.sh --describe`` for topics) into the top
    of the capture directory and run the check again.
    """
    snap = sim.snapshot
    if snap.unread:
        listed = [f"{u.path} ({u.reason})" for u in snap.unread]
        yield on_snapshot(
            f"Files of the capture directory not read: {names(listed)}.",
            resources=[Resource(kind="file", name=u.path) for u in snap.unread],
            remediation="Put every capture at the top of the capture directory, readable.",
            key="unread",
            data={"unread": [u.model_dump() for u in snap.unread]},
        )
    missing: dict[FactKind, list[tuple[int, str, str]]] = {}
    for t in sim.transitions:
        need = needs(t.step)
        if need is not None and not snap.has(need[0]):
            missing.setdefault(need[0], []).append((t.index + 1, t.step.action, need[1]))
    for kind, steps in missing.items():
        what, command = CAPTURE[kind]
        where = ", ".join(f"{n} ({action})" for n, action, _ in steps)
        unknown = sorted({u for _, _, u in steps})
        yield on_snapshot(
            f"not checked: no {what} capture: the snapshot has no {command} output, so "
            f"{'; '.join(unknown)} at step(s) {where} are unknown; no finding about them "
            "means they were not checked.",
            resources=[Resource(kind="capture", name=kind)],
            remediation=f"Capture {command} into the capture directory and check again.",
            key=kind,
            data={
                "not_checked": f"not checked: no {what} capture, step(s) {where}",
                "steps": [n for n, _, _ in steps],
            },
        )
