"""KS303 upgrade-from-required."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations

_OLD = ("0.10.0", "0.10.1", "0.10.2", "0.11.0", "1.0", "1.1", "2.0", "2.1", "2.2", "2.3")
_NEWER = tuple(f"2.{m}" for m in range(4, 9)) + tuple(f"3.{m}" for m in range(10)) + tuple(
    f"4.{m}" for m in range(4)
)


def _version(v: str | None) -> tuple[int, int] | None:
    if not v:
        return None
    parts = v.strip().split(".")
    try:
        return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    except ValueError:
        return None


def allowed_values(target: tuple[int, int] | None) -> tuple[str, ...]:
    """``upgrade.from`` values Streams accepts for a target version (4.2+ dropped <= 2.3)."""
    if target is not None and target >= (4, 2):
        return tuple(v for v in _NEWER if _version(v) is not None and _version(v) < target)  # type: ignore[operator]
    newer = _NEWER if target is None else tuple(
        v for v in _NEWER if (_version(v) or (0, 0)) < target
    )
    return _OLD + newer


@rule(
    id="KS303",
    name="upgrade-from-required",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=STREAMS_CONFIG,
)
def upgrade_from_required(subject: ConfigSubject) -> Iterator[Hit]:
    """A Streams upgrade from 3.4 or older needs ``upgrade.from`` and two bounces.

    An invalid ``upgrade.from`` value stops the application at start-up.

    Why: rolling upgrades from 3.4 or below change the rebalance metadata, the foreign-key-join
    and the repartition-topic (KIP-904) formats. Old and new instances only understand each
    other if the first bounce runs with ``upgrade.from=<old version>`` and a second bounce
    removes it. From 2.3 or below, 4.0+ is not reachable live (bridge release needed). A value
    Streams does not know fails config validation at start-up.

    Example:

        Before:
            application.id=orders-app

        After:
            application.id=orders-app
            upgrade.from=3.4.1

    Fix: set ``upgrade.from`` to the old version in ``x.y`` form for the first rolling bounce,
    then remove it and bounce again (pass ``--streams-version-before/--streams-version-after``
    so ksafe can check the jump).
    """
    cfg = subject.config
    after_value = cfg.after.value("upgrade.from") if cfg.after else None
    target = _version(cfg.version_after)
    if after_value is not None and after_value not in allowed_values(target):
        yield Hit(
            message=(
                f"upgrade.from={after_value} is not a value Kafka Streams accepts"
                f"{' in ' + cfg.version_after if cfg.version_after else ''} (expected x.y, e.g. "
                "3.4): the application fails at start-up."
            ),
            resources=(config("upgrade.from"),),
            locations=config_locations(subject, "upgrade.from"),
            remediation="Use the old version's major.minor, e.g. upgrade.from=3.4.",
            key="upgrade.from|invalid",
        )
    source = _version(cfg.version_before)
    if source is None or target is None or source >= target:
        return
    if source <= (2, 3) and target >= (3, 2):
        yield Hit(
            message=(
                f"Upgrading live from {cfg.version_before} to {cfg.version_after} is not "
                "supported: go through a bridge release (2.4 - 3.1) first."
            ),
            resources=(config("upgrade.from"),),
            locations=config_locations(subject, "upgrade.from"),
            remediation="Upgrade to a bridge release with upgrade.from first, or upgrade offline.",
            key="upgrade.from|bridge",
            requires=DeployStrategy.STOP_AND_RESTART,
            steps=("Upgrade offline (stop all instances, swap the jar, start) or go through a "
                   "2.4 - 3.1 bridge release with upgrade.from.",),
        )
    elif source <= (3, 4) and target >= (3, 5) and after_value is None:
        old = f"{source[0]}.{source[1]}"
        yield Hit(
            message=(
                f"Upgrading from {cfg.version_before} to {cfg.version_after} needs "
                f"upgrade.from={old} for a first rolling bounce, then a second one without it."
            ),
            resources=(config("upgrade.from"),),
            locations=config_locations(subject, "application.id"),
            remediation=f"Set upgrade.from={old} for the first bounce, remove it for the second.",
            key="upgrade.from|missing",
            requires=DeployStrategy.ROLLING_BOUNCE,
            steps=(
                f"Bounce 1: deploy the new version with upgrade.from={old}, one instance at a "
                "time.",
                "Bounce 2: remove upgrade.from and bounce every instance again.",
            ),
        )
