"""The whole catalogue (``ALL_RULES``) against its cases and doc pages: every rule has a case
file of its subject's kind with a case where it fires and one where it stays quiet, both written
in ``fixtures/`` (corpus cases are extra: they are skipped without ``../shared``), and its doc
page example makes it fire: topology and cluster examples are run as they are; fleet and
workflow pages describe a situation in prose, which one case of the rule writes out."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from cluster_engine.plan import parse_plan
from linter import api
from linter.topology.parse import parse
from linter.topology.streams_config import parse_properties
from rules.catalogue import ALL_RULES
from rules.cluster import CLUSTER_RULES
from rules.framework import Rule
from rules.topology import TOPOLOGY_RULES
from tests.conftest import corpus_files, corpus_id, corpus_text
from tests.rules.case_files import ClusterFile, Kind
from tests.rules.case_model import AcknowledgementCase, Case, DiffCase, GitBaseCase, LintCase
from tests.rules.case_run import snapshot_of
from tests.rules.test_rule_cases import FILES

KIND_OF_SUBJECT: dict[str, Kind] = {
    "topology": "topology", "topology-diff": "topology", "streams-config": "topology",
    "cluster-step": "cluster", "cluster": "cluster", "cluster-apps": "cluster",
    "fleet": "fleet", "acknowledgements": "workflow", "topology-file": "workflow",
}  # fmt: skip
BY_NAME = {r.name: r for r in ALL_RULES}
# kinds whose doc page examples are prose (a fleet, a configuration, a git history): one case of
# each rule writes the example out, marked ``doc_example: true``
PROSE: frozenset[Kind] = frozenset({"fleet", "workflow"})
# the reassignment file cluster doc page examples name
MOVE = '{"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[1,2,4]}]}'


def test_every_subject_has_a_kind() -> None:
    assert {r.subject for r in ALL_RULES} <= set(KIND_OF_SUBJECT)


def test_every_case_file_names_a_rule_of_its_kind() -> None:
    misplaced = [
        (kind, f.rule)
        for kind, files in FILES.items()
        for f in files
        if f.rule not in BY_NAME or KIND_OF_SUBJECT[BY_NAME[f.rule].subject] != kind
    ]
    assert misplaced == []


@pytest.mark.parametrize("r", ALL_RULES, ids=lambda r: r.name)
def test_rule_fires_and_stays_quiet_in_written_cases(r: Rule) -> None:
    kind = KIND_OF_SUBJECT[r.subject]
    files = [f for f in FILES[kind] if f.rule == r.name]
    assert files, f"no fixtures/rules/{kind}/{r.name}.yml"
    [found] = files
    written = [c for c in found.cases if not getattr(c, "corpus", False)]
    assert any(c.fires for c in written), f"{r.name}: no case in fixtures/ where it fires"
    quiet = [c for c in written if c.expect == ()]
    assert quiet, f"{r.name}: no case in fixtures/ where it stays quiet"


def _gives(case: Case, subject: str) -> bool:
    """Does the case's input reach a rule of ``subject`` at all?"""
    match case:
        case LintCase():
            return subject == "topology"
        case DiffCase():
            topologies = case.before is not None or case.before_file is not None
            return subject == ("topology-diff" if topologies else "streams-config") or (
                subject == "streams-config" and case.config is not None
            )
        case AcknowledgementCase():
            return subject == "acknowledgements"
        case GitBaseCase():
            return subject == "topology-file"
        case _:
            return True  # a cluster or fleet case reaches every rule of its kind


def test_every_case_gives_its_rule_its_subject() -> None:
    """A quiet case whose input never reaches its rule (a config rule given two topologies and
    no config) would pass whatever the rule does."""
    wrong = [
        (f.rule, case.name)
        for files in FILES.values()
        for f in files
        for case in f.cases
        if not _gives(case, BY_NAME[f.rule].subject)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    "r", [r for r in ALL_RULES if KIND_OF_SUBJECT[r.subject] in PROSE], ids=lambda r: r.name
)
def test_prose_doc_example_is_written_out_as_a_case(r: Rule) -> None:
    [found] = [f for f in FILES[KIND_OF_SUBJECT[r.subject]] if f.rule == r.name]
    marked = [c.name for c in found.cases if getattr(c, "doc_example", False)]
    assert len(marked) == 1, f"{r.name}: mark the one case that is its doc page example: {marked}"


