"""KS310 known-bad-release."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations
from rules.topology.versions import parse

# release -> (what is wrong, the release to use instead)
_BAD: dict[tuple[int, int, int], tuple[str, str]] = {
    (4, 1, 0): ("has a memory leak (KAFKA-19748)", "4.1.1"),
    (4, 3, 0): ("has a RocksDB native memory leak (KAFKA-20616)", "4.3.1"),
}


@rule(
    id="KS310",
    name="known-bad-release",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=STREAMS_CONFIG,
)
def known_bad_release(subject: ConfigSubject) -> Iterator[Hit]:
    """The target Kafka Streams release has a known defect fixed in the next patch release.

    Why: Kafka Streams 4.1.0 leaks memory (KAFKA-19748, fixed in 4.1.1) and 4.3.0 leaks RocksDB
    native memory (KAFKA-20616, fixed in 4.3.1). (The ``group.protocol`` migration bug of 4.2.0,
    KAFKA-20254, is reported by KS311 where the protocol changes.)

    Example:

        Versions: 4.0.0 -> 4.1.0

        Before:
            application.id=orders-app

        After:
            application.id=orders-app

    Fix: deploy the fixed patch release instead (4.1.1, 4.3.1).
    """
    cfg = subject.config
    target = parse(cfg.version_after)
    if target is None:
        return
    bad = _BAD.get(target)
    if bad is not None:
        what, fixed = bad
        yield Hit(
            message=f"Kafka Streams {cfg.version_after} {what}: use {fixed}.",
            resources=(config("streams.version"),),
            locations=config_locations(subject, "application.id"),
            remediation=f"Deploy Kafka Streams {fixed} instead of {cfg.version_after}.",
            key=f"release|{cfg.version_after}",
        )
