"""Hardening: property-based, fuzz, hostile-text, encoding and huge-input tests.

``pytest tests/hardening`` runs a bounded, reproducible set (hypothesis profile ``ci``, fixed
fuzz seeds). Longer hunts: ``KSAFE_HYPOTHESIS_PROFILE=long`` and ``KSAFE_FUZZ_SCALE=20`` for the
same tests, ``benchmarks/fuzz.py --minutes 60`` for a fresh-seed campaign, ``benchmarks/huge.py``
for time and memory figures. ``strategies.py`` (valid topology models and their next versions)
and ``fuzzing.py`` (mutators and targets) are meant for reuse by other test suites.
"""
