"""KS301 application-id-changed."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations


@rule(
    id="KS301",
    name="application-id-changed",
    severity=Severity.ERROR,
    impact=Impact.STATE_LOSS,
    subject=STREAMS_CONFIG,
)
def application_id_changed(subject: ConfigSubject) -> Iterator[Hit]:
    """``application.id`` changed: the new version is a new application with no state.

    Why: the application id is the consumer group id, the prefix of every changelog and
    repartition topic, and the state directory name. A new id starts without committed offsets
    (input read from ``auto.offset.reset``), without state, and leaves the old internal topics
    and group behind: it is a full reset.

    Example:

        Before:
            application.id=orders-app

        After:
            application.id=orders-app-v2

    Fix: keep the id, unless a fresh start is the point (blue-green deployments do this on
    purpose); then delete the old group and internal topics once the old version is retired.
    """
    change = subject.config.change("application.id")
    if change is None or change.before is None or change.after is None:
        return
    old, new = change.before.value.strip(), change.after.value.strip()
    yield Hit(
        message=(
            f"application.id changed from {old} to {new}: a new consumer group, new internal "
            "topics and empty state, i.e. a full reset."
        ),
        resources=(config("application.id"),),
        locations=config_locations(subject, "application.id"),
        remediation="Keep the application id unless a fresh start is intended.",
        key="application.id",
        requires=DeployStrategy.RESET,
        steps=(
            f"Stop every instance of {old}.",
            f"Start every instance of {new}: it reads its inputs from auto.offset.reset "
            "(earliest by default in Streams) and rebuilds its state: make sure that is intended.",
            f"Retire {old}: kafka-streams-application-reset.sh --bootstrap-server <host:port> "
            f"--application-id {old} deletes its internal topics ({old}-*-changelog, "
            f"{old}-*-repartition); kafka-consumer-groups.sh --bootstrap-server <host:port> "
            f"--delete --group {old} deletes its group; delete <state.dir>/{old} on every "
            "instance.",
        ),
    )
