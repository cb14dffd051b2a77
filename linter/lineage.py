"""The fleet's lineage model, what the fleet rules judge: every app's topic facts, and the
partition changes of a plan (``linter.fleet.lineage`` builds it from the apps' topologies).

The facts are small (topic names, not topologies) so the fleet job can ship them around and cut the
graph into slices, one per topic or application id; every fleet rule reports about one topic or
one application id at a time, so a slice holding all the apps that touch it gives the same
findings as the whole graph.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True, slots=True)
class AppFacts:
    """One application, as the rest of the fleet sees it (its latest version).

    ``stateful_on``: consumed topics whose partitions feed a state store (not via a global store),
    so records must keep their key and partition. ``key_changes``: topics this app produces, or
    produced before its upgrade, whose records change key or disappear in that upgrade (from the
    app's own ``key-change-before-stateful`` / ``sink-topic-changed`` findings). ``internal``:
    full names of its repartition and changelog topics (``<application.id>-...``).
    """

    app_id: str
    application_id: str
    version: str = ""
    upgrade: str | None = None  # "v1 -> v2": the upgrade ``key_changes`` come from
    produces: frozenset[str] = frozenset()
    consumes: frozenset[str] = frozenset()
    stateful_on: frozenset[str] = frozenset()
    key_changes: frozenset[str] = frozenset()
    internal: frozenset[str] = frozenset()

    @property
    def topics(self) -> frozenset[str]:
        return self.produces | self.consumes | self.key_changes | self.internal

    def only(self, topics: frozenset[str]) -> AppFacts:
        """These facts restricted to ``topics`` (what a slice of the graph keeps)."""
        return AppFacts(
            app_id=self.app_id,
            application_id=self.application_id,
            version=self.version,
            upgrade=self.upgrade,
            produces=self.produces & topics,
            consumes=self.consumes & topics,
            stateful_on=self.stateful_on & topics,
            key_changes=self.key_changes & topics,
            internal=self.internal & topics,
        )


@dataclass(frozen=True, slots=True)
class PartitionChange:
    """A plan step that changes a topic's partition count (``add-partitions``)."""

    topic: str
    partitions: int
    step: int  # 0-based index of the step in the plan
    before: int | None = None  # the count in the snapshot, when known
    line: int | None = None
    plan: str | None = None  # the plan's path


@dataclass(frozen=True, slots=True)
class TopicUse:
    """Who does what with one topic (apps in ``app_id`` order)."""

    producers: tuple[AppFacts, ...] = ()
    consumers: tuple[AppFacts, ...] = ()
    owners: tuple[AppFacts, ...] = ()  # the topic is one of their internal topics
    key_changers: tuple[AppFacts, ...] = ()
    stateful: tuple[AppFacts, ...] = ()  # consumers keeping state on it


@dataclass(frozen=True)
class FleetGraph:
    """Apps (sorted by ``app_id``) and the cluster plan's partition changes.

    ``view`` says what a slice is about: ``topics`` (the apps touching some topics, facts
    restricted to them), ``application-ids`` (apps grouped by id, no topics) or ``all``; rules ask
    through :meth:`topics` and :meth:`by_application_id`, so each question is answered in exactly
    one kind of slice. The topic index is built once, so every query is a lookup.
    """

    apps: tuple[AppFacts, ...]
    partition_changes: tuple[PartitionChange, ...] = ()
    view: Literal["all", "topics", "application-ids"] = "all"
    _index: dict[str, TopicUse] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # each app's sets read once each (not each topic looked up in all five); the index holds
        # the topics of ``AppFacts.topics``: a topic an app is stateful on and does nothing
        # else with is left out, as the other sets' union leaves it out
        lists: dict[str, tuple[list[AppFacts], ...]] = {}
        for app in sorted(self.apps, key=lambda a: a.app_id):
            sets = (app.produces, app.consumes, app.internal, app.key_changes)
            for i, topics in enumerate(sets):
                for topic in topics:
                    use = lists.get(topic)
                    if use is None:
                        use = lists[topic] = ([], [], [], [], [])
                    use[i].append(app)
            for topic in app.stateful_on:
                use = lists.get(topic)
                if use is not None and any(topic in s for s in sets):
                    use[4].append(app)
        # in topic order, so that topics() lists them without a sort (every fleet rule asks)
        index = {}
        for t in sorted(lists):
            p, c, o, k, s = lists[t]
            index[t] = TopicUse(tuple(p), tuple(c), tuple(o), tuple(k), tuple(s))
        object.__setattr__(self, "_index", index)

    def topics(self) -> list[str]:
        if self.view == "application-ids":
            return []
        return list(self._index)

    def use(self, topic: str) -> TopicUse:
        return self._index.get(topic, _UNUSED)

    def producers(self, topic: str) -> list[AppFacts]:
        return list(self.use(topic).producers)

    def consumers(self, topic: str) -> list[AppFacts]:
        return list(self.use(topic).consumers)

    def owners(self, topic: str) -> list[AppFacts]:
        """Apps for which ``topic`` is one of their own internal topics."""
        return list(self.use(topic).owners)

    def key_changers(self, topic: str) -> list[AppFacts]:
        return list(self.use(topic).key_changers)

    def stateful_readers(self, topic: str) -> list[AppFacts]:
        return list(self.use(topic).stateful)

    def by_application_id(self) -> Iterator[tuple[str, list[AppFacts]]]:
        if self.view == "topics":
            return
        groups: dict[str, list[AppFacts]] = {}
        for app in sorted(self.apps, key=lambda a: a.app_id):
            groups.setdefault(app.application_id, []).append(app)
        for application_id in sorted(groups):
            yield application_id, groups[application_id]


_UNUSED = TopicUse()
