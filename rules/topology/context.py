"""What topology rules receive: the model or the diff plus what the user told us about the
application (its id and state directory), so findings can name real topics and directories."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field

from linter.topology import naming
from linter.topology.diff import TopologyDiff
from linter.topology.model import Description, Node, Topology
from linter.topology.streams_config import ConfigDiff
from rules.framework import At, Location, Resource, SubjectKind, location
from rules.runbook import DRAIN_PREFIX


@dataclass(frozen=True, slots=True)
class LintSubject:
    """One describe() model to lint; ``topologies`` is what the rules read of each of its
    topologies, gathered in one walk (:func:`walk`) when the subject is made."""

    description: Description
    application_id: str | None = None
    topologies: tuple[Walked, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        walked = tuple([walk(t) for t in self.description.topologies])
        object.__setattr__(self, "topologies", walked)


@dataclass(frozen=True, slots=True)
class Walked:
    """A topology as the lint rules read it. Each rule walking the nodes itself cost more than
    its judging (every app of a fleet scan is linted), and two of them worked out
    ``persistent`` on their own."""

    topology: Topology
    nodes: tuple[Node, ...]  # sub-topology by sub-topology
    by_name: Mapping[str, Node]
    # each store with its first owner (name, line) by name: the same whatever the layout
    owners: Mapping[str, tuple[str, int]]
    # each internal topic a sink writes (describe() prints it without the application id), with
    # its first sink (name, line) by name
    sinks: Mapping[str, tuple[str, int]]
    # the generated store and internal topic names with their index: what an index shift
    # renames (processor names are not persisted anywhere)
    persistent: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class DiffSubject:
    diff: TopologyDiff
    application_id: str | None = None
    state_dir: str | None = None


@dataclass(frozen=True, slots=True)
class ConfigSubject:
    """The Streams config diff; ``topology`` is the describe() diff when both texts were given
    too (rules on settings that shape the topology can then check what the texts show)."""

    config: ConfigDiff
    topology: TopologyDiff | None = None


TOPOLOGY: SubjectKind[LintSubject] = SubjectKind("topology")
TOPOLOGY_DIFF: SubjectKind[DiffSubject] = SubjectKind("topology-diff")
STREAMS_CONFIG: SubjectKind[ConfigSubject] = SubjectKind("streams-config")


# A Resource is frozen, so one made for a name serves every finding about it: the same names
# (generated ones, topics) recur across the apps of a fleet, and a cache hit costs a tenth of
# validating a new model.
_shared = functools.lru_cache(maxsize=1 << 14)


@_shared
def store(name: str) -> Resource:
    return Resource(kind="store", name=name)


@_shared
def node(name: str) -> Resource:
    return Resource(kind="node", name=name)


@_shared
def topic(name: str) -> Resource:
    return Resource(kind="topic", name=name)


@_shared
def subtopology(id_: int, topology: str | None = None) -> Resource:
    return Resource(kind="subtopology", name=f"{topology}:{id_}" if topology else str(id_))


@_shared
def changelog(app: str | None, store_name: str, topology: str | None = None) -> Resource:
    return Resource(kind="changelog-topic", name=naming.changelog_topic(app, store_name, topology))


@_shared
def repartition(app: str | None, name: str, topology: str | None = None) -> Resource:
    return Resource(kind="repartition-topic", name=naming.internal_topic(app, name, topology))


def before(subject: DiffSubject, line: int | None) -> At:
    return location(subject.diff.before.path, line, "before")


def after(subject: DiffSubject, line: int | None) -> At:
    return location(subject.diff.after.path, line, "after")


def task_dirs(subject: DiffSubject, subtopology_id: int, store_name: str | None = None) -> str:
    path = naming.task_directory(subject.state_dir, subject.application_id, subtopology_id)
    return f"{path}/{store_name}" if store_name else path


def drain_step(subject: DiffSubject, topics: list[str], topology: str | None = None) -> str:
    full = ", ".join(naming.internal_topic(subject.application_id, t, topology) for t in topics)
    return (
        f"{DRAIN_PREFIX}{full} before deploying: pause the producers of the input topics (or "
        "deploy the old version once more with its source topics changed to empty substitute "
        "topics, a source-topic change of its own), wait until the consumer lag on the "
        "repartition topic(s) is 0, then stop every instance of the old version."
    )


def config_before(subject: ConfigSubject, key: str) -> Location | None:
    cfg = subject.config.before
    e = cfg.get(key) if cfg else None
    return Location(path=cfg.path, line=e.line, side="before") if cfg and e else None


def config_after(subject: ConfigSubject, key: str) -> Location | None:
    cfg = subject.config.after
    e = cfg.get(key) if cfg else None
    return Location(path=cfg.path, line=e.line, side="after") if cfg and e else None


def config_locations(subject: ConfigSubject, key: str) -> tuple[Location, ...]:
    return tuple(x for x in (config_before(subject, key), config_after(subject, key)) if x)


@_shared
def config(key: str) -> Resource:
    return Resource(kind="config", name=key)


def walk(topology: Topology) -> Walked:
    """:class:`Walked` of ``topology``: one pass over its nodes."""
    nodes: list[Node] = []
    by_name: dict[str, Node] = {}
    owners: dict[str, tuple[str, int]] = {}
    sinks: dict[str, tuple[str, int]] = {}
    sourced: set[str] = set()  # internal topics read
    for sub in topology.subtopologies:
        for n in sub.nodes:
            nodes.append(n)
            by_name[n.name] = n
            # one type test a node (its ``kind``: a failed isinstance costs four times a field
            # read): only processors hold stores (the others' ``stores`` is a property call)
            if n.kind == "processor":
                if n.stores:
                    owner = (n.name, n.position.line)
                    for s in n.stores:
                        first = owners.get(s)
                        if first is None or owner < first:
                            owners[s] = owner
            elif n.kind == "sink":
                t = n.topic
                if t and naming.is_internal_topic(t):
                    first = sinks.get(t)
                    if first is None or (n.name, n.position.line) < first:
                        sinks[t] = (n.name, n.position.line)
            else:
                sourced.update([t for t in n.topics if naming.is_internal_topic(t)])
    found: set[tuple[int, str]] = set()
    for s in owners:
        gen = naming.generated(s)
        if gen is not None:
            found.add((gen.index, s))
    for t in sourced.union(sinks):
        gen = naming.generated_topic(t)
        if gen is not None:
            found.add((gen.index, t))
    return Walked(topology, tuple(nodes), by_name, owners, sinks, tuple(sorted(found)))