# -- topology doc pages: Before -> After (diff), Before then the fixed After (lint) ------------


def versions(r: Rule) -> tuple[str | None, str | None]:
    """The example's ``Versions: OLD -> NEW`` line (Kafka Streams versions), when it has one."""
    doc = r.doc
    m = re.search(r"^\s*Versions: (\S+) -> (\S+)$", doc[doc.index("Example:") :], re.MULTILINE)
    return (m[1], m[2]) if m else (None, None)


def example(r: Rule) -> tuple[str, str]:
    """The ``Before:`` and ``After:`` blocks of the doc page's example."""
    doc = r.doc
    body = doc[doc.index("Example:") : doc.index("\nFix:")]
    before = body[body.index("Before:") + len("Before:") : body.index("After:")]
    after = body[body.index("After:") + len("After:") :]
    return (
        textwrap.dedent(before.strip("\n")).strip("\n") + "\n\n",
        textwrap.dedent(after.strip("\n")).strip("\n") + "\n\n",
    )


def _fires(
    r: Rule, before: str, after: str | None, streams_versions: tuple[str | None, str | None]
) -> bool:
    only = api.Settings(select=frozenset({r.id}))
    if r.subject == "topology":
        report = api.lint(parse(before, "<doc>"), only)
    elif r.subject == "topology-diff":
        assert after is not None
        report = api.diff(parse(before, "<before>"), parse(after, "<after>"), only)
    else:
        assert after is not None
        version_before, version_after = streams_versions
        report = api.diff(
            None,
            None,
            only,
            streams_before=parse_properties(before, "before.properties"),
            streams_after=parse_properties(after, "after.properties"),
            streams_version_before=version_before,
            streams_version_after=version_after,
        )
    return any(f.rule == r.id for f in report.findings)


@pytest.mark.parametrize("r", TOPOLOGY_RULES, ids=lambda r: r.name)
def test_topology_doc_example_is_true(r: Rule) -> None:
    """The example's Before (lint) or Before -> After (diff) triggers the rule; the fixed After
    (lint) or an unchanged Before -> Before on an unchanged version (diff) does not."""
    before, after = example(r)
    if r.subject == "topology":
        assert _fires(r, before, None, (None, None))
        assert not _fires(r, after, None, (None, None))
    else:
        old, new = versions(r)
        assert _fires(r, before, after, (old, new))
        assert not _fires(r, before, before, (old, old))


# -- cluster doc pages: the example plan simulated on the case file's ``example`` cluster -----


@pytest.mark.parametrize("r", CLUSTER_RULES, ids=lambda r: r.name)
def test_cluster_doc_example_fires(r: Rule, tmp_path: Path) -> None:
    doc = r.doc
    text = textwrap.dedent(doc[doc.index("Example:") + len("Example:") : doc.index("\nFix:")])
    for name in re.findall(r"file: ([\w.-]+)", text):  # the JSON files examples refer to
        (tmp_path / name).write_text(MOVE, encoding="utf-8")
    plan = parse_plan(text, f"{r.name} example", base_dir=tmp_path)
    [cases] = [f for f in FILES["cluster"] if f.rule == r.name]
    assert isinstance(cases, ClusterFile)
    report = api.cluster_check(snapshot_of(cases.example_snapshot()), plan)
    fired = [f for f in report.findings if f.name == r.name]
    assert fired, f"{r.name}: its example does not fire: {[f.message for f in report.findings]}"


@pytest.mark.parametrize("path", corpus_files("topologies"), ids=corpus_id)
def test_no_diff_rule_fires_on_a_version_reprinted_unchanged(path: Path) -> None:
    """What lets a diff skip its rules for a version reprinted unchanged (parsed once): given the
    same topology on both sides, with the application's names, no diff rule finds anything."""
    from linter.topology.diff import diff as match
    from linter.topology.errors import TopologyParseError
    from rules.framework import collect
    from rules.topology.context import TOPOLOGY_DIFF, DiffSubject

    try:
        model = parse(corpus_text(path), str(path))
    except TopologyParseError as error:
        pytest.skip(f"not a text the diff sees: {error}")
    subject = DiffSubject(match(model, model), application_id="app", state_dir="/var/state")
    assert collect(TOPOLOGY_RULES, TOPOLOGY_DIFF, subject) == []
