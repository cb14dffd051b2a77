"""Turn the facts gathered by ``assemble`` into a validated ``Snapshot``."""

from __future__ import annotations

from typing import Any

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest.builder import Builder
from cluster_engine.snapshot import (
    Configs,
    Feature,
    Node,
    Quorum,
    QuorumMember,
    Reassignment,
    ReassignmentState,
    Role,
    Snapshot,
    Topic,
)


def build(b: Builder) -> Snapshot:
    f = b.facts
    _check_counts(b)
    _check_no_reassignments(b)
    _apply_plans(b)
    return Snapshot(
        cluster_id=f.get(("cluster-id",)),
        nodes=_nodes(b),
        features={
            name: Feature(
                level=f.get(("feature", name)),
                label=f.get(("feature-label", name)),
                supported_min=b.ranges[name][0] if name in b.ranges else None,
                supported_max=b.ranges[name][1] if name in b.ranges else None,
                epoch=f.get(("feature-epoch",)),
            )
            for name in sorted(b.feature_names)
        },
        vendor_features={name: f.get(("vendor", name)) for name in sorted(b.vendor)},
        quorum=_quorum(b),
        topics=_topics(b),
        configs=Configs(
            cluster_default=dict(sorted(b.configs["cluster"].get(None, {}).items())),
            brokers={k: dict(sorted(v.items())) for k, v in sorted(b.configs["broker"].items())},
            broker_static={
                k: dict(sorted(v.items())) for k, v in sorted(b.configs["static"].items())
            },
            topics={k: dict(sorted(v.items())) for k, v in sorted(b.configs["topic"].items())},
        ),
        reassignments=_reassignments(b),
        log_dirs=tuple(b.log_dirs[k] for k in sorted(b.log_dirs)),
    )


def _check_counts(b: Builder) -> None:
    listed = b.partitions.counts()
    for topic, (count, path, line) in b.headers.items():
        if listed.get(topic, 0) != count:
            raise ClusterInputError(
                path,
                line,
                f"topic {topic}: PartitionCount is {count} but "
                f"{listed.get(topic, 0)} partition line(s) were captured (the describe output "
                "must be complete; filtered outputs such as --topics-with-overrides are not)",
            )


def _check_no_reassignments(b: Builder) -> None:
    if b.no_reassignments is None:
        return
    for tp, (path, line) in sorted(b.reassign.items()):
        if b.facts.get(("reassign", tp, "state")) == "in-progress":
            raise ClusterInputError(
                path,
                line,
                f"reassignment of {tp[0]}-{tp[1]} is in progress here, but "
                f"{b.no_reassignments[0]}:{b.no_reassignments[1]} says "
                "'No partition reassignments found.'",
            )


def _apply_plans(b: Builder) -> None:
    # A reassignment JSON gives the target of the partitions that are in flight; for the
    # others it says nothing about the cluster (never executed, or already finished).
    for plan, path in b.plans:
        for e in plan.partitions:
            tp = (e.topic, e.partition)
            if b.facts.get(("reassign", tp, "state")) == "in-progress":
                b.facts.put(
                    ("reassign", tp, "target"),
                    e.replicas,
                    path,
                    plan.line,
                    f"{e.topic}-{e.partition} target replicas",
                )


def _nodes(b: Builder) -> tuple[Node, ...]:
    f = b.facts
    brokers = b.brokers | set(b.partitions.brokers())
    ids = brokers | b.voters | b.observers | b.nodes_seen | set(b.node_ranges)
    nodes: list[Node] = []
    for i in sorted(ids):
        roles: set[Role] = set()
        if i in b.voters:
            roles.add(Role.CONTROLLER)
        # An observer is a broker unless other evidence says otherwise (a controller that
        # has not joined the voters is an observer too, and the tools cannot tell them apart).
        if i in brokers or (i in b.observers and i not in b.voters):
            roles.add(Role.BROKER)
        if not roles:
            roles.add(Role.BROKER)
        host = f.get(("node", i, "host"))
        nodes.append(
            Node(
                id=i,
                roles=frozenset(roles),
                rack=f.get(("node", i, "rack")),
                host=host[0] if host else None,
                port=host[1] if host else None,
                supported_features=dict(sorted(b.node_ranges.get(i, {}).items())),
                fenced=bool(f.get(("node", i, "fenced"), False)),
            )
        )
    return tuple(nodes)


def _quorum(b: Builder) -> Quorum | None:
    f = b.facts
    if not (b.voters or b.observers or f.has(("quorum", "LeaderId"))):
        return None

    def member(i: int) -> QuorumMember:
        return QuorumMember(
            id=i,
            directory_id=f.get(("member", i, "dir")),
            endpoints=f.get(("member", i, "endpoints"), ()),
            log_end_offset=f.get(("member", i, "leo")),
            lag=f.get(("member", i, "lag")),
            last_fetch_timestamp=f.get(("member", i, "fetch")),
            last_caught_up_timestamp=f.get(("member", i, "caught-up")),
        )

    # controller.quorum.voters is only visible as a static config (kafka-configs --all on a
    # controller); when it is set the quorum was formatted static (kraft.md:176).
    static = sorted(
        {v for cfg in b.configs["static"].values() if (v := cfg.get("controller.quorum.voters"))}
    )
    return Quorum(
        static_voters=static[0] if len(static) == 1 else None,
        leader_id=f.get(("quorum", "LeaderId")),
        leader_epoch=f.get(("quorum", "LeaderEpoch")),
        high_watermark=f.get(("quorum", "HighWatermark")),
        max_follower_lag=f.get(("quorum", "MaxFollowerLag")),
        max_follower_lag_time_ms=f.get(("quorum", "MaxFollowerLagTimeMs")),
        voters=tuple(member(i) for i in sorted(b.voters)),
        observers=tuple(member(i) for i in sorted(b.observers)),
    )


def _topics(b: Builder) -> tuple[Topic, ...] | list[dict[str, Any]]:
    f = b.facts
    topics = [
        Topic(
            name=name,
            topic_id=f.get(("topic-id", name)),
            partitions=b.partitions.topic(name),
            described_configs=dict(sorted(b.topic_configs.get(name, {}).items())),
            marked_for_deletion=bool(f.get(("topic-deleting", name), False)),
        )
        for name in sorted(set(b.headers) | b.partitions.names())
    ]
    if b.partitions.in_range():
        return tuple(topics)
    # A number outside its Kafka type: let the model refuse it, located, as for any input.
    return [t.model_dump() for t in topics]


def _reassignments(b: Builder) -> tuple[Reassignment, ...]:
    f = b.facts
    out: list[Reassignment] = []
    for tp in sorted(b.reassign):

        def get(name: str, default: Any = None, tp: Any = tp) -> Any:
            return f.get(("reassign", tp, name), default)

        out.append(
            Reassignment(
                topic=tp[0],
                partition=tp[1],
                state=ReassignmentState(get("state")),
                replicas=get("replicas"),
                adding=get("adding", ()),
                removing=get("removing", ()),
                target=get("target"),
            )
        )
    return tuple(out)
