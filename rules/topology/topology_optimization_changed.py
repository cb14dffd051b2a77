"""KS302 topology-optimization-changed."""

from __future__ import annotations

from collections.abc import Iterator

from linter.topology.streams_config import StreamsConfig
from rules.framework import DeployStrategy, Hit, Impact, Severity, rule
from rules.topology.context import ConfigSubject, config, config_locations

_EFFECT: dict[tuple[str, bool], tuple[str, DeployStrategy, str]] = {
    ("reuse.ktable.source.topics", False): (
        "cannot be turned off once used: source tables would switch to a new changelog topic "
        "that misses every record written before",
        DeployStrategy.RESET,
        "Keep reuse.ktable.source.topics on, or reset the application to rebuild the tables.",
    ),
    ("merge.repartition.topics", True): (
        "merges repartition topics: the ones it drops lose their in-flight records and "
        "stores may move between sub-topologies",
        DeployStrategy.STOP_AND_RESTART,
        "Drain every repartition topic before deploying (stop the inputs, wait for lag 0).",
    ),
    ("merge.repartition.topics", False): (
        "splits merged repartition topics again: the merged topic's in-flight records are lost "
        "and stores move between sub-topologies",
        DeployStrategy.STOP_AND_RESTART,
        "Drain every repartition topic before deploying (stop the inputs, wait for lag 0).",
    ),
    ("single.store.self.join", True): (
        "changes the stores of stream-stream self-joins; safe only if every operator is named",
        DeployStrategy.STOP_AND_RESTART,
        "Check with ksafe diff on the optimized describe() that no store is renamed.",
    ),
    ("single.store.self.join", False): (
        "cannot be turned off once used: the self-join's single store would split into two "
        "empty stores",
        DeployStrategy.RESET,
        "Keep single.store.self.join on, or reset the application.",
    ),
}


def _opts(cfg: StreamsConfig | None) -> frozenset[str]:
    return cfg.optimizations() if cfg is not None else frozenset()


@rule(
    id="KS302",
    name="topology-optimization-changed",
    severity=Severity.ERROR,
    impact=Impact.STATE_LOSS,
    subject="streams-config",
)
def topology_optimization_changed(subject: ConfigSubject) -> Iterator[Hit]:
    """A ``topology.optimization`` sub-option was turned on or off in a way that breaks state.

    Why: optimizations rewrite the physical topology. ``reuse.ktable.source.topics`` uses a source
    table's input topic as its changelog: safe to enable, impossible to disable (the new changelog
    would be empty). ``merge.repartition.topics`` removes or re-adds repartition topics: records in
    flight are lost unless the topics are drained. ``single.store.self.join`` changes the stores of
    self-joins: enable only with named operators, never disable. ``all`` means all three.
    (The optimizations only apply when the properties are passed to ``StreamsBuilder#build``.)

    Example:

        Before:
            topology.optimization=all

        After:
            topology.optimization=none

    Fix: decide per sub-option: keep reuse/self-join on once used; drain repartition topics
    before toggling the merge. Diff the optimized describe() output of both versions too.
    """
    before, after = _opts(subject.config.before), _opts(subject.config.after)
    for option in sorted(before ^ after):
        enabled = option in after
        effect = _EFFECT.get((option, enabled))
        if effect is None:
            continue  # reuse.ktable.source.topics can be turned on safely
        what, strategy, step = effect
        yield Hit(
            message=f"topology.optimization {option} turned {'on' if enabled else 'off'}: {what}.",
            resources=(config(f"topology.optimization/{option}"),),
            locations=config_locations(subject, "topology.optimization"),
            remediation=step,
            key=f"{option}|{'on' if enabled else 'off'}",
            requires=strategy,
            steps=(step,),
        )
