"""Hypothesis profiles for the hardening suite.

``ci`` (default) is bounded so the whole suite stays well under a minute on two cores; ``long``
is for campaigns: ``KSAFE_HYPOTHESIS_PROFILE=long pytest tests/hardening``. The fuzz tests read
``KSAFE_FUZZ_CASES`` (cases per corpus file) the same way; ``benchmarks/fuzz.py`` runs for hours.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=30,
    deadline=None,
    derandomize=True,  # same cases every run: a CI failure reproduces locally
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "long",
    max_examples=5_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.load_profile(os.environ.get("KSAFE_HYPOTHESIS_PROFILE", "ci"))
