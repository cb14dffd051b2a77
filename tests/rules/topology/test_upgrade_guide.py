"""The two examples of the Kafka Streams upgrade guide (Responsive, "Kafka Streams 101:
upgrades"), as hand-written describe() fixtures in ``fixtures/examples/``."""

from __future__ import annotations

from linter import api
from linter.topology.parse import parse_file
from tests.conftest import FIXTURES

EXAMPLES = FIXTURES / "examples"


def test_filter_inserted_before_count_in_an_unnamed_app() -> None:
    """``...STATE-STORE-0000000001`` becomes ``...0000000002``: the changelog changes, the count
    restarts from zero. This is the README's example pair."""
    report = api.diff(
        parse_file(EXAMPLES / "word-count-v1.txt"),
        parse_file(EXAMPLES / "word-count-v2.txt"),
        api.Settings(application_id="word-count"),
    )
    errors = [f for f in report.findings if f.severity.value == "error"]
    assert [f.name for f in errors] == ["store-renamed"]
    names = {r.name for r in errors[0].resources}
    assert "KSTREAM-AGGREGATE-STATE-STORE-0000000001" in names
    assert "KSTREAM-AGGREGATE-STATE-STORE-0000000002" in names
    assert "word-count-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog" in names
    assert report.verdict is not None
    assert report.verdict.value == "unsafe"


def test_group_by_key_to_group_by_with_named_operators() -> None:
    """The store ``orders`` keeps its name but moves from sub-topology 0 to 1 behind a new
    repartition topic: a full restore (task directories change) and, worse, records now keyed
    by the new grouping key. Not a rename."""
    report = api.diff(
        parse_file(EXAMPLES / "orders-v1.txt"),
        parse_file(EXAMPLES / "orders-v2.txt"),
        api.Settings(application_id="daily-order-aggregator"),
    )
    names = [f.name for f in report.findings]
    assert "store-moved-subtopology" in names
    assert "key-change-before-stateful" in names
    assert "store-renamed" not in names
    moved = next(f for f in report.findings if f.name == "store-moved-subtopology")
    assert "from sub-topology 0 to 1" in moved.message
    assert report.plan is not None
    steps = "\n".join(report.plan.steps)
    assert "<state.dir>/daily-order-aggregator/0_*/orders" in steps
    assert "daily-order-aggregator-orders-changelog" in steps
