"""Cross-app lineage: what each app reads, writes, keeps state on and owns, and the fleet graph.

Pure Python over parsed models (no Spark here): the fleet job calls the same functions per slice
(and judges a cluster plan's partition changes app by app, :func:`plan_findings`), the
single-process path over the whole graph, and both give the same findings and edges.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from linter.api import Settings, selected, severity_overrides
from linter.fleet.rows import FindingRow, raw_rows
from linter.lineage import AppFacts, FleetGraph, PartitionChange
from linter.topology.model import Description, Topology
from rules.fleet import FLEET_RULES, PLAN_RULES
from rules.fleet.subject import FLEET
from rules.framework import Finding, Rule, Severity, run, run_raw

# Rules whose findings on an app's upgrade mean its output records change key or go away.
KEY_CHANGE_RULES = frozenset({"key-change-before-stateful", "sink-topic-changed"})

_FK_TOPIC = re.compile(r"(?:KTABLE-FK-JOIN-SUBSCRIPTION-(?:REGISTRATION|RESPONSE)-\d+|"
                       r"-subscription-(?:registration|response))-topic$")


def is_internal_name(topic: str) -> bool:
    """Repartition and foreign-key-join topics, as describe() prints them (without prefix)."""
    return topic.endswith("-repartition") or _FK_TOPIC.search(topic) is not None


def _internal_of(topology: Topology) -> frozenset[str]:
    """Topics the topology both writes and reads that are named like internal topics."""
    return _internal(*_sunk_and_sourced(topology))


def _sunk_and_sourced(topology: Topology) -> tuple[set[str], set[str]]:
    """The topics the topology writes, and those it reads."""
    sunk: set[str] = set()
    sourced: set[str] = set()
    for sub in topology.subtopologies:
        for n in sub.nodes:
            if n.kind == "source":
                sourced.update(n.topics)
            elif n.kind == "sink" and n.topic:
                sunk.add(n.topic)
    return sunk, sourced


def _internal(sunk: set[str], sourced: set[str]) -> frozenset[str]:
    return frozenset(t for t in sunk & sourced if is_internal_name(t))


def _prefix(application_id: str, topology: Topology) -> str:
    return f"{application_id}-{topology.name}-" if topology.name else f"{application_id}-"


def produced_topics(description: Description) -> frozenset[str]:
    """External topics the app writes (internal topics and extractor sinks left out)."""
    out: set[str] = set()
    for topology in description.topologies:
        sunk, sourced = _sunk_and_sourced(topology)
        out.update(sunk - _internal(sunk, sourced))
    return frozenset(out)


def facts_of(
    app_id: str,
    description: Description,
    *,
    application_id: str | None = None,
    version: str = "",
    upgrade: str | None = None,
    upgrade_findings: Iterable[Finding] = (),
    before: Description | None = None,
) -> AppFacts:
    """An app's facts from its latest description (and the findings of its upgrade to it)."""
    app_key = application_id or app_id
    produces: set[str] = set()
    consumes: set[str] = set()
    stateful: set[str] = set()
    internal: set[str] = set()
    for topology in description.topologies:
        # one pass over the nodes (this runs for every app of a fleet), into a few sets a
        # topology: what it writes and reads, and what its stateful sub-topologies read and keep
        sunk: set[str] = set()
        sourced: set[str] = set()
        stateful_sourced: set[str] = set()
        kept: set[str] = set()
        for sub in topology.subtopologies:
            read: list[str] = []
            held: list[str] = []
            for n in sub.nodes:
                # ``kind``, not isinstance: a failed isinstance costs four times a field read
                if n.kind == "source":
                    read += n.topics
                elif n.kind == "sink":
                    if n.topic:
                        sunk.add(n.topic)
                elif n.stores:
                    held += n.stores
            sourced.update(read)
            if held and not sub.is_global:
                stateful_sourced.update(read)
                kept.update(held)
        own = _internal(sunk, sourced)
        produces.update(sunk - own)
        consumes.update(sourced - own)
        stateful.update(stateful_sourced - own)
        prefix = _prefix(app_key, topology)
        internal.update(prefix + t for t in own)
        internal.update(f"{prefix}{s}-changelog" for s in kept)
    produced = frozenset(produces)  # produced_topics(description), worked out on the way
    return AppFacts(
        app_id=app_id,
        application_id=app_key,
        version=version,
        upgrade=upgrade,
        produces=produced,
        consumes=frozenset(consumes),
        stateful_on=frozenset(stateful),
        key_changes=key_change_topics(upgrade_findings, before, description, produced),
        internal=frozenset(internal),
    )


