"""KS307 streams-config-changed."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations

# Keys whose changes other rules judge.
_JUDGED = frozenset(
    {
        "application.id",
        "processing.guarantee",
        "group.instance.id",
        "group.protocol",
        "state.dir",
        "upgrade.from",
    }
)


@rule(
    id="KS307",
    name="streams-config-changed",
    severity=Severity.INFO,
    impact=Impact.HYGIENE,
    subject=STREAMS_CONFIG,
)
def streams_config_changed(subject: ConfigSubject) -> Iterator[Hit]:
    """A Streams setting changed that no other rule judges.

    Why: most settings (threads, commit interval, cache size, standby replicas) only tune a
    running application and can change with a rolling bounce. They are listed so that no
    change passes unseen; ``topology.optimization`` changes that are safe for the topology at
    hand are listed here as well.

    Example:

        Before:
            num.stream.threads=2

        After:
            num.stream.threads=4

    Fix: nothing, if intended.
    """
    for change in subject.config.changes:
        if change.key in _JUDGED:
            continue
        old = change.before.value.strip() if change.before else "(unset)"
        new = change.after.value.strip() if change.after else "(unset)"
        yield Hit(
            message=f"{change.key} changed from {old} to {new}.",
            resources=(config(change.key),),
            locations=config_locations(subject, change.key),
            remediation="Nothing to do if intended.",
            key=change.key,
        )
