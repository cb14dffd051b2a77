"""Which DSL call names a state store, by the kind of store, and whether a given name can be kept.

Stores are named by different config classes, each adding its own suffix: aggregations,
``toTable``, KTable operations and table sources take the name as given (``Materialized.as``);
stream-stream join window stores are ``<withStoreName>-this-join-store`` /
``-other-join-store`` (left/outer joins add ``-outer-shared-join-store`` or
``-left-shared-join-store``), and when unnamed ``<join processor>-store``, which no name can give
back; suppression buffers are ``<Suppressed.withName>-store``; foreign-key join subscription
stores ``<TableJoined.as>-subscription-store``; stream-table join grace buffers
``<Joined.as>-Buffer``. So "keep the old name" means a different call, or is impossible, by kind.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from linter.topology import naming

StoreKindName = Literal[
    "stream-join",
    "suppress-buffer",
    "fk-subscription",
    "join-buffer",
    "table-source",
    "materialized",
    "processor-api",
    "chosen",
]

_JOIN_SUFFIX = re.compile(
    r"^(?P<base>.+?)-(?:outer-this|outer-other|this|other)-join-store$"
    r"|^(?P<shared>.+?)-(?:outer|left)-shared-join-store$"
)
_GENERATED_JOIN = re.compile(
    r"^KSTREAM-(?:JOINTHIS|JOINOTHER|OUTERTHIS|OUTEROTHER|OUTERSHARED)-\d{10}-store$"
)
_PAPI_OWNERS = frozenset(
    {
        "KSTREAM-PROCESSOR-",
        "KSTREAM-PROCESSVALUES-",
        "KSTREAM-TRANSFORM-",
        "KSTREAM-TRANSFORMVALUES-",
    }
)

_JOIN_CALL = (
    'StreamJoined.withStoreName("...") (stores <name>-this-join-store and '
    "<name>-other-join-store, plus <name>-outer-shared-join-store for left/outer joins; "
    "StreamJoined.withName names the processors only)"
)
_TABLE_CALL = (
    'Materialized.as("...") on builder.table()/globalTable() (a versioned table: '
    'Materialized.as(Stores.persistentVersionedKeyValueStore("...", historyRetention)))'
)


@dataclass(frozen=True, slots=True)
class StoreKind:
    """What kind of store a name belongs to, the call that names such a store (``fix``, with
    ``"..."``), and the call that gives exactly this name (``keep``; ``None`` when no name passed
    to the DSL can produce it, as for generated join, suppression and subscription stores)."""

    kind: StoreKindName
    fix: str
    keep: str | None


@functools.lru_cache(maxsize=1 << 14)
def store_kind(store: str, owner: str | None = None) -> StoreKind:
    """The kind of ``store``, from its name and, when the name alone does not tell, the name of a
    processor that owns it (a named suppression's buffer is ``<processor name>-store``)."""
    if _GENERATED_JOIN.match(store):
        return StoreKind("stream-join", _JOIN_CALL, None)
    m = _JOIN_SUFFIX.match(store)
    if m is not None:
        base = m["base"] or m["shared"]
        return StoreKind("stream-join", _JOIN_CALL, f'StreamJoined.withStoreName("{base}")')
    if store.endswith("-Buffer") and len(store) > len("-Buffer"):
        base = store[: -len("-Buffer")]
        return StoreKind(
            "join-buffer",
            'Joined.as("...") on the stream-table join (buffer <name>-Buffer)',
            f'Joined.as("{base}")',
        )
    gen = naming.generated(store)
    if gen is not None and gen.prefix == "KTABLE-SUPPRESS-":
        return StoreKind("suppress-buffer", _SUPPRESS_CALL, None)
    owner_role = naming.role_of(owner) if owner is not None else None
    if owner is not None and store == f"{owner}-store":
        # A named suppress() prints ``x (stores: [x-store])``; so may an aggregation named ``x``
        # that materialises ``x-store``: the text cannot tell them apart.
        keep = f'Suppressed.withName("{owner}")'
        if owner_role == "KTABLE-SUPPRESS-":
            return StoreKind("suppress-buffer", _SUPPRESS_CALL, keep)
        return StoreKind(
            "chosen",
            _CHOSEN_CALL,
            f'{keep} if {owner} is a suppress(), else Materialized.as("{store}")',
        )
    if gen is not None and gen.prefix == "KTABLE-FK-JOIN-SUBSCRIPTION-":
        return StoreKind("fk-subscription", _FK_CALL, None)
    if store.endswith("-subscription-store") and len(store) > len("-subscription-store"):
        base = store[: -len("-subscription-store")]
        return StoreKind("fk-subscription", _FK_CALL, f'TableJoined.as("{base}")')
    if gen is not None and gen.store and gen.prefix not in naming.OPERATORS and not (
        gen.prefix.startswith(("KSTREAM-", "KTABLE-", "COGROUPKSTREAM-"))
    ):
        return StoreKind("table-source", _TABLE_CALL, _table_keep(store))
    if gen is not None:
        return StoreKind("materialized", 'Materialized.as("...")', f'Materialized.as("{store}")')
    if owner_role == "KTABLE-SOURCE-":
        return StoreKind("table-source", _TABLE_CALL, _table_keep(store))
    if owner_role in _PAPI_OWNERS:
        return StoreKind(
            "processor-api",
            'the name given to the StoreBuilder (Stores.persistentKeyValueStore("...") or '
            "another Stores supplier)",
            f'the StoreBuilder named "{store}" (Stores.persistentKeyValueStore("{store}") or '
            "another Stores supplier)",
        )
    return StoreKind(
        "chosen",
        _CHOSEN_CALL,
        f'Materialized.as("{store}") (or the Stores supplier named "{store}" for a Processor '
        "API store)",
    )


def _table_keep(store: str) -> str:
    return (
        f'Materialized.as("{store}") on builder.table()/globalTable() (a versioned table: '
        f'Materialized.as(Stores.persistentVersionedKeyValueStore("{store}", historyRetention)))'
    )


_CHOSEN_CALL = 'Materialized.as("...") (or the Stores supplier of a Processor API store)'
_SUPPRESS_CALL = 'Suppressed.withName("...") (buffer <name>-store)'
_FK_CALL = 'TableJoined.as("...") (subscription store <name>-subscription-store)'


def store_fix(store: str, owner: str | None = None) -> str:
    """The DSL call that names a store of this kind (``"..."`` for the name)."""
    return store_kind(store, owner).fix


_NAMED_BY = {
    "stream-join": "StreamJoined.withStoreName",
    "suppress-buffer": "Suppressed.withName",
    "fk-subscription": "TableJoined.as",
}


def keep_store_name(store: str, owner: str | None = None) -> str:
    """How to keep exactly ``store`` as the name in the next version, or why no name can (a
    sentence without its final full stop)."""
    kind = store_kind(store, owner)
    if kind.keep is not None:
        return f"Keep the name {store}: {kind.keep}"
    gen = naming.generated(store)
    index = f" at {gen.index:010d}" if gen is not None else ""
    return (
        f"No DSL name gives back {store} ({_NAMED_BY.get(kind.kind, 'the config class')} adds "
        "its own suffix): leave the operator unnamed and the operators before it unchanged so "
        f"its generated index stays{index}"
    )
