"""KS309 streams-downgrade."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations
from rules.topology.versions import minor


@rule(
    id="KS309",
    name="streams-downgrade",
    severity=Severity.WARNING,
    impact=Impact.RESTORE,
    subject=STREAMS_CONFIG,
)
def streams_downgrade(subject: ConfigSubject) -> Iterator[Hit]:
    """The Kafka Streams library goes back to an older minor version.

    Why: the upgrade guide's downgrade notes name boundaries that newer versions' local state
    and repartition records cannot cross back. 4.3+ to 4.2 or older is not supported in flight
    (KIP-1035 keeps changelog offsets in a RocksDB ``offsets`` column family older versions
    cannot open): stop every instance, delete ``state.dir``, then start the old version. 4.0+
    to older than 4.0: delete the local RocksDB state first (RocksDB 7.9.2 -> 9.7.3, format
    version 5 -> 6); the same from 3.0+ to 2.8 or older. 3.5+ to 3.4 or older: first set
    ``upgrade.from`` to the target version and wait until the repartition records written in
    the new format (KIP-904) are consumed. Deleted local state is restored from the changelog
    topics. A minor downgrade no note covers is not known to be safe in flight either, so it is
    planned as a stop-and-restart too.

    Example:

        Versions: 4.3.1 -> 4.2.0

        Before:
            application.id=orders-app

        After:
            application.id=orders-app

    Fix: follow the steps for every boundary the downgrade crosses; deploy with a
    stop-and-restart.
    """
    cfg = subject.config
    source, target = minor(cfg.version_before), minor(cfg.version_after)
    if source is None or target is None or source <= target:
        return
    steps: list[str] = []
    crossed: list[str] = []
    if source >= (3, 5) and target <= (3, 4):
        crossed.append("3.5+ -> 3.4 or older: repartition record format (KIP-904)")
        steps.append(
            f"Before downgrading, set upgrade.from={target[0]}.{target[1]} on the running "
            f"{cfg.version_before} instances, bounce them, and wait until the consumer lag on "
            "every repartition topic is 0."
        )
    delete_state = False
    if source >= (4, 3) and target <= (4, 2):
        crossed.append("4.3+ -> 4.2 or older: in-flight downgrade not supported (KIP-1035)")
        delete_state = True
    if source >= (4, 0) and target < (4, 0):
        crossed.append("4.0+ -> older than 4.0: RocksDB 9.7.3 -> 7.9.2, format version 6 -> 5")
        delete_state = True
    if source >= (3, 0) and target <= (2, 8):
        crossed.append("3.0+ -> 2.8 or older: RocksDB on-disk format")
        delete_state = True
    steps.append("Stop every instance of the application.")
    if delete_state:
        steps.append(
            "On every instance, delete the application's directory under state.dir (local "
            "state is restored from the changelog topics)."
        )
    steps.append(f"Start the {cfg.version_after} version on every instance.")
    if crossed:
        why = "; ".join(crossed)
    else:
        why = (
            "no documented downgrade note covers this jump, so a rolling downgrade is not known "
            "to be safe; check the upgrade notes of both versions"
        )
    yield Hit(
        message=(
            f"Kafka Streams is downgraded from {cfg.version_before} to {cfg.version_after}: "
            f"{why}."
        ),
        resources=(config("streams.version"),),
        locations=config_locations(subject, "application.id"),
        remediation="Stop all instances"
        + (", delete local state" if delete_state else "")
        + ", then start the old version; a rolling downgrade is not safe.",
        key=f"downgrade|{source[0]}.{source[1]}->{target[0]}.{target[1]}",
        requires=DeployStrategy.STOP_AND_RESTART,
        steps=tuple(steps),
    )
