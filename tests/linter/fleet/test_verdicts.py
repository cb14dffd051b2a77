"""An app's fleet verdict counts its fleet findings (no Spark: the single-process scan)."""

from __future__ import annotations

from linter.fleet.cluster import load_changes
from linter.fleet.inputs import assemble
from linter.fleet.local import scan_fleet
from linter.fleet.rows import FindingRow
from linter.fleet.verdicts import with_fleet
from tests.conftest import FIXTURES

FLEET = FIXTURES / "fleet"


def _row(severity: str, impact: str = "state-loss", requires: str | None = None,
         acknowledged: str | None = None) -> FindingRow:  # fmt: skip
    return FindingRow(
        app_id="a", check="lineage", version_before=None, version_after=None, rule="KS801",
        name="upstream-key-change", severity=severity, impact=impact, fingerprint="f",
        message="m", resources=(), remediation="", requires=requires, step=None,
        acknowledged=acknowledged,
    )  # fmt: skip


def test_an_upgrade_that_breaks_a_downstream_stateful_app_is_not_safe() -> None:
    fleet = {
        app.name: assemble(app.name, [(p.name, p.read_text(encoding="utf-8"))
                                      for p in sorted(app.iterdir())])
        for app in sorted((FLEET / "small").iterdir())
    }  # fmt: skip
    changes = load_changes(str(FLEET / "plan-add-partitions.yaml"), str(FLEET / "snapshot.yaml"))
    local = scan_fleet(fleet, changes=changes)
    own = {a.app_id: (a.verdict, a.strategy) for a in local.apps}
    verdicts = local.verdicts()
    # its own diff is safe, but it changes the key of a topic customer-totals keeps state on
    assert own["orders-enricher"] == ("safe", "rolling-bounce")
    assert verdicts["orders-enricher"] == ("unsafe", "rolling-bounce")
    assert verdicts["customer-totals"][0] == "unsafe"
    # the cluster plan adds partitions under its state: blue-green onto a new topic (a reset in
    # place would replay the same topic), and unsafe as planned
    assert verdicts["payment-fraud"] == ("unsafe", "blue-green")
    assert verdicts["broken-app"] == (None, None)


def test_with_fleet_follows_the_verdict_rule() -> None:
    assert with_fleet("safe", "rolling-bounce", []) == ("safe", "rolling-bounce")
    assert with_fleet(None, None, [_row("info")]) == (None, None)
    assert with_fleet("safe", None, [_row("warning", impact="restore")])[0] == "safe-with-restore"
    assert with_fleet("safe", None, [_row("warning", requires="blue-green")]) == (
        "safe-with-restore",
        "blue-green",
    )
    assert with_fleet("safe", None, [_row("error", acknowledged="known")]) == ("safe", None)
    assert with_fleet("unsafe", "application-reset", [_row("warning")]) == (
        "unsafe",
        "application-reset",
    )
