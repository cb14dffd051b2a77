"""KS311 group-protocol-changed."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations
from rules.topology.versions import minor, parse


def _protocol(value: str | None) -> str:
    return (value or "classic").strip().lower()


@rule(
    id="KS311",
    name="group-protocol-changed",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=STREAMS_CONFIG,
)
def group_protocol_changed(subject: ConfigSubject) -> Iterator[Hit]:
    """``group.protocol`` switches between ``classic`` and ``streams`` (KIP-1071).

    Why: a group cannot run both rebalance protocols at once, so the switch is an offline
    migration: stop every member, wait ``session.timeout.ms`` (or make the members leave the
    group), switch ``group.protocol``, restart. Only committed offsets carry over; internal
    topics stay. Kafka Streams 4.1 (early access) has no protocol migration: the streams
    protocol needs a new ``application.id`` there, i.e. a full reset. The migration is broken
    on 4.2.0 (KAFKA-20254, fixed in 4.2.1).

    Example:

        Before:
            application.id=orders-app

        After:
            application.id=orders-app
            group.protocol=streams

    Fix: stop all instances, wait ``session.timeout.ms``, deploy the switch, start them again
    (on 4.1: a new ``application.id``; never on 4.2.0).
    """
    cfg = subject.config
    old = _protocol(cfg.before.value("group.protocol") if cfg.before else None)
    new = _protocol(cfg.after.value("group.protocol") if cfg.after else None)
    if old == new:
        return
    target = minor(cfg.version_after)
    on_4_1 = target == (4, 1)
    steps = (
        (
            "Kafka Streams 4.1 cannot migrate a group between protocols: run the application "
            "under a new application.id (a full reset: it reprocesses its input).",
        )
        if on_4_1
        else (
            "Stop every instance of the application.",
            "Wait session.timeout.ms (or force the members out of the group) so no member "
            "of the old protocol remains.",
            f"Deploy group.protocol={new} and start every instance.",
        )
    )
    broken = " It is broken on 4.2.0 (KAFKA-20254): use 4.2.1 or later." if (
        parse(cfg.version_after) == (4, 2, 0) or cfg.version_after is None
    ) else ""
    yield Hit(
        message=(
            f"group.protocol changed from {old} to {new}: an offline migration (stop all "
            "members, wait session.timeout.ms, switch, restart), not a rolling bounce"
            + ("; Kafka Streams 4.1 needs a new application.id instead." if on_4_1 else ".")
            + broken
        ),
        resources=(config("group.protocol"),),
        locations=config_locations(subject, "group.protocol"),
        remediation=(
            "Use a new application.id (full reset)." if on_4_1
            else "Stop all instances, wait session.timeout.ms, switch, start them again."
        ),
        key=f"group.protocol|{old}->{new}",
        requires=DeployStrategy.RESET if on_4_1 else DeployStrategy.STOP_AND_RESTART,
        steps=steps,
    )
