"""Which removed and added stores replace each other: same inputs, same outputs."""

from __future__ import annotations

from linter.topology.diff_flow import replacements
from linter.topology.diff_side import groups, index
from linter.topology.parse import parse

BEFORE = """Topologies:
   Sub-topology: 0
    Source: orders-in (topics: [orders])
      --> order-count
    Processor: order-count (stores: [order-counts])
      --> to-out
      <-- orders-in
    Sink: to-out (topic: order-counts)
      <-- order-count
"""


def _after(output: str, source_topic: str = "orders") -> str:
    return f"""Topologies:
   Sub-topology: 0
    Source: in (topics: [{source_topic}])
      --> by-customer
    Processor: by-customer (stores: [])
      --> by-customer-repartition-filter
      <-- in
    Processor: by-customer-repartition-filter (stores: [])
      --> by-customer-repartition-sink
      <-- by-customer
    Sink: by-customer-repartition-sink (topic: by-customer-repartition)
      <-- by-customer-repartition-filter

  Sub-topology: 1
    Source: by-customer-repartition-source (topics: [by-customer-repartition])
      --> totals
    Processor: totals (stores: [totals-store])
      --> to-out
      <-- by-customer-repartition-source
    Sink: to-out (topic: {output})
      <-- totals
"""


def _replaced(after_text: str) -> list[tuple[list[str], list[str], set[str], set[str]]]:
    b = parse(BEFORE, "b")
    a = parse(after_text, "a")
    sb, sa = index(groups(b)[""], ""), index(groups(a)[""], "")
    found = replacements(sb, sa, list(sb.stores.values()), list(sa.stores.values()))
    return [
        ([s.name for s in r.removed], [s.name for s in r.added], set(r.inputs), set(r.outputs))
        for r in found
    ]


def test_same_inputs_and_outputs_through_a_repartition_topic() -> None:
    assert _replaced(_after("order-counts")) == [
        (["order-counts"], ["totals-store"], {"orders"}, {"order-counts"})
    ]


def test_another_output_is_not_a_replacement() -> None:
    assert _replaced(_after("customer-totals")) == []


def test_another_input_is_not_a_replacement() -> None:
    assert _replaced(_after("order-counts", source_topic="payments")) == []