def key_change_topics(
    findings: Iterable[Finding],
    before: Description | None,
    after: Description,
    produces: frozenset[str] | None = None,
) -> frozenset[str]:
    """Output topics whose key changes (or which disappear) in the upgrade ``before -> after``.

    A finding names its topics; a ``key-change-before-stateful`` finding that names only a store
    changes the key of what that store's sub-topology writes. ``produces``: what ``after``
    produces (:func:`produced_topics`), when the caller has worked it out already.
    """
    relevant = [
        f for f in findings if f.name in KEY_CHANGE_RULES and f.acknowledged is None
    ]
    if not relevant:  # the usual case: no need to work out the topics the versions write
        return frozenset()
    produced = (produced_topics(after) if produces is None else produces) | (
        produced_topics(before) if before else frozenset()
    )
    out: set[str] = set()
    for f in relevant:
        named = {r.name for r in f.resources if r.kind.endswith("topic")} & produced
        if not named:
            stores = {r.name for r in f.resources if r.kind == "store"}
            for topology in after.topologies:
                internal = _internal_of(topology)
                for sub in topology.subtopologies:
                    if sub.stores & stores:
                        named.update(sub.sink_topics - internal)
        out.update(named)
    return frozenset(out)


# --- slices: the graph cut so that each piece can be judged on its own -------------------------

TOPIC, APPLICATION_ID = "t", "a"


def slice_keys(facts: AppFacts) -> Iterator[tuple[str, AppFacts]]:
    """``(slice key, facts restricted to it)`` for every slice the app belongs to."""
    for topic in sorted(facts.topics):
        key = f"{TOPIC}:{topic}"
        yield key, restrict(key, facts)
    key = f"{APPLICATION_ID}:{facts.application_id}"
    yield key, restrict(key, facts)


def restrict(key: str, facts: AppFacts) -> AppFacts:
    """An app's facts as the slice ``key`` sees them: one topic, or none (application ids)."""
    kind, _, name = key.partition(":")
    return facts.only(frozenset({name}) if kind == TOPIC else frozenset())


# What an app does with a slice's topic, as bits: the compact row the fleet job shuffles per slice
# instead of the app's whole facts (an app belongs to tens of slices).
_ROLES = ("produces", "consumes", "stateful_on", "key_changes", "internal")


def slice_rows(facts: AppFacts) -> Iterator[tuple[str, str, str, str, str | None, int]]:
    """``(key, app_id, application_id, version, upgrade, roles)`` per slice of the app: the
    tuple form of :func:`slice_keys` (``roles``: one bit per set of :class:`AppFacts` holding
    the slice's topic), turned back into facts by :func:`sliced_facts`."""
    for key, part in slice_keys(facts):
        roles = sum(1 << i for i, name in enumerate(_ROLES) if getattr(part, name))
        yield key, facts.app_id, facts.application_id, facts.version, facts.upgrade, roles


def sliced_facts(
    key: str, app_id: str, application_id: str, version: str, upgrade: str | None, roles: int
) -> AppFacts:
    """The inverse of :func:`slice_rows`: ``restrict(key, facts)`` rebuilt from its row."""
    kind, _, name = key.partition(":")
    one = frozenset({name}) if kind == TOPIC else frozenset()
    sets = {n: one if roles >> i & 1 else frozenset() for i, n in enumerate(_ROLES)}
    return AppFacts(
        app_id=app_id, application_id=application_id, version=version, upgrade=upgrade, **sets
    )


def slice_graph(key: str, apps: Iterable[AppFacts]) -> FleetGraph:
    """The graph of one slice: its apps (a plan's partition changes: :func:`plan_findings`)."""
    members = tuple(sorted(apps, key=lambda a: a.app_id))
    if key.partition(":")[0] == APPLICATION_ID:
        return FleetGraph(apps=members, view="application-ids")
    return FleetGraph(apps=members, view="topics")


SliceRow = tuple[str, str, str, str, str | None, int]
"""``(key, app_id, application_id, version, upgrade, roles)``: one app in one slice."""


def slice_graphs(rows: Iterable[SliceRow]) -> list[FleetGraph]:
    """The graphs to judge for whole slices given as their rows (:func:`slice_rows`, every row
    of each slice there, in any order): all their topics in one graph, their application ids in
    another, so that a few graphs are built and judged, not one per slice (nearly every slice
    of a fleet holds one app: its own output topics, its external inputs, its application id).

    Every rule on the graph asks about one topic or one application id at a time, so a graph of
    whole slices finds what the slices find one by one, and has their edges. The plan's
    partition changes are not here: :func:`plan_findings` judges them app by app.
    """
    held: dict[str, tuple[str, str, str | None, list[set[str]]]] = {}
    ids: list[AppFacts] = []
    for key, app_id, application_id, version, upgrade, roles in rows:
        kind, _, name = key.partition(":")
        if kind != TOPIC:
            ids.append(AppFacts(app_id, application_id, version, upgrade))
            continue
        app = held.get(app_id)
        if app is None:
            app = held[app_id] = (application_id, version, upgrade, [set() for _ in _ROLES])
        for i, topics in enumerate(app[3]):
            if roles >> i & 1:
                topics.add(name)
    graphs = []
    if held:
        facts_of_topics = tuple(
            AppFacts(app_id, application_id, version, upgrade, *map(frozenset, sets))
            for app_id, (application_id, version, upgrade, sets) in sorted(held.items())
        )
        graphs.append(FleetGraph(apps=facts_of_topics, view="topics"))
    if ids:
        graphs.append(
            FleetGraph(apps=tuple(sorted(ids, key=lambda a: a.app_id)), view="application-ids")
        )
    return graphs


