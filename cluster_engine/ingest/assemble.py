"""Merge what the captured outputs say into one snapshot, refusing contradictions.

Every fact is recorded with the file and line it came from; a second source that says
something different is an error naming both. Outputs that describe an action or a proposal
rather than the cluster's state (feature updates, version mapping, ``--generate`` proposals,
``--execute`` rollback blocks, throttle-clearing lines) are read and checked, but add no facts.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from cluster_engine.errors import ClusterInputError
from cluster_engine.ingest.build import build
from cluster_engine.ingest.builder import Builder
from cluster_engine.ingest.detect import Section, read_file
from cluster_engine.snapshot import FACT_KINDS, FactKind, Snapshot, UnreadFile

# The kinds of facts each kind of capture gives (Snapshot.facts).
FACTS_OF: dict[str, tuple[FactKind, ...]] = {
    "topics": ("topics",),
    "configs": ("configs",),
    "features": ("features",),
    "quorum-status": ("quorum",),
    "quorum-replication": ("quorum",),
    "log-dirs": ("log-dirs",),
    "reassign": ("reassignments",),
    "api-versions": ("nodes",),
}


def assemble_dir(directory: Path) -> Snapshot:
    """A snapshot from the files at the top of a folder of captures.

    Hidden files, subdirectories, other non-regular files and files the system refuses to read
    are not read: the snapshot names each with the reason (``Snapshot.unread``)."""
    if not directory.is_dir():
        raise ClusterInputError(str(directory), None, "not a directory of captured outputs")
    sections: list[Section] = []
    unread: list[UnreadFile] = []
    for path in sorted(directory.iterdir()):
        reason = _skipped(path)
        if reason is None:
            try:
                sections.extend(read_file(path))
                continue
            except OSError as error:
                reason = f"cannot read it: {error.strerror or error}"
        unread.append(UnreadFile(path=str(path), reason=reason))
    if not sections:
        skipped = "; ".join(f"{Path(u.path).name}: {u.reason}" for u in unread)
        detail = f" ({skipped})" if skipped else ""
        raise ClusterInputError(
            str(directory), None, f"no captured outputs in this directory{detail}"
        )
    return assemble(sections, unread=unread)


def _skipped(path: Path) -> str | None:
    if path.name.startswith("."):
        return "a hidden file"
    if path.is_dir():
        return "a subdirectory: only the files at the top of the capture directory are read"
    if not path.is_file():
        return "not a regular file"
    return None


def assemble(sections: Iterable[Section], *, unread: Iterable[UnreadFile] = ()) -> Snapshot:
    builder = Builder()
    paths: list[str] = []
    kinds: set[FactKind] = set()
    for section in sections:
        try:
            builder.add(section)
        except ValidationError as error:  # a value out of its Kafka range, in this section
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            message = f"impossible value: {error.title}.{where}: {first['msg']}"
            raise ClusterInputError(section.path, section.line, message) from None
        paths.append(section.path)
        kinds.update(FACTS_OF.get(section.kind, ()))
    try:
        snapshot = build(builder)
        return snapshot.model_copy(
            update={
                "facts": tuple(k for k in FACT_KINDS if k in kinds),
                "unread": tuple(unread),
            }
        )
    except ValidationError as error:  # a value no cluster can have, that no reader caught
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        source = os.path.commonpath(paths) if paths else "<captures>"
        message = f"impossible value in the assembled snapshot: {where}: {first['msg']}"
        raise ClusterInputError(source, None, message) from None
