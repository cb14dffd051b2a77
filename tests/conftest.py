"""Shared test fixtures: where the real-world corpus and our own fixtures live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests draw the same examples on every run (``ci``, the default), so that CI passes or
# fails on the code, not on the draw, and a failure reproduces locally; ``long`` draws fresh ones,
# and many more, for bug hunts: ``KSAFE_HYPOTHESIS_PROFILE=long pytest tests/hardening``. The fuzz
# tests read ``KSAFE_FUZZ_CASES`` (cases per corpus file); ``benchmarks/fuzz.py`` runs for hours.
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile(
    "ci", max_examples=30, deadline=None, derandomize=True, database=None,
    suppress_health_check=_QUIET, print_blob=True,
)
settings.register_profile(
    "long", max_examples=5_000, deadline=None, suppress_health_check=_QUIET, print_blob=True
)
settings.load_profile(os.environ.get("KSAFE_HYPOTHESIS_PROFILE", "ci"))

pytest_plugins = ["tests.browser"]  # the ``browser`` fixture (a headless Chromium)

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
# ``KSAFE_SHARED`` points at the shared folder when the checkout does not sit beside it.
SHARED = Path(os.environ.get("KSAFE_SHARED") or ROOT.parent / "shared")
CORPUS = SHARED / "corpus"
TOPOLOGY_CORPUS = CORPUS / "topologies"
CLI_CORPUS = CORPUS / "cli"

CORPUS_MISSING = (
    f"the shared corpus is not at {CORPUS} (it lives beside the repository as ../shared/corpus; "
    "tests that read real data are skipped without it)"
)


def corpus_files(sub: str, pattern: str = "**/*.txt") -> list[Path]:
    """Corpus files for parametrisation (empty when the corpus is absent)."""
    base = CORPUS / sub
    if not base.is_dir():
        return []
    return sorted(p for p in base.glob(pattern) if p.is_file() and p.name != "INDEX.md")


def corpus_id(path: Path) -> str:
    return str(path.relative_to(CORPUS))


@pytest.fixture
def topology_corpus() -> Path:
    if not TOPOLOGY_CORPUS.is_dir():
        pytest.skip(CORPUS_MISSING)
    return TOPOLOGY_CORPUS


@pytest.fixture
def cli_corpus() -> Path:
    if not CLI_CORPUS.is_dir():
        pytest.skip(CORPUS_MISSING)
    return CLI_CORPUS


def corpus_text(path: Path) -> str:
    """The describe() text of a corpus file: everything after its provenance header."""
    text = path.read_text(encoding="utf-8")
    marker = "# --- describe() text starts on the next line ---\n"
    _, sep, body = text.partition(marker)
    return body if sep else text


def corpus_header(path: Path) -> dict[str, str]:
    """The provenance header's ``# key: value`` lines."""
    header: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("# "):
            break
        key, sep, value = line[2:].partition(":")
        if sep:
            header.setdefault(key.strip().lower(), value.strip())
    return header


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite golden files from the current output instead of comparing",
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))
