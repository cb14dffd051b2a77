"""The driver's own ksafe code, shipped to a cluster's executors (no Spark import here).

On a local master the Python workers are this interpreter with this ``sys.path``. On a cluster
they import whatever ``linter`` their Python finds: nothing (the scan dies on the first task), or
another ksafe version, whose rules would judge the fleet while the driver reports as this one.
So the packages the driver imported are zipped (sources and package data: the grammar, the
templates) and added to the job with ``addPyFile``; Spark puts the zip ahead of the workers'
own ``site-packages``, so every executor runs the driver's code. Their third-party dependencies
(lark, pydantic, ...) are the cluster's to install: see the README.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import os
import zipfile
from pathlib import Path
from typing import Any

PACKAGES = ("linter", "rules", "cluster_engine")
_SKIPPED_DIRS = frozenset({"__pycache__"})
_SKIPPED_SUFFIXES = (".pyc", ".pyo")


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"cannot ship package {name}: it is not importable here")
    return Path(next(iter(spec.submodule_search_locations)))


def package_zip() -> bytes:
    """The zip of :data:`PACKAGES` as this process imports them; the same files give the same
    bytes (sorted entries, fixed timestamps), so the zip's name can be its hash."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in PACKAGES:
            root = _package_dir(name)
            for folder, dirs, files in os.walk(root):
                dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
                for file in sorted(files):
                    if file.endswith(_SKIPPED_SUFFIXES):
                        continue
                    path = Path(folder) / file
                    arcname = f"{name}/{path.relative_to(root).as_posix()}"
                    info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
                    info.compress_type = zipfile.ZIP_DEFLATED
                    archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


# The driver serves the zip from this file for as long as the application lives (an executor
# that joins late fetches it then), so it lives in a cache of the user's own, named by its hash.
SHIPPED = os.path.join(os.path.expanduser("~"), ".cache", "ksafe", "executors")


def write_package_zip(directory: str = SHIPPED) -> str:
    """:func:`package_zip` in ``directory`` as ``ksafe-<hash>.zip`` (written once); its path."""
    data = package_zip()
    path = os.path.join(directory, f"ksafe-{hashlib.sha256(data).hexdigest()[:16]}.zip")
    if not os.path.exists(path):
        os.makedirs(directory, exist_ok=True)
        partial = f"{path}.{os.getpid()}.part"
        with open(partial, "wb") as handle:
            handle.write(data)
        os.replace(partial, path)  # another scan starting at once sees all of it or nothing
    return path


def ship(spark: Any) -> str | None:
    """Add the driver's code to a cluster session's jobs (a local one runs it already); the
    zip's path, or None on a local master."""
    sc = spark.sparkContext
    if str(sc.master).startswith("local"):
        return None
    path = write_package_zip()
    # Spark refuses a second file of one name from another path; the same name is the same code.
    if os.path.basename(path) not in (sc._python_includes or ()):
        sc.addPyFile(path)
    return path
