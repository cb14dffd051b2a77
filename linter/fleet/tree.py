"""A local fleet directory tree, listed on the driver and read file by file (no Spark here).

Spark's ``wholeTextFiles`` passes over what a safety scan must not: an app directory that is
empty or holds only hidden (``.``/``_``) files is never listed, so the app vanishes from the
counts; bytes that are not UTF-8 become U+FFFD; and a FIFO blocks the read forever. Here every
app directory the glob ``<input>/*/*`` would reach is an app, every file in it is checked (a
regular file, within :data:`MAX_FILE_BYTES`, UTF-8 as ``lint`` reads it) and anything wrong
quarantines the app with the file and the reason.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

from linter.fleet.inputs import assemble
from linter.fleet.scan import Version

MAX_FILE_BYTES = 256 * 1024 * 1024
"""The largest file of an app directory that is read (a describe() text is kilobytes)."""

KINDS = (
    (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"),
)  # fmt: skip


def _hidden(name: str) -> bool:
    return name.startswith((".", "_"))


def app_dirs(root: str) -> list[tuple[str, list[str]]]:
    """``(app_id, [entry paths])`` for every app directory under ``root``: ``root/<app>/`` when
    it holds any file (or nothing at all), and ``root/<group>/<app>/`` one level down, as the
    directory reader has always taken them. Entries are every name in the app directory, hidden
    ones included, so that nothing is passed over unseen."""
    apps: dict[str, list[str]] = {}
    for top in _entries(root):
        if _hidden(os.path.basename(top)) or not os.path.isdir(top):
            continue
        inner = _entries(top)
        files = [p for p in inner if not os.path.isdir(p) or os.path.islink(p)]
        subdirs = [p for p in inner if os.path.isdir(p) and not _hidden(os.path.basename(p))]
        if files or not subdirs:
            apps.setdefault(os.path.basename(top), []).extend(files)
        for sub in subdirs:
            apps.setdefault(os.path.basename(sub), []).extend(_entries(sub))
    return sorted(apps.items())


def _entries(path: str) -> list[str]:
    with os.scandir(path) as found:
        return sorted(entry.path for entry in found)


def read_app(item: tuple[str, Iterable[str]]) -> tuple[str, list[Version]]:
    """One app directory's entries -> its versions; a file that cannot be read as text, or a
    directory with no visible file, quarantines the app with the reason."""
    app_id, paths = item
    files: list[tuple[str, str, str]] = []
    problems: list[str] = []
    hidden: list[str] = []
    for path in paths:
        name = os.path.basename(path)
        if _hidden(name):
            hidden.append(name)
            continue
        text, problem = read_text(path)
        if problem is not None:
            problems.append(problem)
        elif text is not None:
            files.append((name, text, path))
    return app_id, app_versions(app_id, files, problems, hidden)


def app_versions(
    app_id: str, files: list[tuple[str, str, str]], problems: list[str], hidden: list[str]
) -> list[Version]:
    """An app directory's versions from the files read (``(name, text, path)``), what was wrong
    with the others, and the hidden names passed over: every problem lands on the app."""
    if not files and not problems and hidden:
        problems.append(
            f"{app_id}/: only hidden files, which are not read: {', '.join(sorted(hidden))}"
        )
    if problems and not files:
        return [Version(app_id, "", None, problem="; ".join(problems))]
    versions = assemble(app_id, files)
    if problems:
        first = versions[0]
        joined = "; ".join(([first.problem] if first.problem else []) + problems)
        versions[0] = Version(
            app_id=first.app_id, version=first.version, description=first.description,
            properties=first.properties, deployed=first.deployed, timestamp=first.timestamp,
            source=first.source, problem=joined,
        )  # fmt: skip
    return versions


def read_text(path: str) -> tuple[str | None, str | None]:
    """``(text, None)`` or ``(None, what is wrong)``: only a regular file is opened (a FIFO would
    block), only up to :data:`MAX_FILE_BYTES`, and bytes that are not UTF-8 are an error at their
    line and column, as ``ksafe lint`` reports them."""
    from linter.topology.errors import TopologyParseError
    from linter.topology.parse import decode

    try:
        info = os.stat(path)
    except OSError as error:
        return None, f"{path}: cannot be read: {error.strerror or error}"
    if not stat.S_ISREG(info.st_mode):
        kind = next((what for test, what in KINDS if test(info.st_mode)), "not a regular file")
        return None, f"{path}: not read: {kind}, not a regular file"
    if info.st_size > MAX_FILE_BYTES:
        return None, (
            f"{path}: not read: {info.st_size} bytes, over the limit of {MAX_FILE_BYTES} bytes"
        )
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        return None, f"{path}: cannot be read: {error.strerror or error}"
    if len(data) > MAX_FILE_BYTES:
        return None, f"{path}: not read: over the limit of {MAX_FILE_BYTES} bytes"
    try:
        return decode(data, path), None
    except TopologyParseError as error:
        return None, str(error)
