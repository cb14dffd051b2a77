"""KS305 group-instance-id-changed."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations


@rule(
    id="KS305",
    name="group-instance-id-changed",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=STREAMS_CONFIG,
)
def group_instance_id_changed(subject: ConfigSubject) -> Iterator[Hit]:
    """``group.instance.id`` (static membership) changed value.

    Why: the static member id identifies an instance across restarts. Setting or unsetting it
    toggles static membership, which is fine; changing an existing value makes the group see a
    new member, with a full rebalance and task moves (and restores) instead of a quiet restart.
    (With ``group.protocol=streams`` on 4.1 - 4.3 static membership is rejected at start-up:
    KS312.)

    Example:

        Before:
            group.instance.id=orders-1

        After:
            group.instance.id=orders-node-1

    Fix: keep each instance's ``group.instance.id`` stable; change it only with the instance
    stopped for longer than ``session.timeout.ms``.
    """
    cfg = subject.config
    change = cfg.change("group.instance.id")
    if change is not None and change.before is not None and change.after is not None:
        yield Hit(
            message=(
                f"group.instance.id changed from {change.before.value.strip()} to "
                f"{change.after.value.strip()}: the instance rejoins as a new member "
                "(rebalance, task moves)."
            ),
            resources=(config("group.instance.id"),),
            locations=config_locations(subject, "group.instance.id"),
            remediation="Keep the static member id stable.",
            key="group.instance.id",
        )
