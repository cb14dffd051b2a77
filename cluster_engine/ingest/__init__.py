"""Build a cluster snapshot from what an operator captured: the Kafka tools' own outputs, or a
native YAML/JSON snapshot.

``load_snapshot(path)``: a directory of captures is assembled; a ``.yaml``/``.yml``/``.json``
file is read as a native snapshot; any other file as a single capture. One reader module per
tool; ``detect`` recognises each file's kind from its content; ``assemble`` merges the facts
and refuses contradictions.
"""

from __future__ import annotations

from pathlib import Path

from cluster_engine.ingest.assemble import assemble, assemble_dir
from cluster_engine.ingest.detect import Section, read_file
from cluster_engine.ingest.native import NATIVE_SUFFIXES, load_native
from cluster_engine.snapshot import Snapshot

__all__ = ["Section", "assemble", "assemble_dir", "load_native", "load_snapshot", "read_file"]


def load_snapshot(path: Path) -> Snapshot:
    """A snapshot from a folder of captures, a native YAML/JSON snapshot, or one capture file."""
    if path.is_dir():
        return assemble_dir(path)
    if path.suffix.lower() in NATIVE_SUFFIXES:
        return load_native(path)
    return assemble(read_file(path))
