"""How long a baselined fleet's configuration costs: load N acknowledgements from a ksafe.toml,
then apply them to N findings. Prints figures; asserts nothing.

    python benchmarks/acknowledgements.py [N]
"""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from linter.api import Settings, finish
from linter.baseline import entries, to_toml
from linter.config import load_config
from rules.framework import Finding, Impact, Location, Resource, Severity


def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        findings = [
            Finding(
                rule="KS101",
                name="generated-store-name",
                severity=Severity.WARNING,
                impact=Impact.HYGIENE,
                message=f"store KSTREAM-AGGREGATE-STATE-STORE-{i:010d} has a generated name",
                resources=(Resource(kind="store", name=f"store-{i}"),),
                locations=(Location(path=str(root / f"topology/app-{i % 500}.txt"), line=3),),
                fingerprint=f"{i:016x}",
            )
            for i in range(n)
        ]
        config_file = root / "ksafe.toml"
        start = time.perf_counter()
        config_file.write_text(
            to_toml(entries(findings, root, reason="baseline"), "acknowledgements")
        )
        written = time.perf_counter() - start
        start = time.perf_counter()
        config = load_config(config_file)
        loaded = time.perf_counter() - start
        start = time.perf_counter()
        report = finish("lint", findings, Settings(
            acknowledgements=config.settings.acknowledgements, today=date(2026, 1, 1)
        ))
        applied = time.perf_counter() - start
    assert report.summary.acknowledged == n
    print(f"{n} acknowledgements: baseline written in {written:.2f} s, "
          f"config loaded in {loaded:.2f} s, applied to {n} findings in {applied:.2f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
