"""Every file ksafe reads, saved the ways editors and shells save it.

UTF-8 with or without a BOM and UTF-16 with a BOM (what ``cmd > file`` writes in Windows
PowerShell 5, little endian; big endian from some editors) read exactly like UTF-8; UTF-16
without a BOM and bytes that are not text are rejected with a located message, never a
``UnicodeDecodeError`` traceback. CRLF line endings read like LF.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.hardening.fuzzing import ROOT

EXAMPLES = ROOT / "fixtures" / "examples"
SNAPSHOTS = ROOT / "fixtures" / "cluster" / "snapshots"


def _encode(text: str, how: str) -> bytes:
    if how == "utf-8":
        return text.encode("utf-8")
    if how == "utf-8-bom":
        return codecs.BOM_UTF8 + text.encode("utf-8")
    if how == "utf-16-le-bom":
        return codecs.BOM_UTF16_LE + text.encode("utf-16-le")
    if how == "utf-16-be-bom":
        return codecs.BOM_UTF16_BE + text.encode("utf-16-be")
    if how == "utf-8-crlf":
        return text.replace("\n", "\r\n").encode("utf-8")
    if how == "utf-16-le-bom-crlf":  # PowerShell: both at once
        return codecs.BOM_UTF16_LE + text.replace("\n", "\r\n").encode("utf-16-le")
    raise ValueError(how)


READABLE = (
    "utf-8",
    "utf-8-bom",
    "utf-16-le-bom",
    "utf-16-be-bom",
    "utf-8-crlf",
    "utf-16-le-bom-crlf",
)


def _topology(path: Path) -> object:
    from linter.topology.parse import parse_file

    return parse_file(path)


def _capture(path: Path) -> object:
    from cluster_engine.ingest import load_snapshot

    return load_snapshot(path).model_dump()


def _native(path: Path) -> object:
    from cluster_engine.ingest import load_snapshot

    return load_snapshot(path).model_dump()


def _plan(path: Path) -> object:
    from cluster_engine.plan import load_plan

    return [s.model_dump(exclude={"index"}) for s in load_plan(path).steps]


def _properties(path: Path) -> object:
    from linter.topology.streams_config import parse_properties_file

    return parse_properties_file(path).entries


PLAN = """# roll the brokers, then bump the metadata version
- rolling-restart: {at-once: 1}
- update-feature: {feature: metadata.version, level: 27}
"""
PROPERTIES = "application.id=orders\n# café\nprocessing.guarantee=exactly_once_v2\n"

# reader, file name, text
INPUTS: dict[str, tuple[Callable[[Path], object], str, Callable[[], str]]] = {
    "topology": (_topology, "t.txt", lambda: (EXAMPLES / "orders-v1.txt").read_text("utf-8")),
    "capture": (
        _capture,
        "c.txt",
        lambda: (SNAPSHOTS / "three-brokers" / "topics.txt").read_text("utf-8"),
    ),
    "native-snapshot": (
        _native,
        "s.yaml",
        lambda: (SNAPSHOTS / "three-brokers.yaml").read_text("utf-8"),
    ),
    "plan": (_plan, "p.yaml", lambda: PLAN),
    "streams-properties": (_properties, "a.properties", lambda: PROPERTIES),
}


def _errors() -> tuple[type[Exception], ...]:
    from cluster_engine.errors import ClusterInputError
    from linter.topology.errors import StreamsConfigError, TopologyParseError

    return (TopologyParseError, ClusterInputError, StreamsConfigError)


@pytest.mark.parametrize("how", READABLE)
@pytest.mark.parametrize("what", sorted(INPUTS))
def test_every_input_reads_the_same_in_every_encoding(what: str, how: str, tmp_path: Path) -> None:
    read, name, text = INPUTS[what]
    plain = tmp_path / ("plain-" + name)
    plain.write_bytes(_encode(text(), "utf-8"))
    encoded = tmp_path / name
    encoded.write_bytes(_encode(text(), how))
    assert read(encoded) == read(plain)


@pytest.mark.parametrize("what", sorted(INPUTS))
def test_utf16_without_bom_is_a_located_error(what: str, tmp_path: Path) -> None:
    read, name, text = INPUTS[what]
    path = tmp_path / name
    path.write_bytes(text().encode("utf-16-le"))
    with pytest.raises(_errors()) as error:
        read(path)
    message = str(error.value)
    assert message.startswith(f"{path}:1"), message
    assert "UTF-16" in message, f"the message should say what is wrong: {message}"


@pytest.mark.parametrize("what", sorted(INPUTS))
def test_latin1_bytes_are_a_located_error(what: str, tmp_path: Path) -> None:
    read, name, text = INPUTS[what]
    path = tmp_path / name
    body = text().encode("utf-8")
    path.write_bytes(body + "# déjà vu\n".encode("latin-1"))
    line = body.count(b"\n") + 1
    with pytest.raises(_errors()) as error:
        read(path)
    assert str(error.value).startswith(f"{path}:{line}"), str(error.value)
    assert "UTF-8" in str(error.value)
