"""KS302 topology-optimization-changed."""

from __future__ import annotations

from collections.abc import Iterator

from linter.topology import naming
from linter.topology.diff import TopologyDiff
from linter.topology.model import Description, Sink, Source
from linter.topology.streams_config import StreamsConfig
from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations

_EFFECT: dict[tuple[str, bool], tuple[str, DeployStrategy, str]] = {
    ("reuse.ktable.source.topics", True): (
        "source-table stores stop using their changelog topic and restore from the source "
        "topic instead",
        DeployStrategy.STOP_AND_RESTART,
        "Stop every instance, deploy, start: the source-table stores restore from their source "
        "topics; the old <application.id>-<store>-changelog topics are then unused.",
    ),
    ("reuse.ktable.source.topics", False): (
        "cannot be turned off once used: source tables would switch to a new changelog topic "
        "that misses every record written before",
        DeployStrategy.RESET,
        "Keep reuse.ktable.source.topics on, or reset the application to rebuild the tables.",
    ),
    ("merge.repartition.topics", True): (
        "merges repartition topics: the ones it drops lose their in-flight records and "
        "stores may move between sub-topologies",
        DeployStrategy.STOP_AND_RESTART,
        "Drain every repartition topic before deploying (stop the inputs, wait for lag 0).",
    ),
    ("merge.repartition.topics", False): (
        "splits merged repartition topics again: the merged topic's in-flight records are lost "
        "and stores move between sub-topologies",
        DeployStrategy.STOP_AND_RESTART,
        "Drain every repartition topic before deploying (stop the inputs, wait for lag 0).",
    ),
    ("single.store.self.join", True): (
        "changes the stores of stream-stream self-joins; safe only if every operator is named",
        DeployStrategy.STOP_AND_RESTART,
        "Check with ksafe diff on the optimized describe() that no store is renamed.",
    ),
    ("single.store.self.join", False): (
        "cannot be turned off once used: the self-join's single store would split into two "
        "empty stores",
        DeployStrategy.RESET,
        "Keep single.store.self.join on, or reset the application.",
    ),
}


def _opts(cfg: StreamsConfig | None) -> frozenset[str]:
    return cfg.optimizations() if cfg is not None else frozenset()


@rule(
    id="KS302",
    name="topology-optimization-changed",
    severity=Severity.ERROR,
    impact=Impact.STATE_LOSS,
    subject=STREAMS_CONFIG,
)
def topology_optimization_changed(subject: ConfigSubject) -> Iterator[Hit]:
    """A ``topology.optimization`` sub-option was turned on or off in a way that breaks state.

    Why: optimizations rewrite the physical topology. ``reuse.ktable.source.topics`` uses a source
    table's input topic as its changelog: enabling it makes those stores restore from the source
    topic and leave their changelog topic unused (stop and restart), disabling it is impossible
    (the new changelog would be empty). ``merge.repartition.topics`` removes or re-adds
    repartition topics: records in flight are lost unless the topics are drained.
    ``single.store.self.join`` changes the stores of self-joins: enable only with named
    operators, never disable. ``all`` means all three. (The optimizations only apply when the
    properties are passed to ``StreamsBuilder#build``.)

    When the describe() texts of both versions are given, what they show decides: a merge that
    changes nothing in the texts (no repartition topic, or identical texts) merged nothing; a
    self-join option on an app without a stream-stream join, or with every operator named, is
    safe; reuse is invisible in describe() and only matters for a materialized source table.
    Whether the texts were built with the properties is KS308's question.

    Example:

        Before:
            topology.optimization=all

        After:
            topology.optimization=none

    Fix: decide per sub-option: keep reuse/self-join on once used; drain repartition topics
    before toggling the merge. Diff the optimized describe() output of both versions too.
    """
    before, after = _opts(subject.config.before), _opts(subject.config.after)
    for option in sorted(before ^ after):
        enabled = option in after
        effect = _EFFECT.get((option, enabled))
        if effect is None:
            continue
        what, strategy, step = effect
        if subject.topology is not None:
            judged = _judge(option, enabled, subject.topology)
            if judged is None:
                continue
            what = f"{what} ({judged})"
        yield Hit(
            message=f"topology.optimization {option} turned {'on' if enabled else 'off'}: {what}.",
            resources=(config(f"topology.optimization/{option}"),),
            locations=config_locations(subject, "topology.optimization"),
            remediation=step,
            key=f"{option}|{'on' if enabled else 'off'}",
            requires=strategy,
            steps=(step,),
        )


def _judge(option: str, enabled: bool, diff: TopologyDiff) -> str | None:
    """What the describe() texts of both versions say about toggling ``option``: ``None`` when
    they show it cannot matter, else what makes it matter."""
    before = diff.before
    if option == "merge.repartition.topics":
        if diff.identical:
            return None  # nothing merged or split (KS308 asks whether the texts are optimized)
        if not (_repartition_topics(before) or _repartition_topics(diff.after)):
            return None
        return "the describe() texts differ and have repartition topics"
    if option == "reuse.ktable.source.topics":
        tables = _source_tables(before)
        if not tables:
            return None
        return f"materialized source tables: {', '.join(tables)}; describe() cannot show reuse"
    joins = _stream_joins(before)
    if not joins:
        return None
    if not enabled:
        return f"stream-stream joins: {', '.join(joins[:3])}"
    if not _self_joins(before):
        return None
    unnamed = sorted({n.name for _, _, n in before.nodes() if naming.is_generated(n.name)})
    if not unnamed:
        return None
    more = f" and {len(unnamed) - 3} more" if len(unnamed) > 3 else ""
    return f"operators with generated names: {', '.join(unnamed[:3])}{more}"


def _repartition_topics(desc: Description) -> set[str]:
    out: set[str] = set()
    for _, _, n in desc.nodes():
        if isinstance(n, Sink) and n.topic is not None and naming.is_repartition_topic(n.topic):
            out.add(n.topic)
        if isinstance(n, Source):
            out |= {t for t in n.topics if naming.is_repartition_topic(t)}
    return out


def _source_tables(desc: Description) -> list[str]:
    """Stores that may be a source table's: a ``KTABLE-SOURCE-`` processor's, or a processor
    with a chosen name reading a source directly (a named ``table()`` looks just like a named
    aggregation there, so both count)."""
    sources = {n.name for _, _, n in desc.nodes() if isinstance(n, Source)}
    out: set[str] = set()
    for _, _, n in desc.nodes():
        role = naming.role_of(n.name)
        if role == "KTABLE-SOURCE-" or (role is None and n.predecessors & sources):
            out |= n.stores
    return sorted(out)


_JOIN_ROLES = frozenset(
    {
        "KSTREAM-JOINTHIS-", "KSTREAM-JOINOTHER-", "KSTREAM-OUTERTHIS-", "KSTREAM-OUTEROTHER-",
        "KSTREAM-WINDOWED-",
    }
)


def _stream_joins(desc: Description) -> list[str]:
    return sorted({n.name for _, _, n in desc.nodes() if naming.role_of(n.name) in _JOIN_ROLES})


def _self_joins(desc: Description) -> bool:
    """A stream joined with itself: both join windows read the same node."""
    for topology in desc.topologies:
        feeds: set[str] = set()
        for _, n in topology.nodes():
            if naming.role_of(n.name) != "KSTREAM-WINDOWED-":
                continue
            if n.predecessors & feeds:
                return True
            feeds |= n.predecessors
    return False
