"""The parser's quick path (the common layout read without Lark's parser) against the grammar.

Both must give the same model, positions included, or the same error, for every hand-written
variant, every error fixture and every text of the shared corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.topology import parse as parse_module
from linter.topology.parse import TopologyParseError, decode, parse
from linter.topology.render import to_jsonable
from tests.conftest import corpus_files, corpus_text

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "topology"
TEXTS = [
    *sorted((FIXTURES / "variants").glob("*.txt")),
    *sorted((FIXTURES / "errors").glob("*.txt")),
    *corpus_files("topologies"),
]


def outcome(text: str, strict: bool) -> object:
    try:
        model = parse(text, "t.txt", strict=strict)
    except TopologyParseError as error:
        return str(error)
    return to_jsonable(model), repr(model)


def read(path: Path) -> str:
    if "corpus" in path.parts:
        return corpus_text(path)
    try:
        return decode(path.read_bytes())
    except TopologyParseError:  # the fixtures of undecodable bytes: read them as Latin-1
        return path.read_bytes().decode("latin-1")


@pytest.mark.parametrize("strict", [True, False])
def test_quick_path_and_grammar_read_the_same(
    strict: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [read(path) for path in TEXTS]
    quick = [outcome(text, strict) for text in texts]
    monkeypatch.setattr(parse_module, "_quick", lambda *_: None)
    assert [outcome(text, strict) for text in texts] == quick


def test_quick_path_reads_the_common_layouts() -> None:
    """Plain and named topologies take the quick path (else it would quietly cost nothing)."""
    for name in ("canonical.txt", "named.txt"):
        text = (FIXTURES / "variants" / name).read_text(encoding="utf-8")
        assert parse_module._quick(text, parse_module._start(text), True) is not None
