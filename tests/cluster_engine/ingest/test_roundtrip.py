"""Property: a topic listing printed the way kafka-topics.sh prints it reads back unchanged."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cluster_engine.ingest import assemble
from cluster_engine.ingest.detect import read_text
from cluster_engine.snapshot import Partition, Topic

BROKERS = st.integers(min_value=0, max_value=9)
NAMES = st.from_regex(r"[a-zA-Z0-9._-]{1,20}", fullmatch=True).filter(
    lambda n: n not in (".", "..")
)
ELR = st.none() | st.lists(BROKERS, max_size=3, unique=True).map(tuple)


@st.composite
def topics(draw: st.DrawFn) -> Topic:
    name = draw(NAMES)
    count = draw(st.integers(min_value=1, max_value=4))
    parts = []
    for p in range(count):
        replicas = tuple(draw(st.lists(BROKERS, min_size=1, max_size=4, unique=True)))
        isr = tuple(draw(st.permutations(replicas)))[: draw(st.integers(0, len(replicas)))]
        elr = draw(ELR)
        parts.append(
            Partition(
                topic=name,
                partition=p,
                replicas=replicas,
                leader=isr[0] if isr else None,
                isr=isr,
                elr=elr,
                last_known_elr=None if elr is None else draw(ELR.filter(lambda e: e is not None)),
            )
        )
    configs = draw(
        st.dictionaries(
            st.sampled_from(["min.insync.replicas", "segment.bytes", "cleanup.policy"]),
            st.sampled_from(["1", "2", "compact,delete"]),
            max_size=3,
        )
    )
    return Topic(
        name=name,
        topic_id="QmLwMsncTBWiSn2HoB0Kqg",
        partitions=tuple(parts),
        described_configs=configs,
    )


def csv(ids: tuple[int, ...] | None) -> str:
    return "N/A" if ids is None else ",".join(map(str, ids))


def describe(t: Topic) -> str:
    configs = ",".join(f"{k}={v}" for k, v in t.described_configs.items())
    out = [
        f"Topic: {t.name}\tTopicId: {t.topic_id}\tPartitionCount: {t.partition_count}\t"
        f"ReplicationFactor: {t.replication_factor}\tConfigs: {configs}"
    ]
    for p in t.partitions:
        leader = "none" if p.leader is None else str(p.leader)
        out.append(
            f"\tTopic: {t.name}\tPartition: {p.partition}\tLeader: {leader}\t"
            f"Replicas: {csv(p.replicas)}\tIsr: {csv(p.isr)}\tElr: {csv(p.elr)}\t"
            f"LastKnownElr: {csv(p.last_known_elr)}"
        )
    return "\n".join(out) + "\n"


@settings(max_examples=30, deadline=None)
@given(topic=topics())
def test_describe_round_trip(topic: Topic) -> None:
    (read,) = assemble(read_text("t.txt", describe(topic))).topics
    assert read == topic
