"""Huge inputs, generated as text: big describe() outputs, big ``kafka-topics --describe``
captures, and big files that are neither. Shared by ``tests/hardening/test_huge_inputs.py``
(coarse bounds) and ``benchmarks/huge.py`` (figures)."""

from __future__ import annotations

import base64
import hashlib

BLOCK = 10  # nodes per sub-topology in the "many" shape, like a small DSL app's stage


def _name(prefix: str, index: int) -> str:
    return f"{prefix}{index:010d}"


def _prefix(i: int, per_block: int) -> str:
    if i == 0:
        return "KSTREAM-SOURCE-"
    if i == per_block - 1:
        return "KSTREAM-SINK-"
    return "KSTREAM-AGGREGATE-" if i == per_block // 2 else "KSTREAM-MAPVALUES-"


def topology_text(nodes: int, shape: str = "many", offset: int = 0, thin: int = 0) -> str:
    """A describe() text of about ``nodes`` nodes with DSL-generated names.

    ``many``: sub-topologies of ten nodes (source, eight processors, one with a store, sink),
    each reading its own topic. ``chain``: one sub-topology, a single path of ``nodes`` nodes
    (the deepest graph there is: recursion anywhere would break on it). ``offset`` shifts every
    generated index, as inserting an operator at the start of an app does: the next version.
    ``thin``: every ``thin``-th sub-topology lacks its second processor (an operator removed in
    many places: the alignment of generated names has many gaps to bridge).
    """
    out = ["Topologies:\n "]
    counter = offset
    per_block = BLOCK if shape == "many" else max(nodes, 3)
    blocks = max(1, nodes // per_block)
    for block in range(blocks):
        skip = 2 if thin and block % thin == thin // 2 else -1
        names = []
        for i in range(per_block):
            if i != skip:
                names.append(_name(_prefix(i, per_block), counter))
            counter += 1
        count = len(names)
        store = _name("KSTREAM-AGGREGATE-STATE-STORE-", counter)
        counter += 1
        lines = [f"  Sub-topology: {block}\n"]
        lines.append(f"    Source: {names[0]} (topics: [input-{block}])\n      --> {names[1]}\n")
        for i in range(1, count - 1):
            stores = f"[{store}]" if i == count // 2 else "[]"
            lines.append(
                f"    Processor: {names[i]} (stores: {stores})\n"
                f"      --> {names[i + 1]}\n      <-- {names[i - 1]}\n"
            )
        lines.append(f"    Sink: {names[-1]} (topic: output-{block})\n      <-- {names[-2]}\n\n")
        out.extend(lines)
    return "".join(out)


def topics_describe_text(partitions: int, brokers: int = 100, per_topic: int = 50) -> str:
    """``kafka-topics.sh --describe`` of ``partitions`` partitions (RF 3, min ISR 2) spread over
    ``brokers`` brokers, as Kafka 4.x prints it (with ``Elr``/``LastKnownElr``)."""
    out = ["$ bin/kafka-topics.sh --bootstrap-server broker-1:9092 --describe\n"]
    topics = max(1, partitions // per_topic)
    for t in range(topics):
        name = f"topic-{t:05d}"
        topic_id = base64.urlsafe_b64encode(hashlib.md5(name.encode()).digest()).decode()[:22]
        out.append(
            f"Topic: {name}\tTopicId: {topic_id}\tPartitionCount: {per_topic}\t"
            f"ReplicationFactor: 3\tConfigs: min.insync.replicas=2,segment.bytes=1073741824\n"
        )
        for p in range(per_topic):
            a = (t * per_topic + p) % brokers
            replicas = f"{a},{(a + 1) % brokers},{(a + 2) % brokers}"
            out.append(
                f"\tTopic: {name}\tPartition: {p}\tLeader: {a}\tReplicas: {replicas}\t"
                f"Isr: {replicas}\tElr: \tLastKnownElr: \n"
            )
    return "".join(out)


def log_text(megabytes: float) -> bytes:
    """An application log of about ``megabytes`` MB with no topology in it."""
    line = (
        b"2026-11-22 12:00:00,123 INFO  [main-StreamThread-1] o.a.k.s.p.i.StreamThread - "
        b"stream-thread [main-StreamThread-1] Processed 1000 total records, ran 0 punctuators\n"
    )
    return line * int(megabytes * 1024 * 1024 / len(line))
