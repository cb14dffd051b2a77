"""How long ``ksafe --version``, ``ksafe --help`` and a small ``ksafe lint`` take to start, each
in a fresh interpreter (the median of N runs). Prints figures; asserts nothing.

    python benchmarks/startup.py [N]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "fixtures" / "examples" / "word-count-v1.txt"


def seconds(argv: list[str], runs: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "linter.cli", *argv], env=env,
                       capture_output=True, check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(runs: int) -> None:
    python = statistics.median(
        _time([sys.executable, "-c", "pass"]) for _ in range(runs)
    )
    print(f"python -c pass          {python * 1000:7.0f} ms (the interpreter alone)")
    for argv in (["--version"], ["--help"], ["lint", str(EXAMPLE)]):
        print(f"ksafe {' '.join(argv)[:18]:<18}{seconds(argv, runs) * 1000:7.0f} ms")


def _time(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=False)
    return time.perf_counter() - started


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
