"""What a runbook needs to know about an application, read from its describe() texts and configs.

A reset needs the real input topics, a drain the repartition topics, a blue-green plan the output
topics: all of them are in the topology, so the plan names them instead of ``<inputs>``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from linter.topology import naming
from linter.topology.model import Description, Processor, Topology


@dataclass(frozen=True, slots=True)
class AppFacts:
    """Names a runbook fills in. Topics are as Kafka names them (internal ones with the
    ``<application.id>-`` prefix), sorted; an unknown application id stays a placeholder."""

    application_id: str | None = None
    state_dir: str | None = None
    exactly_once: bool = False
    input_topics: tuple[str, ...] = ()
    input_patterns: tuple[str, ...] = ()
    # user topics the application writes and reads back: not inputs for a reset
    intermediate_topics: tuple[str, ...] = ()
    repartition_topics: tuple[str, ...] = ()  # of the running (before) version
    output_topics: tuple[str, ...] = ()
    # the application.id of the running version when the upgrade changes it: the application a
    # runbook stops and retires, while ``application_id`` is the one that starts
    previous_application_id: str | None = None

    @property
    def app(self) -> str:
        return self.application_id or "<application.id>"

    @property
    def app_state(self) -> str:
        return f"{(self.state_dir or '<state.dir>').rstrip('/')}/{self.app}"


def app_facts(
    before: Description | None,
    after: Description | None,
    *,
    application_id: str | None = None,
    state_dir: str | None = None,
    exactly_once: bool = False,
    previous_application_id: str | None = None,
) -> AppFacts:
    """Facts of the upgrade ``before`` -> ``after``: inputs of both versions (the old one has
    committed offsets on its inputs, the new one reads its own), repartition topics of the old
    version (what a drain must empty), outputs of both."""
    sources: set[str] = set()
    sinks: set[str] = set()
    patterns: set[str] = set()
    repartition: set[str] = set()
    if before is not None:
        _read(before, sources, sinks, patterns)
        for topology in before.topologies:
            for topic in _all_sources(topology):
                if naming.is_internal_topic(topic):
                    repartition.add(naming.internal_topic(application_id, topic, topology.name))
    if after is not None:
        _read(after, sources, sinks, patterns)
    internal = {t for t in sources if naming.is_internal_topic(t)}
    inputs = sorted(t for t in sources if t not in internal and t not in sinks)
    intermediate = sorted(t for t in sources if t not in internal and t in sinks)
    outputs = sorted(t for t in sinks if not naming.is_internal_topic(t) and t not in sources)
    return AppFacts(
        application_id=application_id,
        state_dir=state_dir,
        exactly_once=exactly_once,
        input_topics=tuple(inputs),
        input_patterns=tuple(sorted(patterns)),
        intermediate_topics=tuple(intermediate),
        repartition_topics=tuple(sorted(repartition)),
        output_topics=tuple(outputs),
        previous_application_id=(
            previous_application_id if previous_application_id != application_id else None
        ),
    )


def _read(d: Description, sources: set[str], sinks: set[str], patterns: set[str]) -> None:
    """Add the source topics and patterns of ``d``'s stream sub-topologies (a global store's
    topic is read by the global consumer, outside the group the reset tool rewinds) and its sink
    topics: one pass over the nodes, since this runs for every app of a fleet scan."""
    for topology in d.topologies:
        for sub in topology.subtopologies:
            stream = not sub.is_global
            for node in sub.nodes:
                # ``kind``, not isinstance: a failed isinstance costs four times a field read
                if node.kind == "source":
                    if stream:
                        sources.update(node.topics)
                        if node.pattern is not None:
                            patterns.add(node.pattern)
                elif node.kind == "sink" and node.topic is not None:
                    sinks.add(node.topic)


def _all_sources(topology: Topology) -> Iterator[str]:
    """Source topics of every sub-topology, global ones included."""
    for sub in topology.subtopologies:
        for node in sub.nodes:
            if node.kind == "source":
                yield from node.topics


# --- what describe() cannot show ---------------------------------------------------------------

_JOIN_WINDOW = frozenset(
    {
        "KSTREAM-WINDOWED-",
        "KSTREAM-JOINTHIS-",
        "KSTREAM-JOINOTHER-",
        "KSTREAM-OUTERTHIS-",
        "KSTREAM-OUTEROTHER-",
        "KSTREAM-OUTERSHARED-",
    }
)
# Stream aggregations can be windowed or not: the text is the same either way.
_MAYBE_WINDOWED = frozenset({"KSTREAM-AGGREGATE-", "KSTREAM-REDUCE-", "COGROUPKSTREAM-AGGREGATE-"})
_NEVER_WINDOWED = frozenset(
    {"KTABLE-SOURCE-", "KTABLE-AGGREGATE-", "KTABLE-REDUCE-", "KSTREAM-TOTABLE-"}
)
_TABLE_JOIN = frozenset(
    {
        "KSTREAM-JOIN-",
        "KSTREAM-LEFTJOIN-",
        "KTABLE-JOINTHIS-",
        "KTABLE-JOINOTHER-",
        "KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-",
        "KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-",
    }
)
_FK_JOIN = "KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-"
_NOTED = _JOIN_WINDOW | _TABLE_JOIN


def _listed(names: Iterable[str], limit: int = 3) -> str:
    ordered = sorted(set(names))
    shown = ", ".join(ordered[:limit])
    return shown + (f" and {len(ordered) - limit} more" if len(ordered) > limit else "")


def unchecked(description: Description | None) -> tuple[str, ...]:
    """What a ``safe`` verdict did not check because describe() does not print it, tailored to
    what ``description`` contains: window sizes and grace periods where a store may be windowed,
    serdes where there is state, joiners where there are joins; processing logic always."""
    if description is None:
        return ("Processing logic and serdes: no topology was given to check.",)
    stores: set[str] = set()
    windowed: set[str] = set()  # stores that may be windowed (or are: join windows)
    join_windows: set[str] = set()
    joins: set[str] = set()
    fk_joins: set[str] = set()
    suppress: set[str] = set()
    role_of = naming.role_of  # looked up once: it is asked of every node
    for topology in description.topologies:
        for sub in topology.subtopologies:
            for node in sub.nodes:
                role = role_of(node.name)
                if role in _NOTED:  # most roles are in none of the sets: one lookup for them
                    if role in _TABLE_JOIN:
                        joins.add(node.name)
                    if role == _FK_JOIN:
                        fk_joins.add(node.name)
                    if role in _JOIN_WINDOW:
                        join_windows.add(node.name)
                if node.kind != "processor" or not node.stores:
                    continue
                stores.update(node.stores)
                if role == "KTABLE-SUPPRESS-":
                    suppress.add(node.name)
                elif role in _MAYBE_WINDOWED or (role is None and not _all_table_stores(node)):
                    windowed.update(node.stores)
    notes: list[str] = []
    if join_windows:
        notes.append(
            f"Join windows and grace periods of the stream-stream joins ({_listed(join_windows)}): "
            "describe() prints the same text for any JoinWindows."
        )
    if windowed:
        notes.append(
            f"Whether {_listed(windowed)} {'is' if len(windowed) == 1 else 'are'} windowed, and "
            "the window size and grace period: describe() prints the same text for any window; "
            "a changed window size mixes results of both sizes until stream-time passes the "
            "store's retention."
        )
    if suppress:
        notes.append(
            f"The time limit and buffer config of {_listed(suppress)} (suppress): not in "
            "describe()."
        )
    if stores:
        notes.append(
            f"Key and value serdes and schemas of the state stores ({_listed(stores)}) and their "
            "changelogs: a serde or schema the new version cannot read breaks on existing state."
        )
    if joins:
        notes.append(
            f"The joiners of {_listed(joins)}"
            + (" and the foreign-key extractor" if fk_joins else "")
            + ": describe() names the join, not what it computes."
        )
    notes.append(
        "Processing logic (predicates, mappers, aggregators, processors) and the serdes of the "
        "input and output topics: describe() shows the graph, not the code."
    )
    return tuple(notes)


def _all_table_stores(node: Processor) -> bool:
    """A processor whose stores are all KTable stores by their generated names."""
    return all(
        (gen := naming.generated(s)) is not None and gen.prefix in _NEVER_WINDOWED
        for s in node.stores
    )
