"""The runner of the cluster rules: each kind on its subject, plan lines on the findings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace

from cluster_engine.simulate import Simulation
from linter.topology.model import Description
from rules.cluster._apps import CLUSTER_APPS, ClusterApps, stateful_readers
from rules.cluster._common import CLUSTER, CLUSTER_STEP
from rules.framework import Finding, Hit, Rule, Severity, fingerprint, to_finding


def run_cluster(
    rules: Iterable[Rule],
    simulation: Simulation,
    *,
    severities: Mapping[str, Severity] | None = None,
    apps: Sequence[tuple[str, Description]] = (),
) -> list[Finding]:
    """Run every cluster rule on ``simulation``; return sorted findings with plan lines.

    ``apps``: the Streams applications using the cluster (application id, describe() model),
    for the rules that name the apps a step affects.

    A rule hitting the same resources at two steps gets distinct fingerprints (``#2``, ...) in
    plan order, never from line numbers.
    """
    overrides = severities or {}
    steps = simulation.plan.steps
    findings: list[Finding] = []
    context = ClusterApps(simulation, stateful_readers(apps), known=bool(apps))
    for r in rules:
        seen: Counter[str] = Counter()
        for hit in _hits(r, context):
            base = fingerprint(r.id, hit)
            seen[base] += 1
            if seen[base] > 1:
                key = hit.key if hit.key is not None else base
                hit = replace(hit, key=f"{key}#{seen[base]}")
            finding = to_finding(r, hit, overrides.get(r.id))
            line = steps[hit.step].line if hit.step is not None and hit.step < len(steps) else None
            findings.append(finding.model_copy(update={"line": line}))
    return sorted(findings, key=Finding.sort_key)


def _hits(r: Rule, context: ClusterApps) -> Iterator[Hit]:
    if CLUSTER_STEP.owns(r):
        for t in context.simulation.transitions:
            yield from r(t)
    elif CLUSTER.owns(r):
        yield from r(context.simulation)
    elif CLUSTER_APPS.owns(r):
        yield from r(context)
