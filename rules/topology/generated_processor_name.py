"""KS103 generated-processor-name."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TypeAlias

from linter.topology import naming
from linter.topology.model import Node, Sink
from rules.framework import Hit, Impact, Resource, Severity, rule
from rules.topology.context import TOPOLOGY, LintSubject, node


@rule(
    id="KS103",
    name="generated-processor-name",
    severity=Severity.INFO,
    impact=Impact.HYGIENE,
    subject=TOPOLOGY,
)
def generated_processor_name(subject: LintSubject) -> Iterator[Hit]:
    """An operator has a generated name (``KSTREAM-FILTER-0000000003``).

    Why: a processor's name does not name any topic or store, so an index shift is harmless by
    itself. But generated names make two versions hard to compare, metrics and logs change names
    between releases, and the operator usually sits next to stateful ones that are unnamed too.
    Naming every operator is the cheapest insurance for future upgrades. (Repartition plumbing
    around a generated repartition topic is reported by KS102 instead.)

    Whether naming is safe on a running app depends on the operator. Most operators (``filter``,
    ``map``, ``mapValues``, ``peek``, ``selectKey``, ``merge``, branches, sources and sinks,
    ``toStream``...) consume their index whether named or not, so naming them changes no other
    name. Some config classes name more than the processor: ``Grouped.as`` (``groupBy``) and
    ``StreamJoined.withName`` / ``Joined.as`` (joins) also name the repartition topics, and
    ``TableJoined.as`` the foreign-key join's subscription store and topics; on a running app
    they rename those.

    ``process()`` and ``processValues()`` named with ``Named.as``, and ``repartition()`` named with
    ``Repartitioned.as``, stop consuming one index, and ``suppress()`` named with
    ``Suppressed.withName`` two (its processor and its store): every later generated store,
    changelog and repartition topic name shifts, which loses that state (KS201) or the records in
    flight (KS205). Naming a store (``Materialized.as``...) renames it (KS101).

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: orders-source (topics: [orders])
                  --> KSTREAM-FILTER-0000000001
                Processor: KSTREAM-FILTER-0000000001 (stores: [])
                  --> none
                  <-- orders-source

        After:
            Topologies:
               Sub-topology: 0
                Source: orders-source (topics: [orders])
                  --> drop-test-orders
                Processor: drop-test-orders (stores: [])
                  --> none
                  <-- orders-source

    Fix: pass a name to the operator: ``Named.as("...")`` for most operators, ``Consumed.as`` for
    sources, ``Produced.as`` for sinks, ``Branched.as`` for branches, ``Grouped.as`` for the key
    selector of ``groupBy``: safe on a running app for all but the operators above. Name
    ``process()``, ``processValues()``, ``repartition()`` or ``suppress()`` on a running app only
    when no generated store or internal topic comes after it, or together with an application
    reset; on a new app, name everything.
    """
    path = subject.description.path
    abouts = _ABOUTS
    for walked in subject.topologies:
        name = walked.topology.name
        scope = f"{name}|" if name else None  # None: the key made with the name
        # in any order: the findings are sorted by their fingerprints, one per name
        for n in walked.nodes:
            about = abouts.get(n.name, _UNSEEN)
            if about is _UNSEEN:
                about = _learn(n.name)
            if about is None:
                continue
            message, resources, remediation, unburned, filters, key = about
            # a processor is plumbing only when it is a filter (most are not)
            if (filters or n.kind != "processor") and _plumbing(n, walked.by_name):
                continue
            if unburned:
                shifts = _shift_note(n.name, walked.persistent)
                if shifts is not None:
                    message, remediation = f"{message} {shifts[0]}", shifts[1]
            # by position (message, resources, locations, remediation, key): keywords cost
            # a dict per call, and this is most findings of a fleet scan; the location as
            # location(path, line) gives it, without the call
            yield Hit(
                message,
                resources,
                ((path, n.position.line or None, None),),
                remediation,
                key if scope is None else scope + n.name,
            )


# What _about says of a name: the message, resources, remediation, unburned, filter and key.
_About: TypeAlias = tuple[str, tuple[Resource, ...], str, bool, bool, str]

# _about of each name seen, looked up for every node of every app linted: a dict lookup, where
# an lru cache's wrapper costs several times as much (it makes a tuple of its arguments and moves
# the entry in its list each call). Emptied when full, as chosen names are new in every app.
_ABOUTS: dict[str, _About | None] = {}
_ABOUTS_MAX = 1 << 14
_UNSEEN: _About = ("", (), "", False, False, "")  # a name not in _ABOUTS (its own object)


def _learn(name: str) -> _About | None:
    if len(_ABOUTS) >= _ABOUTS_MAX:
        _ABOUTS.clear()
    about = _ABOUTS[name] = _about(name)
    return about


def _about(name: str) -> _About | None:
    """The message, resource and remediation of a hit on a generated name, which depend on the
    name alone (None for a chosen name), whether naming the operator stops it consuming an
    index, whether it is a filter (``role_of``, which :func:`_plumbing` asks), and the hit's key
    in a topology without a name (``|`` + name: one string, its hash kept, for the fingerprint's
    cache). Made once per name: names such as ``KSTREAM-FILTER-0000000003`` recur in every app of
    a fleet, and a Resource is frozen."""
    gen = naming.generated(name)
    if gen is None:
        return None
    op = gen.operator
    what = op.operator if op else "operator"
    unburned = op is not None and bool(op.unburned_when_named)
    message = f"{what} {name} has a generated name."
    return message, (node(name),), _remediation(gen), unburned, gen.prefix == _FILTER, f"|{name}"


_FILTER = "KSTREAM-FILTER-"
_JOIN_PREFIXES = frozenset(
    {
        "KSTREAM-WINDOWED-", "KSTREAM-JOINTHIS-", "KSTREAM-JOINOTHER-", "KSTREAM-OUTERTHIS-",
        "KSTREAM-OUTEROTHER-", "KSTREAM-JOIN-", "KSTREAM-LEFTJOIN-",
    }
)


def _remediation(gen: naming.GeneratedName) -> str:
    """How to name the processor, and whether that is safe on a running app: a config class that
    also names a store or an internal topic renames it."""
    if gen.prefix.startswith(("KTABLE-FK-JOIN-", "KTABLE-SINK-")):
        return (
            'Name it on a new app: TableJoined.as("..."). On a running app TableJoined.as also '
            "renames the join's subscription store and subscription/response topics: do it only "
            "together with an application reset."
        )
    if gen.prefix == "KSTREAM-KEY-SELECT-":
        return (
            'Name it: Named.as("...") on selectKey (safe on a running app). For the key selector '
            'of groupBy the name comes from Grouped.as("..."), which also renames the repartition '
            "topic: on a running app drain that topic in the same deploy (see "
            "repartition-topic-removed)."
        )
    if gen.prefix in _JOIN_PREFIXES:
        return (
            f"Name it: {gen.fix}. On a running app that also renames the join's repartition "
            "topics, if it has any (drain them in the same deploy), and for a stream-table join "
            "its grace buffer <name>-Buffer."
        )
    if "Materialized.as" in gen.fix:
        return (
            'Name the processor with Named.as("...") (safe on a running app: a processor name is '
            "not persisted); naming its store with Materialized.as renames the store (see "
            "generated-store-name)."
        )
    return f"Name it: {gen.fix}."


def _shift_note(
    name: str, persistent: tuple[tuple[int, str], ...]
) -> tuple[str, str] | None:
    """For an operator that stops consuming indices once named: what naming it would rename."""
    gen = naming.generated(name)
    op = gen.operator if gen is not None else None
    if gen is None or op is None or not op.unburned_when_named:
        return None
    later = [p for i, p in persistent if i > gen.index]
    if not later:
        return (
            f"Naming it with {op.fix} shifts later generated names by {op.unburned_when_named}; "
            "none of them is a store or an internal topic, so naming it is safe today.",
            f"Name it: {op.fix}.",
        )
    shown = ", ".join(later[:5]) + (f" and {len(later) - 5} more" if len(later) > 5 else "")
    return (
        f"Not safe to name on a running app: a named {op.operator} stops consuming "
        f"{op.unburned_when_named} generated index(es), so later generated names shift and "
        f"{shown} would be renamed (state or in-flight records lost).",
        f"Leave it unnamed on this app, or name it ({op.fix}) together with an application reset "
        "(or a blue-green deployment under a new application.id).",
    )


def _plumbing(n: Node, by_name: Mapping[str, Node]) -> bool:
    """Sink/source/filter of a generated repartition topic (reported by KS102)."""
    if n.kind == "sink":  # ``kind``: a failed isinstance costs four times a field read
        return n.topic is not None and naming.generated_topic(n.topic) is not None
    if n.kind == "source":
        return any(naming.generated_topic(t) is not None for t in n.topics)
    succ = n.successors
    return bool(succ) and naming.role_of(n.name) == _FILTER and all(
        isinstance(by_name.get(s), Sink) and _plumbing(by_name[s], by_name) for s in succ
    )