def plan_findings(
    facts: AppFacts,
    changes: Sequence[PartitionChange],
    settings: Settings,
    chosen: FleetRules | None = None,
) -> list[FindingRow]:
    """The plan's findings on one app (:data:`rules.fleet.PLAN_RULES`), as rows: judged with the
    app's whole facts, where the fleet job holds the slices of one topic only. Whether a grown
    topic costs the app its state depends on all of the app's topics (state kept on another
    input, a changelog), and a finding names one app: the fleet's are those of its apps
    together, as a graph of the whole fleet finds them."""
    if not changes:  # no plan, as in most scans: called for every app
        return []
    topics = facts.topics
    own = tuple(c for c in changes if c.topic in topics)
    if not own:
        return []
    rules = (chosen or FleetRules.of(settings)).of_plan()
    return judge(FleetGraph(apps=(facts,), partition_changes=own), settings, rules)


@dataclass(frozen=True, slots=True)
class FleetRules:
    """The fleet rules ``settings`` keeps, with their severity overrides: chosen once, not once
    per slice (a fleet has tens of thousands of slices)."""

    rules: tuple[Rule, ...]
    severities: dict[str, Severity]

    @classmethod
    def of(cls, settings: Settings) -> FleetRules:
        rules = selected(FLEET_RULES, settings)
        return cls(rules=rules, severities=severity_overrides(rules, settings))

    def of_plan(self) -> FleetRules:
        """Those of these rules that judge a plan's partition changes."""
        return FleetRules(tuple(r for r in self.rules if r in PLAN_RULES), self.severities)


def fleet_findings(
    graph: FleetGraph, settings: Settings, chosen: FleetRules | None = None
) -> list[Finding]:
    """The fleet rules on a graph (whole or slice), with the settings' selection and severities
    (``chosen``: the same, already worked out from ``settings``)."""
    chosen = chosen or FleetRules.of(settings)
    return run(chosen.rules, FLEET, graph, severities=chosen.severities)


@dataclass(frozen=True, slots=True)
class Edge:
    """``upstream`` writes ``topic``, ``downstream`` reads it."""

    upstream: str
    topic: str
    downstream: str
    stateful: bool  # the downstream app keeps state on the topic
    key_change: bool  # the upstream app's upgrade changes the topic's key

    @property
    def risky(self) -> bool:
        return self.stateful and self.key_change


def edges(graph: FleetGraph) -> Iterator[Edge]:
    """App-to-app edges through a topic, sorted by topic, upstream, downstream."""
    for topic in graph.topics():
        use = graph.use(topic)
        downs = use.consumers
        if not downs:  # most topics of a fleet: an app's sink nobody in the fleet reads
            continue
        ups = sorted({a.app_id: a for a in use.producers + use.key_changers}.values(),
                     key=lambda a: a.app_id)  # fmt: skip
        for up in ups:
            for down in downs:
                if up.app_id != down.app_id:
                    yield Edge(
                        upstream=up.app_id,
                        topic=topic,
                        downstream=down.app_id,
                        stateful=topic in down.stateful_on,
                        key_change=topic in up.key_changes,
                    )


def whole_graph(
    facts: Iterable[AppFacts], changes: Iterable[PartitionChange] = ()
) -> FleetGraph:
    return FleetGraph(
        apps=tuple(sorted(facts, key=lambda a: a.app_id)), partition_changes=tuple(changes)
    )


CLUSTER_CHECK, LINEAGE_CHECK = "cluster", "lineage"


def judge(
    graph: FleetGraph, settings: Settings, chosen: FleetRules | None = None
) -> list[FindingRow]:
    """The fleet findings of a graph as rows: one per app a finding names (with that app's
    version), plus one without app for each finding on the cluster plan."""
    chosen = chosen or FleetRules.of(settings)
    versions = {a.app_id: a.version for a in graph.apps}
    out: list[FindingRow] = []
    # the findings' rows made from the hits (raw_rows), in the order fleet_findings gives them,
    # without a Finding made of each only to be taken apart
    for raw in run_raw(chosen.rules, FLEET, graph, severities=chosen.severities):
        hit = raw[1]
        check = CLUSTER_CHECK if hit.step is not None else LINEAGE_CHECK
        if check == CLUSTER_CHECK:
            out += raw_rows((raw,), None, check, None, None)
        for app in dict.fromkeys(r.name for r in hit.resources if r.kind == "app"):
            out += raw_rows((raw,), app, check, None, versions.get(app))
    return out
