"""A class-data sharing archive of the classes a local scan's driver JVM loads (no Spark import).

A fresh scan's JVM loads, verifies and links some twenty thousand Spark, Scala and Hadoop
classes, most of them while the first query is planned. Java can archive them once, parsed and
verified, and map the archive in later runs (``-XX:ArchiveClassesAtExit`` then
``-XX:SharedArchiveFile``, Java 13+). Measured on local[1], a fresh scan of 2,000 apps (4,000
descriptions): the JVM's CPU until the session is up 5.8-7.7 -> 3.1 s, for the scan job (the
first query) 14.3-19.1 -> 10.0 s, over the whole scan ~36 -> ~24 s.

The first fresh local scan that runs the whole job (not the small-fleet path, which loads few of
the SQL classes) writes the archive as its JVM exits, and waits for it (seconds, once); the
next ones map it. It lives in :data:`ARCHIVE_DIR` under a name made of what the JVM checks it
against (the Java runtime, Spark's jars), so a new Java or pyspark makes a new one rather than
mapping a stale one (which Java would refuse, silently, giving up its own base archive too).
Deleting the directory is always safe; ``KSAFE_SPARK_CLASS_ARCHIVE=off`` neither maps nor
writes one (a machine whose home does not outlive the scan, where the first scan's cost would
be paid every time).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
import time
from typing import Any

ARCHIVE_DIR = os.path.join(os.path.expanduser("~"), ".cache", "ksafe", "spark-classes")
SWITCH = "KSAFE_SPARK_CLASS_ARCHIVE"  # "off": no archive mapped or written

# Java prints its archive's warnings (classes it cannot archive, a mismatch) on stdout, which
# is the command's own output.
_QUIET = "-Xlog:cds=off -Xlog:cds+dynamic=off"


def archive_path(java_home: str, java_version: str) -> str | None:
    """Where the archive of this Java and this Spark lives; None when it cannot (a path with
    white space, which the JVM options string would split, or no Spark jars found)."""
    from pyspark.find_spark_home import _find_spark_home

    jars = os.path.join(_find_spark_home(), "jars")
    try:
        with os.scandir(jars) as entries:
            listed = sorted((e.name, e.stat().st_size, e.stat().st_mtime_ns) for e in entries)
    except OSError:
        return None
    key = repr((os.path.realpath(java_home), java_version, os.path.realpath(jars), listed))
    path = os.path.join(ARCHIVE_DIR, hashlib.sha256(key.encode()).hexdigest()[:20] + ".jsa")
    return None if any(c.isspace() for c in path) else path


def java_options(path: str | None, record: bool) -> tuple[str, str | None]:
    """The JVM options that map the archive at ``path``, or, when there is none yet and
    ``record``, that write it at exit to a file of this process; that file (None: nothing to
    keep)."""
    if path is None or os.environ.get(SWITCH, "").strip().lower() == "off":
        return "", None
    if os.path.isfile(path):
        _used(path)
        return f"-XX:SharedArchiveFile={path} {_QUIET}", None
    if not record:
        return "", None
    try:
        os.makedirs(ARCHIVE_DIR, exist_ok=True)
    except OSError:
        return "", None
    if not os.access(ARCHIVE_DIR, os.W_OK):
        return "", None
    _forget_stale(time.time() - STALE_SECONDS)
    written = f"{path}.{os.getpid()}.tmp"
    return f"-XX:ArchiveClassesAtExit={written} {_QUIET}", written


# Every install (each virtualenv, each pyspark or Java update) has an archive of its own: the
# ones used least lately are removed when a new one is kept, so the folder stays at this many.
KEPT = 3


def _used(path: str) -> None:
    """Mark the archive at ``path`` as just used (its mtime: atime is often not kept)."""
    with contextlib.suppress(OSError):
        os.utime(path)


def _keep_recent(kept: int) -> None:
    try:
        with os.scandir(ARCHIVE_DIR) as entries:
            found = [(e.stat().st_mtime, e.path) for e in entries if e.name.endswith(".jsa")]
        for _, stale in sorted(found, reverse=True)[kept:]:
            os.remove(stale)
    except OSError:
        pass


# A JVM that writes the archive after its process was stopped (Ctrl-C) leaves it unnamed: such
# files older than this are removed by the next recording.
STALE_SECONDS = 3600


def _forget_stale(before: float) -> None:
    try:
        with os.scandir(ARCHIVE_DIR) as entries:
            for entry in entries:
                if entry.name.endswith(".tmp") and entry.stat().st_mtime < before:
                    os.remove(entry.path)
    except OSError:
        pass


def keep(written: str, path: str, gateway: Any, *, whole: bool = True) -> None:
    """Stop the JVM of py4j's ``gateway`` (it writes the archive as it exits) and put the archive
    at ``path`` (rename is atomic: a scan starting meanwhile maps a whole archive or none), or,
    not ``whole`` (the scan failed, maybe before loading most of Spark), drop it."""
    proc = gateway.proc
    gateway.shutdown()
    proc.stdin.close()  # Spark's gateway exits when its stdin closes
    try:
        proc.wait(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    try:
        if whole and proc.returncode == 0 and os.path.getsize(written) > 0:
            os.replace(written, path)
            _keep_recent(KEPT)
    except OSError:
        pass
    finally:
        if os.path.exists(written):
            os.remove(written)
