"""The Streams applications a cluster plan affects, for rules whose subject is ``cluster-apps``.

An application keeps state on an input topic when a sub-topology reading it holds a store (not a
global store): the criterion of the fleet scan's KS805 partitions-added-stateful. Its internal
topics (``<application.id>-...-changelog``/``-repartition``) are its own too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from cluster_engine.simulate import Simulation
from linter.topology.model import Description
from rules.framework import SubjectKind


@dataclass(frozen=True)
class ClusterApps:
    """A simulated plan and what the apps' topologies say (``known``: any topology given)."""

    simulation: Simulation
    stateful: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # topic -> app ids
    known: bool = False


CLUSTER_APPS: SubjectKind[ClusterApps] = SubjectKind("cluster-apps")


def stateful_readers(apps: Iterable[tuple[str, Description]]) -> dict[str, tuple[str, ...]]:
    """Topic -> the application ids keeping state on it or owning it as an internal topic."""
    out: defaultdict[str, set[str]] = defaultdict(set)
    for app, description in apps:
        for topology in description.topologies:
            prefix = f"{app}-{topology.name}-" if topology.name else f"{app}-"
            written = {t for sub in topology.subtopologies for t in sub.sink_topics}
            for sub in topology.subtopologies:
                if not sub.stores or sub.is_global:
                    continue
                for name in sub.source_topics:
                    if name in written and name.endswith("-repartition"):
                        out[prefix + name].add(app)  # an internal topic, by its full name
                    else:
                        out[name].add(app)
                for store in sub.stores:
                    out[f"{prefix}{store}-changelog"].add(app)
    return {t: tuple(sorted(a)) for t, a in sorted(out.items())}
