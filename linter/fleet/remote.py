"""A fleet directory tree on another filesystem (HDFS, S3, ...), read through Hadoop and bounded
as the local reader (:mod:`linter.fleet.tree`) is.

``wholeTextFiles`` over ``<input>/*/*`` would read every file whole into an executor's memory,
however large, block on a FIFO, replace bytes that are not UTF-8 and never list an empty app
directory. Here the driver lists the tree with Hadoop's ``FileSystem`` (one glob per level) and
judges each entry from its ``FileStatus``: a directory or anything the filesystem does not call
a file, and a file over :data:`~linter.fleet.tree.MAX_FILE_BYTES`, is a problem of its app,
named with the reason and never opened. Only the files that pass are read, as bytes
(``binaryFiles``), and decoded as ``lint`` decodes them.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from linter.fleet.inputs import local_path
from linter.fleet.scan import Version
from linter.fleet.tree import KINDS, MAX_FILE_BYTES, app_versions

# Hadoop takes these as a path list's separator or as glob patterns: a file so named could not
# be read as itself, so it is named instead.
_PATTERN_CHARS = frozenset(",{}[]*?\\")


@dataclass(frozen=True, slots=True)
class Entry:
    """One name in an app directory, as Hadoop's listing tells it."""

    app_id: str
    path: str
    name: str
    problem: str | None  # why it is not read (None: read it)


def _status(status: Any) -> tuple[str, bool, bool, int]:
    return str(status.getPath().toString()), bool(status.isDirectory()), bool(
        status.isFile()
    ), int(status.getLen())


def _glob(spark: Any, pattern: str) -> list[tuple[str, bool, bool, int]]:
    sc = spark.sparkContext
    jvm = sc._jvm  # Hadoop's FileSystem is only reachable through the gateway
    path = jvm.org.apache.hadoop.fs.Path(pattern)
    fs = path.getFileSystem(sc._jsc.hadoopConfiguration())
    found = fs.globStatus(path)
    return sorted(_status(s) for s in (found or []))


def _parent(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[0]


def _name(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def _hidden(name: str) -> bool:
    return name.startswith((".", "_"))


def _local_kind(path: str) -> str | None:
    """What a ``file:`` entry is when it is not a regular file: Hadoop's local filesystem calls a
    FIFO a file of length 0 (and reading it would block), the operating system does not."""
    local = local_path(path) if path.startswith("file:") else None
    if local is None:
        return None
    try:
        mode = os.stat(local).st_mode
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in KINDS if test(mode)), "not a regular file")


def judge(app_id: str, path: str, is_dir: bool, is_file: bool, length: int) -> Entry:
    """Whether one entry of an app directory is read, from what the filesystem says of it."""
    name = _name(path)
    problem = None
    if _hidden(name):
        problem = ""  # passed over, and named if it is all the directory holds
    elif is_dir:
        problem = f"{path}: not read: a directory, not a regular file"
    elif not is_file:
        problem = f"{path}: not read: not a regular file"
    elif (kind := _local_kind(path)) is not None:
        problem = f"{path}: not read: {kind}, not a regular file"
    elif length > MAX_FILE_BYTES:
        problem = f"{path}: not read: {length} bytes, over the limit of {MAX_FILE_BYTES} bytes"
    elif _PATTERN_CHARS & set(name):
        problem = f"{path}: not read: Hadoop takes a name with , {{ }} [ ] * ? \\ as a pattern"
    return Entry(app_id=app_id, path=path, name=name, problem=problem)


def list_tree(spark: Any, root: str) -> dict[str, list[Entry]]:
    """Every app directory under ``root`` (``root/<app>/`` and ``root/<group>/<app>/``, as the
    local reader takes them) with its entries judged; an empty one has none."""
    base = root.rstrip("/")
    top = [s for s in _glob(spark, base + "/*") if s[1] and not _hidden(_name(s[0]))]
    second = _glob(spark, base + "/*/*")
    inner: dict[str, list[tuple[str, bool, bool, int]]] = {}
    for s in second:
        inner.setdefault(_parent(s[0]), []).append(s)
    groups: set[str] = set()
    apps: dict[str, list[Entry]] = {}
    for path, *_ in top:
        entries = inner.get(path, [])
        files = [s for s in entries if not s[1]]
        subdirs = [s for s in entries if s[1] and not _hidden(_name(s[0]))]
        if files or not subdirs:
            apps.setdefault(_name(path), []).extend(judge(_name(path), *s) for s in files)
        groups.update(s[0] for s in subdirs)
    if groups:
        third: dict[str, list[tuple[str, bool, bool, int]]] = {g: [] for g in groups}
        for s in _glob(spark, base + "/*/*/*"):
            if _parent(s[0]) in third:
                third[_parent(s[0])].append(s)
        for group, entries in sorted(third.items()):
            app_id = _name(group)
            apps.setdefault(app_id, []).extend(judge(app_id, *s) for s in entries)
    return dict(sorted(apps.items()))


def read_tree(spark: Any, root: str, partitions: int) -> Any:
    """``(app_id, [Version, ...])`` per app directory under ``root``, as an RDD."""
    apps = list_tree(spark, root)
    sc = spark.sparkContext
    listed = sc.parallelize(
        [(app_id, [(e.name, e.path, e.problem) for e in entries])
         for app_id, entries in apps.items()], max(1, min(partitions, len(apps) or 1)),
    )  # fmt: skip
    wanted = [e.path for entries in apps.values() for e in entries if e.problem is None]
    if not wanted:
        return listed.map(lambda item: _app(item[0], item[1], ()))
    # an app's files are in its own directory: the app is the name of the file's parent
    read = sc.binaryFiles(",".join(wanted), partitions).map(
        lambda pair: (_name(_parent(str(pair[0]))), (str(pair[0]), bytes(pair[1])))
    )
    return listed.cogroup(read, partitions).map(_cogrouped)


def _cogrouped(item: tuple[str, tuple[Iterable[Any], Iterable[Any]]]) -> tuple[str, list[Version]]:
    app_id, (listed, read) = item
    entries: list[tuple[str, str, str | None]] = next(iter(listed), [])
    return _app(app_id, entries, read)


def _app(
    app_id: str, entries: Iterable[tuple[str, str, str | None]], data: Iterable[tuple[str, bytes]]
) -> tuple[str, list[Version]]:
    from linter.topology.errors import TopologyParseError
    from linter.topology.parse import decode

    contents = dict(data)
    files: list[tuple[str, str, str]] = []
    problems: list[str] = []
    hidden: list[str] = []
    for name, path, problem in entries:
        if problem == "":
            hidden.append(name)
        elif problem is not None:
            problems.append(problem)
        elif path not in contents:
            problems.append(f"{path}: not read: it was gone when the scan read the directory")
        else:
            try:
                files.append((name, decode(contents[path], path), path))
            except TopologyParseError as error:
                problems.append(str(error))
    return app_id, app_versions(app_id, files, problems, hidden)
