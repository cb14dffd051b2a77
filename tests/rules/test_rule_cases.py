"""Every rule case of ``fixtures/rules/`` (one test per case): the findings of the case's rule
are exactly its ``expect``. A file that does not validate fails collection, located."""

from __future__ import annotations

from pathlib import Path

import pytest

from cluster_engine.errors import ClusterInputError
from rules.framework import Finding
from tests.conftest import FIXTURES
from tests.rules.case_files import CaseFileError, Kind, load_file, load_folder
from tests.rules.case_model import (
    AcknowledgementCase,
    Case,
    ClusterCase,
    DiffCase,
    FleetCase,
    GitBaseCase,
    LintCase,
)
from tests.rules.case_run import (
    always_firing,
    mismatch,
    run_acknowledgements,
    run_cluster,
    run_diff,
    run_fleet,
    run_git_base,
    run_lint,
)

RULE_CASES = FIXTURES / "rules"
FILES = load_folder(RULE_CASES)
CASES: list[tuple[str, Case]] = [
    (f.rule, case) for files in FILES.values() for f in files for case in f.cases
]


def findings_of(rule: str, case: Case) -> list[Finding]:
    match case:
        case LintCase():
            return list(run_lint(case).findings)
        case DiffCase():
            return list(run_diff(case).findings)
        case ClusterCase():
            return list(run_cluster(case, rule).findings)
        case FleetCase():
            return run_fleet(case)
        case AcknowledgementCase():
            return list(run_acknowledgements(case).findings)
        case GitBaseCase():
            return run_git_base(case)


@pytest.mark.parametrize(
    ("rule", "case"), CASES, ids=[f"{rule}: {case.name}" for rule, case in CASES]
)
def test_rule_case(rule: str, case: Case) -> None:
    if isinstance(case, ClusterCase) and case.input_error is not None:
        with pytest.raises(ClusterInputError) as info:
            run_cluster(case, rule)
        assert str(info.value).startswith(f"{rule}.plan.yml:{case.input_error.line}:"), info.value
        for text in case.input_error.message_contains:
            assert text in str(info.value), info.value
        return
    findings = findings_of(rule, case)
    problem = mismatch(case.expect or (), findings, rule)
    assert problem is None, problem
    if isinstance(case, ClusterCase) and case.no_errors:
        errors = [f"{f.rule} {f.message}" for f in findings if f.severity.value == "error"]
        assert not errors, errors


# The rule's subject only exists for a deleted file: for a rename or a modification git-base
# never asks it, which is what its quiet cases hold.
NOT_ASKED = frozenset({"topology-file-deleted"})
QUIET = [(rule, case) for rule, case in CASES if case.expect == () and rule not in NOT_ASKED]


@pytest.mark.parametrize(
    ("rule", "case"), QUIET, ids=[f"{rule}: {case.name}" for rule, case in QUIET]
)
def test_quiet_case_reaches_its_rule(rule: str, case: Case) -> None:
    """A quiet case holds something only if its rule is asked: one that fires on anything must
    fail it."""
    with always_firing(rule):
        findings = findings_of(rule, case)
    assert mismatch((), findings, rule) is not None, f"{rule} is never asked in this case"


def test_every_kind_has_cases() -> None:
    assert all(FILES.values()), {kind: len(files) for kind, files in FILES.items()}


def test_only_case_files_in_the_case_folders() -> None:
    strays = [
        p.relative_to(RULE_CASES)
        for p in RULE_CASES.rglob("*")
        if p.is_file() and (p.suffix != ".yml" or p.parent.name not in FILES)
    ]
    assert strays == []


TYPO = """\
rule: store-renamed
cases:
  - name: a renamed key
    befor: |
      Topologies:
    after: x
    expect: []
"""


def test_a_typo_in_a_case_key_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "store-renamed.yml"
    path.write_text(TYPO, encoding="utf-8")
    with pytest.raises(CaseFileError) as info:
        load_file(path, "topology")
    assert f"{path}:4:5: cases.0.diff.befor: Extra inputs are not permitted" in str(info.value)


def test_a_key_given_twice_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "store-renamed.yml"
    path.write_text(TYPO.replace("befor:", "after:"), encoding="utf-8")
    with pytest.raises(CaseFileError) as info:
        load_file(path, "topology")
    assert str(info.value) == f"{path}:6:5: key 'after' given twice"


@pytest.mark.parametrize(
    ("kind", "text", "where"),
    [
        ("topology", "rule: store-renamed\ncases:\n  - name: x\n    expect: []\n", ":3:5:"),
        ("cluster", "rule: quorum-even-size\ncases:\n  - name: x\n    expect: []\n", ":3:5:"),
        (
            "topology",
            "rule: store-renamed\ncases:\n  - name: x\n    topology: T\n"
            "    expect: [{rule: store-removed, severity: error, resource: s}]\n",
            ":1:1:",
        ),
        (
            "fleet",
            "rule: topic-without-consumer\ncases:\n  - name: x\n    apps: []\n    expect: []\n",
            ":4:5:",
        ),
    ],
    ids=["no input", "no plan", "another rule", "no apps"],
)
def test_a_case_without_input_or_for_another_rule_is_refused(
    kind: Kind, text: str, where: str, tmp_path: Path
) -> None:
    path = tmp_path / f"{text.split()[1]}.yml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseFileError) as info:
        load_file(path, kind)
    assert f"{path}{where}" in str(info.value), info.value
