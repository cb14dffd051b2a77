"""What topology rules receive: the model or the diff plus what the user told us about the
application (its id and state directory), so findings can name real topics and directories."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from linter.topology import naming
from linter.topology.diff import TopologyDiff
from linter.topology.model import Description, Topology
from linter.topology.streams_config import ConfigDiff
from rules.framework import At, Location, Resource, SubjectKind, location
from rules.runbook import DRAIN_PREFIX


@dataclass(frozen=True, slots=True)
class LintSubject:
    description: Description
    application_id: str | None = None


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


def persistent_generated(topology: Topology) -> tuple[tuple[int, str], ...]:
    """Generated store and internal topic names of a topology with their index: what an index
    shift renames (processor names are not persisted anywhere)."""
    found: set[tuple[int, str]] = set()
    for sub in topology.subtopologies:
        for n in sub.nodes:
            # one type test a node (its ``kind``: a failed isinstance costs four times a field
            # read): only processors hold stores (the others' ``stores`` is a property call)
            if n.kind == "processor":
                for s in n.stores:
                    gen = naming.generated(s)
                    if gen is not None:
                        found.add((gen.index, s))
                continue
            topics = n.topics if n.kind == "source" else ((n.topic,) if n.topic else ())
            for t in topics:
                gen = naming.generated_topic(t) if naming.is_internal_topic(t) else None
                if gen is not None:
                    found.add((gen.index, t))
    return tuple(sorted(found))
