"""ksafe run from a monorepo's subdirectory (or a workflow step's ``working-directory``):
code-review outputs point at files from the repository root, so annotations and code scanning
find them; text output stays relative to where the user is, in a form editors open."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from linter.cli import main
from tests.conftest import FIXTURES
from tests.linter.gitrepo import Repo
from tests.linter.report.test_sarif import validate

EXAMPLES = FIXTURES / "examples"
TOPOLOGY = "services/orders/topology/word-count.txt"


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Repo:
    repo = Repo(tmp_path / "mono")
    repo.write(TOPOLOGY, (EXAMPLES / "word-count-v1.txt").read_text())
    repo.write("services/billing/README.md", "another service\n")
    repo.commit("word count")
    repo.write(TOPOLOGY, (EXAMPLES / "word-count-v2.txt").read_text())
    repo.commit("a filter before count()")
    monkeypatch.chdir(repo.root / "services" / "orders")
    return repo


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["diff", "--git-base", "HEAD~1", "topology", *args])
    return code, capsys.readouterr().out


def artifacts(log: dict[str, object]) -> list[dict[str, str]]:
    found: list[dict[str, str]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if "artifactLocation" in node:
                found.append(node["artifactLocation"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(log)
    return found


def test_sarif_locations_are_repository_relative_and_resolve(
    service: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(capsys, "--format", "sarif")
    assert code == 1
    log = json.loads(out)
    validate(log)
    (run_,) = log["runs"]
    root_uri = run_["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert root_uri.endswith("/")
    root = Path(unquote(urlsplit(root_uri).path))
    assert root.resolve() == service.root.resolve()
    located = artifacts(log)
    assert located, "no locations at all"
    for artifact in located:
        assert artifact["uriBaseId"] == "%SRCROOT%"
        assert "%40" not in artifact["uri"]
        assert "@" not in artifact["uri"]
        assert (root / unquote(artifact["uri"])).is_file(), artifact
    assert {a["uri"] for a in located} == {"services/orders/topology/word-count.txt"}
    ks201 = next(r for r in run_["results"] if r["ruleId"] == "KS201")
    (related,) = ks201["relatedLocations"]
    assert related["message"]["text"] == "before (at HEAD~1)"
    assert related["properties"] == {"revision": "HEAD~1"}
    # two uploads (another service, another kind of check) keep their own category
    assert run_["automationDetails"] == {"id": "ksafe/diff/services/orders/"}


def test_annotations_name_the_file_from_the_repository_root(
    service: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(capsys, "--format", "github")
    assert code == 1
    ks201 = next(line for line in out.splitlines() if "KS201" in line)
    assert ks201.startswith("::error file=services/orders/topology/word-count.txt,line=8,")


def test_text_names_the_old_version_as_a_path_editors_open(
    service: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(capsys)
    assert code == 1
    ks201 = next(line for line in out.splitlines() if "KS201" in line)
    assert ks201.startswith("topology/word-count.txt:5 (at HEAD~1): error KS201 store-renamed")
    assert "@HEAD~1" not in out
