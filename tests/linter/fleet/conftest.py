"""One local Spark session for every fleet test (``local[1]``: small, and deterministic)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest


def _missing() -> str | None:
    try:
        from linter.fleet.environment import FleetSetupError, check_environment
    except ImportError as error:  # pragma: no cover - the package itself is broken
        return f"linter.fleet.environment does not import: {error}"
    try:
        check_environment()
    except FleetSetupError as error:
        return f"Spark tests need pyspark and Java 17+ ({error})"
    return None


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    reason = _missing()
    if reason:
        pytest.skip(reason)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from linter.fleet.environment import session

    spark = session("local[1]", "ksafe fleet tests")
    spark.conf.set("spark.sql.shuffle.partitions", "2")
    yield spark
    spark.stop()
