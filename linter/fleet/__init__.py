"""The fleet scan: every app of a fleet checked at once, on PySpark.

Only :mod:`linter.fleet.job` (and the output writers it calls) import pyspark, and only when a scan
runs: this package, :mod:`linter.fleet.scan` and :mod:`linter.fleet.lineage` import without it.
"""
