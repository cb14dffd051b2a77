"""What a name in a describe() text tells us: generated or chosen, which operator, which fix.

The DSL names what the user did not name as ``<PREFIX><10-digit index>`` from one counter per
``StreamsBuilder`` (stores: ``<PREFIX>STATE-STORE-<index>``), so adding an operator anywhere shifts
every later generated name. Derived names follow fixed suffix rules (``<name>-repartition``,
``<store>-changelog``, ``<name>-this-windowed``...). This module recognises both, and knows for
each generated prefix the DSL call that gives it a stable name.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

INDEX_DIGITS = 10
_GENERATED = re.compile(
    r"^(?P<prefix>[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-)(?P<index>\d{10})(?P<rest>.*)$"
)
_STORE = re.compile(r"^(?P<base>.*?)(?P<marker>STATE-STORE-)(?P<index>\d{10})$")

Role = Literal["source", "sink", "processor", "store", "topic"]


@dataclass(frozen=True, slots=True)
class Operator:
    """What the DSL prefix means: the operator(s), whether it holds state or changes the key,
    and the DSL argument that names it."""

    prefix: str
    operator: str
    fix: str
    stateful: bool = False
    key_changing: bool = False
    # Indices the operator stops consuming once named (its named overload in KStreamImpl or
    # KTableImpl takes no index from the builder's counter): naming it on a running app shifts
    # every later generated name by this much. Most operators burn their index whether named or
    # not (0).
    unburned_when_named: int = 0


def _op(
    prefix: str,
    operator: str,
    fix: str,
    *,
    stateful: bool = False,
    key: bool = False,
    unburned: int = 0,
) -> Operator:
    return Operator(prefix, operator, fix, stateful, key, unburned)


_NAMED = 'Named.as("...")'
_BRANCHED = 'split(Named.as("...")) and Branched.as("...")'
OPERATORS: dict[str, Operator] = {
    o.prefix: o
    for o in (
        _op("KSTREAM-SOURCE-", "builder.stream/table/globalTable source (or a repartition source)",
            'Consumed.as("...") (repartition sources: Grouped.as/Repartitioned.as)'),
        _op("KSTREAM-SINK-", "to() (or a repartition sink)",
            'Produced.as("...") (repartition sinks: Grouped.as/Repartitioned.as)'),
        _op("KSTREAM-FILTER-", "filter/filterNot", _NAMED),
        _op("KSTREAM-PEEK-", "peek", _NAMED),
        _op("KSTREAM-FOREACH-", "foreach", _NAMED),
        _op("KSTREAM-PRINTER-", "print", 'Printed.withName("...")'),
        _op("KSTREAM-MAP-", "map", _NAMED, key=True),
        _op("KSTREAM-MAPVALUES-", "mapValues", _NAMED),
        _op("KSTREAM-FLATMAP-", "flatMap", _NAMED, key=True),
        _op("KSTREAM-FLATMAPVALUES-", "flatMapValues", _NAMED),
        _op("KSTREAM-KEY-SELECT-", "selectKey (or the key selector of groupBy)",
            'Named.as("...") (groupBy: Grouped.as("..."))', key=True),
        _op("KSTREAM-BRANCH-", "split()/branch()", _BRANCHED),
        _op("KSTREAM-BRANCHCHILD-", "branch() child", _BRANCHED),
        _op("KSTREAM-MERGE-", "merge", _NAMED),
        _op("KSTREAM-REPARTITION-", "repartition()", 'Repartitioned.as("...")', unburned=1),
        _op("KSTREAM-TOTABLE-", "toTable", 'Named.as("...") and Materialized.as("...")',
            stateful=True),
        _op("KSTREAM-PROCESSOR-", "process()", _NAMED, key=True, unburned=1),
        _op("KSTREAM-PROCESSVALUES-", "processValues()", _NAMED, unburned=1),
        _op("KSTREAM-TRANSFORM-", "transform/flatTransform", _NAMED, key=True),
        _op("KSTREAM-TRANSFORMVALUES-", "transformValues/flatTransformValues", _NAMED),
        _op("KSTREAM-AGGREGATE-", "count/aggregate", 'Materialized.as("...") (and Named.as("..."))',
            stateful=True),
        _op("KSTREAM-REDUCE-", "reduce", 'Materialized.as("...") (and Named.as("..."))',
            stateful=True),
        _op("COGROUPKSTREAM-AGGREGATE-", "cogroup().aggregate",
            'Materialized.as("...") and Named.as("...")', stateful=True),
        _op("COGROUPKSTREAM-MERGE-", "cogroup().aggregate merge", _NAMED),
        _op("KSTREAM-WINDOWED-", "stream-stream join window",
            'StreamJoined.withStoreName("...").withName("...")', stateful=True),
        _op("KSTREAM-JOINTHIS-", "stream-stream join (this side)",
            'StreamJoined.withStoreName("...").withName("...")', stateful=True),
        _op("KSTREAM-JOINOTHER-", "stream-stream join (other side)",
            'StreamJoined.withStoreName("...").withName("...")', stateful=True),
        _op("KSTREAM-OUTERTHIS-", "outer stream-stream join (this side)",
            'StreamJoined.withStoreName("...").withName("...")', stateful=True),
        _op("KSTREAM-OUTEROTHER-", "left/outer stream-stream join (other side)",
            'StreamJoined.withStoreName("...").withName("...")', stateful=True),
        _op("KSTREAM-OUTERSHARED-", "left/outer stream-stream join shared store",
            'StreamJoined.withStoreName("...")', stateful=True),
        _op("KSTREAM-JOIN-", "stream-table join", 'Joined.as("...")', stateful=True),
        _op("KSTREAM-LEFTJOIN-", "stream-table/global-table left join", 'Joined.as("...")',
            stateful=True),
        _op("KTABLE-SOURCE-", "table()/globalTable()", 'Materialized.as("...") (and Consumed.as)',
            stateful=True),
        _op("KTABLE-FILTER-", "KTable.filter", 'Named.as("...") (store: Materialized.as("..."))'),
        _op("KTABLE-MAPVALUES-", "KTable.mapValues",
            'Named.as("...") (store: Materialized.as("..."))'),
        _op("KTABLE-TRANSFORMVALUES-", "KTable.transformValues",
            'Named.as("...") (store: Materialized.as("..."))'),
        _op("KTABLE-TOSTREAM-", "toStream", _NAMED),
        _op("KTABLE-SUPPRESS-", "suppress", 'Suppressed.withName("...")', stateful=True,
            unburned=2),
        _op("KTABLE-SELECT-", "KTable.groupBy", 'Grouped.as("...")', key=True),
        _op("KTABLE-AGGREGATE-", "KGroupedTable count/aggregate",
            'Materialized.as("...") (and Named.as("..."))', stateful=True),
        _op("KTABLE-REDUCE-", "KGroupedTable reduce", 'Materialized.as("...") (and Named.as)',
            stateful=True),
        _op("KTABLE-JOINTHIS-", "table-table join (this side)", 'Named.as("...")', stateful=True),
        _op("KTABLE-JOINOTHER-", "table-table join (other side)", 'Named.as("...")',
            stateful=True),
        _op("KTABLE-MERGE-", "table-table join result", 'Named.as("...") and Materialized.as'),
        _op("KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-", "foreign-key join registration",
            'TableJoined.as("...")', key=True),
        _op("KTABLE-SINK-", "foreign-key join sink", 'TableJoined.as("...")'),
        _op("KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-", "foreign-key join subscription store",
            'TableJoined.as("...")', stateful=True),
        _op("KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-", "foreign-key join subscription processor",
            'TableJoined.as("...")', stateful=True),
        _op("KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-", "foreign-key join response",
            'TableJoined.as("...")', key=True),
        _op("KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR-",
            "foreign-key join response resolver", 'TableJoined.as("...")', stateful=True),
        _op("KTABLE-FK-JOIN-OUTPUT-", "foreign-key join result",
            'TableJoined.as("...") (store: Materialized.as("..."))'),
        _op("KTABLE-FOREACH-", "KTable.foreach", _NAMED),
    )
}

UNKNOWN_FIX = 'Named.as("...") on the operator (or its config class: Grouped/Materialized/...)'

# Names the DSL derives from a user-given name: suffix -> the role it plays (as a prefix).
_DERIVED_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("-repartition-filter", "KSTREAM-FILTER-"),
    ("-repartition-sink", "KSTREAM-SINK-"),
    ("-repartition-source", "KSTREAM-SOURCE-"),
    ("-this-windowed", "KSTREAM-WINDOWED-"),
    ("-other-windowed", "KSTREAM-WINDOWED-"),
    ("-outer-this-join", "KSTREAM-OUTERTHIS-"),
    ("-outer-other-join", "KSTREAM-OUTEROTHER-"),
    ("-this-join", "KSTREAM-JOINTHIS-"),
    ("-other-join", "KSTREAM-JOINOTHER-"),
    ("-join-this", "KTABLE-JOINTHIS-"),
    ("-join-other", "KTABLE-JOINOTHER-"),
    ("-cogroup-merge", "COGROUPKSTREAM-MERGE-"),
    ("-subscription-registration-processor", "KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-"),
    ("-subscription-registration-sink", "KTABLE-SINK-"),
    ("-subscription-registration-source", "KSTREAM-SOURCE-"),
    ("-subscription-response-sink", "KTABLE-SINK-"),
    ("-subscription-response-source", "KSTREAM-SOURCE-"),
    (
        "-subscription-response-resolver",
        "KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR-",
    ),
    ("-subscription-receive", "KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-"),
    ("-subscription-join-foreign", "KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-"),
    ("-foreign-join-subscription", "KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-"),
)
_COGROUP_AGG = re.compile(r"-cogroup-agg-\d+$")
# Words in a chosen name that say the operator sets the key (ksqlDB's ``...-SelectKey``, ``Rekey``).
_KEY_WORDS = re.compile(r"select-?key|key-?select|re-?key|group-?by|partition-?by", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class GeneratedName:
    """A name the DSL generated: ``prefix`` + ``index`` (10 digits) + ``rest``.

    ``rest`` is empty for plain node names, the branch number for ``split()`` children, ``-store``
    for stream-stream join stores; for ``...STATE-STORE-<n>`` stores ``prefix`` is the operator's
    prefix (``KSTREAM-AGGREGATE-``) or ``<topic>-`` for source-table stores and ``store`` is set.
    """

    name: str
    prefix: str
    index: int
    rest: str = ""
    store: bool = False

    @property
    def operator(self) -> Operator | None:
        return OPERATORS.get(self.prefix)

    @property
    def fix(self) -> str:
        op = self.operator
        if op is not None:
            return op.fix
        if self.store and not self.prefix.isupper():
            return 'Materialized.as("...") on builder.table()/globalTable()'
        return UNKNOWN_FIX

    @property
    def role_key(self) -> str:
        """What identifies the operator across versions when its index shifts."""
        return f"{self.prefix}{'STATE-STORE-' if self.store else ''}{self.rest}"


@functools.lru_cache(maxsize=1 << 16)
def generated(name: str) -> GeneratedName | None:
    """Recognise a generated node or store name (``None`` for a name somebody chose)."""
    # What each pattern needs, looked for in C first: asked once per name, and a chosen name
    # (new to every application) seldom has it
    m = _STORE.match(name) if "STATE-STORE-" in name else None
    if m is not None:
        return GeneratedName(name, m["base"], int(m["index"]), store=True)
    if not "A" <= name[:1] <= "Z":
        return None
    m = _GENERATED.match(name)
    if m is None:
        return None
    prefix, rest = m["prefix"], m["rest"]
    known = prefix in OPERATORS or prefix.startswith(("KSTREAM-", "KTABLE-", "COGROUPKSTREAM-"))
    if not known:
        return None
    # split() children: ``KSTREAM-BRANCH-<10 digits><branch number>``
    return GeneratedName(name, prefix, int(m["index"]), rest)


def is_generated(name: str) -> bool:
    return generated(name) is not None


@functools.lru_cache(maxsize=1 << 16)
def role_of(name: str) -> str | None:
    """The operator prefix a node name reveals: its own generated prefix, or the prefix of the
    generated name the DSL would have used for a derived name (``x-this-windowed`` ->
    ``KSTREAM-WINDOWED-``). ``None`` for a free-form user name."""
    gen = generated(name)
    if gen is not None:
        return gen.prefix
    for suffix, prefix in _DERIVED_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return prefix
    if _COGROUP_AGG.search(name):
        return "COGROUPKSTREAM-AGGREGATE-"
    if _KEY_WORDS.search(name):
        return "KSTREAM-KEY-SELECT-"
    return None


# Operators that replaced others (AK 4.0 removed ``transform*``; ``process*`` took their place):
# the same step of the pipeline under another prefix.
_SUCCESSORS: dict[str, str] = {
    "KSTREAM-TRANSFORM-": "KSTREAM-PROCESSOR-",
    "KSTREAM-TRANSFORMVALUES-": "KSTREAM-PROCESSVALUES-",
    "KSTREAM-BRANCHCHILD-": "KSTREAM-BRANCH-",
}


# ``canonical_role`` as a table, for the loops that look it up for every generated node
CANONICAL_ROLES: Mapping[str, str] = _SUCCESSORS


def canonical_role(prefix: str) -> str:
    """The role a prefix plays, with removed operators mapped to their replacement."""
    return _SUCCESSORS.get(prefix, prefix)


_FK_TOPIC = re.compile(
    r"(^KTABLE-FK-JOIN-SUBSCRIPTION-(REGISTRATION|RESPONSE)-\d{10}-topic$)"
    r"|(-subscription-(registration|response)-topic$)"
)


_TOPIC_NAME = re.compile(r"[a-zA-Z0-9._-]+")


def is_topic_name(name: str) -> bool:
    """True when Kafka would accept ``name`` as a topic name; a source "topic" with other
    characters (``*``, ``|``, ``(``...) is a subscription pattern (describe() prints it bare)."""
    return _TOPIC_NAME.fullmatch(name) is not None


def is_repartition_topic(topic: str) -> bool:
    return topic.endswith("-repartition")


@functools.lru_cache(maxsize=1 << 16)
def is_internal_topic(topic: str) -> bool:
    """Repartition and foreign-key-join topics: printed without the ``application.id-`` prefix."""
    # both foreign-key patterns end in ``-topic`` (``$`` also matches before a final newline)
    return is_repartition_topic(topic) or (
        topic.endswith(("-topic", "-topic\n")) and _FK_TOPIC.search(topic) is not None
    )


@functools.lru_cache(maxsize=1 << 16)  # rules ask it of every source and sink of an app
def generated_topic(topic: str) -> GeneratedName | None:
    """The generated name an internal topic is derived from (``KSTREAM-AGGREGATE-STATE-STORE-
    0000000002-repartition`` -> the store name), or ``None`` when the topic name was chosen."""
    base = topic
    for suffix in ("-repartition", "-topic"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
            break
    else:
        return None
    return generated(base)


def internal_topic(application_id: str | None, name: str, topology: str | None = None) -> str:
    """The real topic name of an internal topic (``<app>-[<topology>-]<name>``); ``<app>`` stays a
    placeholder when the application id is unknown."""
    app = application_id or "<application.id>"
    return f"{app}-{topology}-{name}" if topology else f"{app}-{name}"


def changelog_topic(application_id: str | None, store: str, topology: str | None = None) -> str:
    """``<application.id>-<store>-changelog`` (``<app>-<topology>-<store>-changelog`` when the
    topology is named)."""
    return internal_topic(application_id, f"{store}-changelog", topology)


def task_directory(
    state_dir: str | None, application_id: str | None, subtopology: int, partition: str = "*"
) -> str:
    """``<state.dir>/<application.id>/<subtopology>_<partition>``."""
    base = state_dir or "<state.dir>"
    app = application_id or "<application.id>"
    return f"{base.rstrip('/')}/{app}/{subtopology}_{partition}"


def repartition_fix(topic: str) -> str:
    """The DSL argument that names a generated repartition topic."""
    gen = generated_topic(topic)
    if gen is None:
        return "keep the current name"
    if gen.prefix == "KSTREAM-REPARTITION-":
        return 'Repartitioned.as("...")'
    if gen.store:
        return 'Grouped.as("...") (or Materialized.as("...") on the aggregation)'
    if gen.prefix in ("KSTREAM-KEY-SELECT-", "KSTREAM-MAP-", "KSTREAM-FLATMAP-"):
        return 'StreamJoined.withName("...") / Joined.as("...") on the join it feeds'
    if gen.prefix == "KSTREAM-TOTABLE-":
        return 'Named.as("...") on toTable'
    if gen.prefix.startswith("KTABLE-FK-JOIN"):
        return 'TableJoined.as("...")'
    return 'StreamJoined.withName("...") / Joined.as("...") / Grouped.as("...")'
