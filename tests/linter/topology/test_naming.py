"""Generated-name recognition, derived roles, internal topic names and DSL fixes."""

from __future__ import annotations

import pytest

from linter.topology import naming
from linter.topology.store_naming import keep_store_name, store_fix, store_kind


@pytest.mark.parametrize(
    ("name", "prefix", "index", "rest", "store"),
    [
        ("KSTREAM-FILTER-0000000001", "KSTREAM-FILTER-", 1, "", False),
        ("KSTREAM-KEY-SELECT-0000000012", "KSTREAM-KEY-SELECT-", 12, "", False),
        ("KSTREAM-AGGREGATE-STATE-STORE-0000000002", "KSTREAM-AGGREGATE-", 2, "", True),
        ("users-STATE-STORE-0000000000", "users-", 0, "", True),
        ("KSTREAM-JOINTHIS-0000000004-store", "KSTREAM-JOINTHIS-", 4, "-store", False),
        ("KSTREAM-BRANCH-00000000270", "KSTREAM-BRANCH-", 27, "0", False),
        ("KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010", "KTABLE-FK-JOIN-SUBSCRIPTION-",
         10, "", True),
    ],
)
def test_generated_names(name: str, prefix: str, index: int, rest: str, store: bool) -> None:
    gen = naming.generated(name)
    assert gen is not None
    assert (gen.prefix, gen.index, gen.rest, gen.store) == (prefix, index, rest, store)


@pytest.mark.parametrize(
    "name", ["orders", "GroupOrders-repartition-filter", "Purchase_count_store", "KSTREAM-1"]
)
def test_chosen_names(name: str) -> None:
    assert naming.generated(name) is None


def test_operator_table() -> None:
    agg = naming.OPERATORS["KSTREAM-AGGREGATE-"]
    assert agg.stateful
    assert not agg.key_changing
    assert "Materialized.as" in agg.fix
    assert naming.OPERATORS["KSTREAM-KEY-SELECT-"].key_changing
    assert naming.OPERATORS["KTABLE-SUPPRESS-"].fix == 'Suppressed.withName("...")'
    assert "Branched.as" in naming.OPERATORS["KSTREAM-BRANCH-"].fix
    assert "Consumed.as" in naming.OPERATORS["KSTREAM-SOURCE-"].fix
    assert "Produced.as" in naming.OPERATORS["KSTREAM-SINK-"].fix
    assert "StreamJoined.withStoreName" in naming.OPERATORS["KSTREAM-JOINTHIS-"].fix


@pytest.mark.parametrize(
    ("name", "role"),
    [
        ("KSTREAM-MAP-0000000003", "KSTREAM-MAP-"),
        ("join-this-windowed", "KSTREAM-WINDOWED-"),
        ("join-other-join", "KSTREAM-JOINOTHER-"),
        ("count-repartition-filter", "KSTREAM-FILTER-"),
        ("agg-cogroup-agg-0", "COGROUPKSTREAM-AGGREGATE-"),
        ("LeftSourceKeyed-SelectKey", "KSTREAM-KEY-SELECT-"),
        ("AggregateDailyOrders", None),
    ],
)
def test_roles(name: str, role: str | None) -> None:
    assert naming.role_of(name) == role


def test_key_changing() -> None:
    def changes_key(name: str) -> bool:
        op = naming.OPERATORS.get(naming.role_of(name) or "")
        return op is not None and op.key_changing

    assert changes_key("KSTREAM-FLATMAP-0000000001")
    assert changes_key("orders-SelectKey")  # a chosen name that says so
    assert not changes_key("KSTREAM-FLATMAPVALUES-0000000001")
    assert not changes_key("GroupOrders")


def test_internal_topics() -> None:
    assert naming.is_internal_topic("GroupOrders-repartition")
    assert naming.is_internal_topic("KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic")
    assert naming.is_internal_topic("x-subscription-response-topic")
    assert not naming.is_internal_topic("orders")
    gen = naming.generated_topic("KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition")
    assert gen is not None
    assert gen.store
    assert naming.generated_topic("count-repartition") is None


def test_derived_names() -> None:
    assert naming.changelog_topic("app", "orders") == "app-orders-changelog"
    assert naming.changelog_topic("app", "orders", "topo") == "app-topo-orders-changelog"
    assert naming.changelog_topic(None, "s") == "<application.id>-s-changelog"
    assert naming.internal_topic("app", "x-repartition") == "app-x-repartition"
    assert naming.task_directory("/var/ks", "app", 1) == "/var/ks/app/1_*"
    assert naming.task_directory(None, None, 0, "3") == "<state.dir>/<application.id>/0_3"


def test_fixes() -> None:
    assert store_fix("KSTREAM-AGGREGATE-STATE-STORE-0000000001") == 'Materialized.as("...")'
    assert "StreamJoined.withStoreName" in store_fix("KSTREAM-JOINTHIS-0000000004-store")
    suppress = store_fix("KTABLE-SUPPRESS-STATE-STORE-0000000007")
    assert suppress.startswith('Suppressed.withName("...")')
    fk = store_fix("KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010")
    assert "TableJoined.as" in fk
    assert "builder.table" in store_fix("users-STATE-STORE-0000000000")
    assert "persistentVersionedKeyValueStore" in store_fix("users-STATE-STORE-0000000000")
    table = keep_store_name("users", "KTABLE-SOURCE-0000000001")
    assert "persistentVersionedKeyValueStore" in table
    assert naming.repartition_fix("KSTREAM-REPARTITION-0000000003-repartition") == (
        'Repartitioned.as("...")'
    )
    assert "Grouped.as" in naming.repartition_fix(
        "KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition"
    )
    assert "StreamJoined.withName" in naming.repartition_fix(
        "KSTREAM-KEY-SELECT-0000000001-repartition"
    )


@pytest.mark.parametrize(
    ("store", "owner", "kind", "keep"),
    [
        ("KSTREAM-AGGREGATE-STATE-STORE-0000000001", None, "materialized",
         'Materialized.as("KSTREAM-AGGREGATE-STATE-STORE-0000000001")'),
        ("orders-this-join-store", None, "stream-join", 'StreamJoined.withStoreName("orders")'),
        ("orders-other-join-store", None, "stream-join", 'StreamJoined.withStoreName("orders")'),
        ("orders-outer-shared-join-store", None, "stream-join",
         'StreamJoined.withStoreName("orders")'),
        ("KSTREAM-OUTERSHARED-0000000004-store", None, "stream-join", None),
        ("KTABLE-SUPPRESS-STATE-STORE-0000000007", None, "suppress-buffer", None),
        ("KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010", None, "fk-subscription", None),
        ("cust-subscription-store", None, "fk-subscription", 'TableJoined.as("cust")'),
        ("users-STATE-STORE-0000000000", None, "table-source",
         'Materialized.as("users-STATE-STORE-0000000000")'),
        ("users", "KTABLE-SOURCE-0000000001", "table-source", 'Materialized.as("users")'),
        ("enrich-Buffer", None, "join-buffer", 'Joined.as("enrich")'),
        ("dedup", "KSTREAM-PROCESSOR-0000000003", "processor-api", None),
    ],
)
def test_store_kinds(store: str, owner: str | None, kind: str, keep: str | None) -> None:
    got = store_kind(store, owner)
    assert got.kind == kind
    if keep is not None:
        assert got.keep is not None
        assert got.keep.startswith(keep)
        assert keep in keep_store_name(store, owner)
    elif got.keep is None:
        assert keep_store_name(store, owner).startswith(f"No DSL name gives back {store}")
