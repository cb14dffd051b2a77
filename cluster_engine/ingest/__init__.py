"""Build a cluster snapshot from what an operator captured: the Kafka tools' own outputs, or a
native YAML/JSON snapshot.

``load_snapshot(path)``: a directory of captures is assembled; a ``.yaml``/``.yml``/``.json``
file is read as a native snapshot; any other file as a single capture. One reader module per
tool; ``detect`` recognises each file's kind from its content; ``assemble`` merges the facts
and refuses contradictions.
"""

from __future__ import annotations

import re
from pathlib import Path

from cluster_engine.errors import read_input
from cluster_engine.ingest.assemble import assemble, assemble_dir
from cluster_engine.ingest.detect import Section, read_file, read_text
from cluster_engine.ingest.native import NATIVE_SUFFIXES, load_native, parse_native
from cluster_engine.snapshot import Snapshot
from linter import inputs

__all__ = ["Section", "assemble", "assemble_dir", "load_native", "load_snapshot", "read_file"]


def load_snapshot(path: Path) -> Snapshot:
    """A snapshot from a folder of captures, a native YAML/JSON snapshot, or one capture file;
    ``-`` reads standard input (a native snapshot or one capture, told by content)."""
    if inputs.is_stdin(path):
        return _from_stdin(path)
    if path.is_dir():
        return assemble_dir(path)
    if path.suffix.lower() in NATIVE_SUFFIXES:
        return load_native(path)
    return assemble(read_file(path))


# A native snapshot's keys (YAML at the left margin, or JSON); no Kafka tool output has them.
_NATIVE_KEY = re.compile(r"^(snapshot_version|cluster_id|nodes|topics|features)\s*:", re.M)
_NATIVE_JSON_KEY = re.compile(r'"(snapshot_version|cluster_id|nodes|features)"\s*:')


def _from_stdin(path: Path) -> Snapshot:
    text = read_input(path)
    name = inputs.label(path)
    if text.lstrip().startswith("{") and _NATIVE_JSON_KEY.search(text):
        return parse_native(name, text, json_text=True)
    if _NATIVE_KEY.search(text):
        return parse_native(name, text)
    return assemble(read_text(name, text))
