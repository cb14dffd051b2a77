"""KS308 optimization-unverified."""

from __future__ import annotations

from collections.abc import Iterator

from rules.framework import Hit, Impact, Severity, rule
from rules.topology.context import STREAMS_CONFIG, ConfigSubject, config, config_locations


@rule(
    id="KS308",
    name="optimization-unverified",
    severity=Severity.WARNING,
    impact=Impact.DATA_LOSS,
    subject=STREAMS_CONFIG,
)
def optimization_unverified(subject: ConfigSubject) -> Iterator[Hit]:
    """``topology.optimization`` changed, and the describe() texts cannot confirm what it does.

    Why: the optimizations only apply when the same properties are passed to
    ``StreamsBuilder#build(props)`` (or a ``TopologyConfig``); ``build()`` without them prints
    the unoptimized graph whatever the config says. Two describe() texts built that way are
    identical and prove nothing: the running app may still merge or split repartition topics
    and move stores. Identical texts built with the properties do prove that no repartition topic
    was merged or split and no self-join store changed (reusing a source topic as a changelog
    never shows in describe()). Without the texts, nothing about the change can be checked.

    Example:

        Before:
            topology.optimization=none

        After:
            topology.optimization=all

    Fix: print describe() of both versions from ``StreamsBuilder#build(props)`` with the
    properties each version runs with, and give both texts to ``ksafe diff`` together with the
    configs.
    """
    cfg = subject.config
    before = cfg.before.optimizations() if cfg.before is not None else frozenset()
    after = cfg.after.optimizations() if cfg.after is not None else frozenset()
    if before == after:
        return
    old = (cfg.before.value("topology.optimization") if cfg.before else None) or "none"
    new = (cfg.after.value("topology.optimization") if cfg.after else None) or "none"
    topology = subject.topology
    if topology is None:
        why = "no describe() texts were given, so what it changes in the topology is unchecked"
    elif topology.identical:
        why = (
            "the describe() texts of both versions are identical: no repartition topic was merged "
            "or split, provided both were printed from StreamsBuilder#build(props); printed from "
            "build() without the properties they show the unoptimized graph and prove nothing"
        )
    else:
        why = (
            "the describe() texts differ; they show what the optimization changes only if both "
            "were printed from StreamsBuilder#build(props) with each version's properties"
        )
    yield Hit(
        message=f"topology.optimization changed ({old} -> {new}): {why}.",
        resources=(config("topology.optimization"),),
        locations=config_locations(subject, "topology.optimization"),
        remediation=(
            "Print describe() of both versions from StreamsBuilder#build(props) with the "
            "properties each runs with, and diff those texts with the configs."
        ),
        key="topology.optimization",
    )
