"""``ksafe report`` judges an application upgrade exactly as ``ksafe diff`` does: the same
per-path Streams properties from the configuration, the same Streams versions."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from linter.cli import main
from tests.conftest import FIXTURES

EXAMPLES = FIXTURES / "examples"


def _findings(capsys: pytest.CaptureFixture[str], argv: list[str]) -> set[tuple[str, str]]:
    main(argv)
    out = json.loads(capsys.readouterr().out)
    return {(f["name"], f["message"]) for f in out["findings"]}


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("word-count-v1.txt", "word-count-v2.txt"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    (tmp_path / "before.properties").write_text("application.id=word-count\n")
    (tmp_path / "after.properties").write_text("application.id=word-count-v2\n")
    (tmp_path / "ksafe.toml").write_text(
        '[[paths]]\npath = "word-count-v2.txt"\n'
        'properties-before = "before.properties"\nproperties-after = "after.properties"\n'
    )
    return tmp_path


def test_report_reads_the_configured_properties_of_the_new_version(
    app: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    topologies = ["word-count-v1.txt", "word-count-v2.txt"]
    diffed = _findings(capsys, ["diff", *topologies, "--format", "json"])
    reported = _findings(
        capsys,
        ["report", "--topology-before", topologies[0], "--topology-after", topologies[1],
         "--format", "json"],
    )
    assert "application-id-changed" in {name for name, _ in diffed}
    assert reported == diffed


def test_report_judges_the_streams_versions(
    app: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    versions = ["--streams-version-before", "3.6.0", "--streams-version-after", "2.8.0"]
    topologies = ["word-count-v1.txt", "word-count-v2.txt"]
    diffed = _findings(capsys, ["diff", *topologies, *versions, "--format", "json"])
    reported = _findings(
        capsys,
        ["report", "--topology-before", topologies[0], "--topology-after", topologies[1],
         *versions, "--format", "json"],
    )
    assert "streams-downgrade" in {name for name, _ in diffed}
    assert reported == diffed
