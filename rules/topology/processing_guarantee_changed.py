"""KS304 processing-guarantee-changed."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations
from rules.topology.streams_start_refused import EOS_V1
from rules.topology.versions import minor


@rule(
    id="KS304",
    name="processing-guarantee-changed",
    severity=Severity.WARNING,
    impact=Impact.AVAILABILITY,
    subject=STREAMS_CONFIG,
)
def processing_guarantee_changed(subject: ConfigSubject) -> Iterator[Hit]:
    """``processing.guarantee`` changed, or uses a value Kafka Streams 4.0 removed.

    Why: ``exactly_once`` and ``exactly_once_beta`` (EOS v1) are gone in 4.0 (on a 4.x target KS312
    reports that the application does not start). Moving from EOS v1 must go through a 3.x
    release on ``exactly_once_v2``. ``exactly_once_v2`` needs brokers 2.5 or newer and, by
    default, at least three brokers (transaction log replication 3, min ISR 2). Switching
    guarantees changes commit behaviour and, from EOS to at-least-once, gives up transactional
    output for downstream ``read_committed`` consumers.

    Example:

        Before:
            processing.guarantee=at_least_once

        After:
            processing.guarantee=exactly_once

    Fix: use ``exactly_once_v2`` (brokers >= 2.5); deploy the switch with a stop-and-restart.
    """
    cfg = subject.config
    before = cfg.before.processing_guarantee if cfg.before else None
    after = cfg.after.processing_guarantee if cfg.after else None
    target = minor(cfg.version_after)
    if after in EOS_V1 and (target is None or target < (4, 0)):
        # on 4.0+ the application does not start: KS312 (error) says so
        yield Hit(
            message=(
                f"processing.guarantee={after} (EOS v1) is deprecated and removed in Kafka "
                "Streams 4.0; move to exactly_once_v2 on a 3.x release before upgrading to 4.x."
            ),
            resources=(config("processing.guarantee"),),
            locations=config_locations(subject, "processing.guarantee"),
            remediation="Set processing.guarantee=exactly_once_v2 (brokers >= 2.5).",
            key="processing.guarantee|eos-v1",
        )
    if before is not None and after is not None and before != after:
        yield Hit(
            message=(
                f"processing.guarantee changed from {before} to {after}"
                + ("; exactly_once_v2 needs brokers >= 2.5 and three brokers by default."
                   if after == "exactly_once_v2" else ".")
            ),
            resources=(config("processing.guarantee"),),
            locations=config_locations(subject, "processing.guarantee"),
            remediation="Check broker versions and transaction settings; stop and restart.",
            key=f"processing.guarantee|{before}->{after}",
            requires=DeployStrategy.STOP_AND_RESTART,
            steps=("Stop every instance, then start all of them with the new guarantee.",),
        )
