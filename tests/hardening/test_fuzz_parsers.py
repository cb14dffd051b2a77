"""Bounded mutation fuzzing of every parser: a model, or our own located error, nothing else.

A fixed seed keeps CI reproducible; ``KSAFE_FUZZ_SCALE`` multiplies the case counts, and
``benchmarks/fuzz.py`` runs long campaigns with fresh seeds.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.hardening.fuzzing import TARGETS, Failure, fuzz

SCALE = float(os.environ.get("KSAFE_FUZZ_SCALE", "1"))
# Cases per target in CI: together a few seconds on two cores.
CASES = {
    "topology": 2000,
    "plan": 300,
    "cluster-output": 1000,
    "snapshot": 80,
    "streams-config": 1000,
    "config": 800,
    "reassignment": 300,
    "snapshot-json": 80,
    "fleet-snapshot": 40,
    "fleet-plan": 150,
    "fleet-app": 200,
    "fleet-properties": 200,
}


def _report(failures: list[Failure], workdir: Path) -> str:
    distinct: dict[str, Failure] = {}
    for failure in failures:
        distinct.setdefault(failure.signature, failure)
    lines = [f"{len(failures)} unacceptable outcomes, {len(distinct)} distinct:"]
    for n, (sig, failure) in enumerate(sorted(distinct.items())):
        case = workdir / f"failure-{n}.bin"
        case.write_bytes(failure.data)
        lines.append(f"  {sig}: {failure.message} (input: {case})")
    return "\n".join(lines)


@pytest.mark.parametrize("name", sorted(CASES))
def test_mutated_inputs_give_a_model_or_a_located_error(name: str, tmp_path: Path) -> None:
    target = TARGETS.get(name)
    if target is None:
        pytest.skip(f"no fuzz target {name!r} registered yet")
    if not target.seeds():
        pytest.skip(f"no seed inputs for {name!r} (corpus or fixtures absent)")
    failures = [
        failure
        for _, failure in fuzz(target, int(CASES[name] * SCALE), seed=20261122, workdir=tmp_path)
        if failure is not None
    ]
    assert not failures, _report(failures, tmp_path)
