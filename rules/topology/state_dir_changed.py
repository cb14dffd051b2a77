"""KS306 state-dir-changed."""

from __future__ import annotations

from collections.abc import Iterator

from linter.topology.streams_config import DEFAULT_STATE_DIR
from rules.framework import Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations


@rule(
    id="KS306",
    name="state-dir-changed",
    severity=Severity.WARNING,
    impact=Impact.RESTORE,
    subject=STREAMS_CONFIG,
)
def state_dir_changed(subject: ConfigSubject) -> Iterator[Hit]:
    """``state.dir`` changed: every store restores in full from its changelog.

    Why: local state lives under ``<state.dir>/<application.id>``. In a new directory the
    instances find nothing and restore every store from its changelog before processing (and
    the old directory stays on disk).

    Example:

        Before:
            state.dir=/var/lib/kafka-streams

        After:
            state.dir=/data/kafka-streams

    Fix: move the directory contents with the instance stopped, or plan for the full restore.
    """
    cfg = subject.config
    if cfg.before is None or cfg.after is None:
        return
    old = cfg.before.state_dir or DEFAULT_STATE_DIR
    new = cfg.after.state_dir or DEFAULT_STATE_DIR
    if old == new:
        return
    yield Hit(
        message=f"state.dir changed from {old} to {new}: every store restores from its changelog.",
        resources=(config("state.dir"),),
        locations=config_locations(subject, "state.dir"),
        remediation="Move the state directory while stopped, or plan for the restore.",
        key="state.dir",
        steps=(f"Move {old} to {new} on every instance while it is stopped (or let it restore).",),
    )
