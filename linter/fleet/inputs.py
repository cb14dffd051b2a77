"""The fleet table's three shapes, and turning a directory tree into rows (no Spark here).

A fleet is rows of (``app_id``, ``version``, ``description``, optional ``properties``, optional
``deployed``, optional ``timestamp``), given as:

- a directory tree ``<app_id>/<version>.txt`` with optional ``<app_id>/<version>.properties``
  (Streams config) and an optional ``<app_id>/DEPLOYED`` file holding the deployed version's name;
- JSON Lines, one object per row with those keys;
- Parquet with those columns.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace
from typing import Literal
from urllib.parse import unquote, urlparse

from linter.fleet.scan import MISSING_APP, Version

InputFormat = Literal["dir", "jsonl", "parquet"]
FORMATS: tuple[str, ...] = ("auto", "dir", "jsonl", "parquet")

TABLE_SCHEMA = (
    "app_id string, version string, description string, properties string, "
    "deployed boolean, timestamp string"
)
COLUMNS = ("app_id", "version", "description", "properties", "deployed", "timestamp")
DEPLOYED_MARKER = "DEPLOYED"

_JSONL = (".jsonl", ".ndjson", ".json", ".jsonl.gz", ".json.gz")


def local_path(path: str) -> str | None:
    """The local filesystem path of ``path`` (plain, ``file:/...`` or ``file:///...``), or None
    for any other filesystem (``s3a://``, ``hdfs://``...)."""
    parsed = urlparse(path)
    if parsed.scheme == "file":
        return unquote(parsed.path)
    if len(parsed.scheme) > 1:  # a one-letter scheme is a Windows drive
        return None
    return path


def detect_format(path: str, given: str = "auto") -> InputFormat:
    """``given`` unless ``auto``: by suffix, then (local paths) by what the directory holds."""
    if given != "auto":
        return given  # type: ignore[return-value]
    lower = path.rstrip("/").lower()
    if lower.endswith(_JSONL):
        return "jsonl"
    if lower.endswith(".parquet"):
        return "parquet"
    local = local_path(path)
    if local is not None and os.path.isdir(local):
        names = os.listdir(local)
        data = [n for n in names if not n.startswith((".", "_"))]
        if any(n.endswith(".parquet") for n in data):
            return "parquet"
        if data and all(n.endswith(_JSONL) for n in data):
            return "jsonl"  # e.g. a JSON table Spark wrote: part-*.json beside _SUCCESS
        if "_SUCCESS" in names:
            return "parquet"
    return "dir"


def input_problem(path: str, given: str = "auto") -> str | None:
    """What is wrong with a local fleet input before Spark starts (None: nothing seen; paths on
    other filesystems are Spark's to check): a file of no known format, or a directory tree
    with no ``<app_id>/<file>`` at all."""
    local = local_path(path)
    if local is None or not os.path.exists(local):
        return None
    kind = detect_format(path, given)
    if kind == "dir" and not os.path.isdir(local):
        return (
            f"{path}: not a fleet table: a directory of <app_id>/<version>.txt, JSON Lines "
            f"({', '.join(_JSONL)}) or Parquet (.parquet); or say which with --input-format"
        )
    if kind == "dir":
        with os.scandir(local) as entries:
            if not any(entry.is_dir() and os.listdir(entry.path) for entry in entries):
                return f"{path}: no <app_id>/<version>.txt in this directory"
    return None


def unread_files(path: str, given: str = "auto") -> list[str]:
    """Files beside the app directories of a local directory tree, which the scan does not read
    (it reads ``<app_id>/<file>``): named to the user rather than passed over in silence."""
    local = local_path(path)
    if local is None or not os.path.isdir(local) or detect_format(path, given) != "dir":
        return []
    with os.scandir(local) as entries:
        return sorted(
            e.name for e in entries if e.is_file() and not e.name.startswith((".", "_"))
        )


def split_path(path: str) -> tuple[str, str] | None:
    """``.../<app_id>/<file>`` -> ``(app_id, file)``; None for files outside an app directory."""
    parts = path.rstrip("/").split("/")
    if len(parts) < 2 or not parts[-2] or parts[-1].startswith((".", "_")):
        return None
    return parts[-2], parts[-1]


def assemble(app_id: str, files: Iterable[tuple[str, ...]]) -> list[Version]:
    """One app directory's files ``(name, text)`` or ``(name, text, path shown)`` -> its versions.

    ``<v>.txt`` is a description, ``<v>.properties`` its Streams config, ``DEPLOYED`` names the
    deployed version; other files are ignored. A ``.properties`` without a ``.txt`` still yields a
    version (without a description) so that it is reported, not dropped; so does a directory with
    no version at all, and a ``DEPLOYED`` that names no version of the directory. Two files of one
    name (two directories of the same app name under the input) yield a version each.
    """
    texts: dict[str, list[tuple[str | None, str]]] = {}
    props: dict[str, str] = {}
    others: list[str] = []
    deployed: str | None = None
    for name, text, *shown in files:
        source = shown[0] if shown else f"{app_id}/{name}"
        if name == DEPLOYED_MARKER:
            deployed = text.strip()
        elif name.endswith(".txt"):
            texts.setdefault(name[: -len(".txt")], []).append((text, source))
        elif name.endswith(".properties"):
            props.setdefault(name[: -len(".properties")], text)
        else:
            others.append(name)
    names = sorted(set(texts) | set(props))
    if not names:
        found = ", ".join(sorted(others)) or "nothing"
        problem = f"{app_id}/: no <version>.txt or <version>.properties (found: {found})"
        return [Version(app_id=app_id, version="", description=None, problem=problem)]
    wrong = (
        f"{app_id}/{DEPLOYED_MARKER}: names version {deployed!r}, which has no {deployed}.txt here"
        if deployed is not None and deployed not in names
        else None
    )
    versions = [
        Version(
            app_id=app_id,
            version=v,
            description=text,
            properties=props.get(v),
            deployed=v == deployed,
            source=source,
        )
        for v in names
        for text, source in sorted(texts.get(v, []), key=lambda t: t[1])
        or [(None, f"{app_id}/{v}.properties")]
    ]
    return [replace(versions[0], problem=wrong), *versions[1:]] if wrong else versions


def version_of(
    row: tuple[object, ...], source: str | None = None, problem: str | None = None
) -> Version:
    """A table row (in :data:`COLUMNS` order) -> :class:`Version`; ``source`` is the file it was
    read from, ``problem`` the reader's message when the row is not a valid fleet table row."""
    app_id, version, description, properties, deployed, timestamp = row
    return Version(
        app_id=str(app_id) if app_id is not None else MISSING_APP,
        version=str(version) if version is not None else "",
        description=description if isinstance(description, str) else None,
        properties=properties if isinstance(properties, str) else None,
        deployed=bool(deployed),
        timestamp=str(timestamp) if timestamp is not None else None,
        source=source,
        problem=f"{source or 'fleet table'}: {problem}" if problem else None,
    )
