"""KS312 streams-start-refused."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations
from rules.topology.versions import minor

EOS_V1 = ("exactly_once", "exactly_once_beta")


@rule(
    id="KS312",
    name="streams-start-refused",
    severity=Severity.ERROR,
    impact=Impact.AVAILABILITY,
    subject=STREAMS_CONFIG,
)
def streams_start_refused(subject: ConfigSubject) -> Iterator[Hit]:
    """The new configuration is one Kafka Streams rejects at start-up: the application does not
    start.

    Why: StreamsConfig validates settings when the application starts and throws a
    ConfigException. Kafka Streams 4.0 removed EOS v1: ``processing.guarantee`` accepts only
    ``at_least_once`` and ``exactly_once_v2``. Kafka Streams 4.1 - 4.3 refuse
    ``group.instance.id`` (static membership) with ``group.protocol=streams`` (4.4 supports it).
    A rolling bounce onto such a config stops every instance it reaches.

    Example:

        Before:
            application.id=orders-app

        After:
            application.id=orders-app
            group.protocol=streams
            group.instance.id=orders-1

    Fix: for EOS v1, move to ``exactly_once_v2`` on a 3.x release first (a second bounce), then
    upgrade to 4.x; for static membership, remove ``group.instance.id`` or keep
    ``group.protocol=classic``.
    """
    cfg = subject.config
    after = cfg.after
    if after is None:
        return
    target = minor(cfg.version_after)
    guarantee = after.processing_guarantee
    if guarantee in EOS_V1 and target is not None and target >= (4, 0):
        yield Hit(
            message=(
                f"processing.guarantee={guarantee} (EOS v1) was removed in Kafka Streams 4.0: "
                f"{cfg.version_after} rejects it and the application does not start."
            ),
            resources=(config("processing.guarantee"),),
            locations=config_locations(subject, "processing.guarantee"),
            remediation=(
                "On the current 3.x release, switch to processing.guarantee=exactly_once_v2 "
                "(brokers >= 2.5) with a bounce, then upgrade to 4.x."
            ),
            key="processing.guarantee|eos-v1",
        )
    static = after.value("group.instance.id")
    streams = (after.value("group.protocol") or "").strip().lower() == "streams"
    if static and streams and (target is None or (4, 1) <= target <= (4, 3)):
        yield Hit(
            message=(
                "group.instance.id is set with group.protocol=streams: Kafka Streams "
                f"{cfg.version_after or '4.1 - 4.3'} rejects static membership with the "
                "streams rebalance protocol and the application does not start."
            ),
            resources=(config("group.instance.id"), config("group.protocol")),
            locations=config_locations(subject, "group.instance.id"),
            remediation=(
                "Remove group.instance.id, or use group.protocol=classic (or Streams 4.4+)."
            ),
            key="group.instance.id|streams-protocol",
        )
