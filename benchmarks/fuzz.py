"""Long mutation-fuzz campaigns against every parser ksafe has.

    nice python benchmarks/fuzz.py [--minutes 10] [--targets topology,plan,...] [--seed N]
                                   [--case-seconds 5] [--save DIR] [--replay TARGET,...]
                                   [--balance cases|time]

Every reader of a user file is a target: describe() texts, Kafka CLI captures, native snapshots
(YAML and JSON), plans, reassignment JSON, the TOML configuration, Streams .properties, and the
fleet's own readers (its snapshot and plan loaders, and one app directory's texts and properties
through the scan, which must never raise). Each case is a seed input (every corpus text, Kafka CLI
capture, native snapshot, plan and Streams .properties file) mutated one to four times by
``tests/hardening/fuzzing.py``: lines deleted, duplicated, swapped, repeated, spliced from another
seed, truncated, bytes flipped, NULs, invalid UTF-8, structural tokens, numbers, re-indentation,
deep nesting, UTF-16/BOM re-encoding.
The only acceptable outcomes are a model or our own located input error; anything else, or a case
running past ``--case-seconds``, is a failure. Failures are counted by exception type + innermost
frame of ours (one bug hit a thousand ways is one distinct failure) and the first input of each is
saved under ``--save``.

For the describe() parser an accepted input is also checked to round-trip:
``parse(render(m)) == m``; a mismatch is reported separately (it may be a text the format cannot
represent unambiguously rather than a bug); its input is saved like a failure's.

``--replay topology --seed N`` draws exactly the cases of the run with seed ``N`` but runs only
the named targets: a finding of a long campaign comes back in seconds.

Prints, per target and in total: cases run, cases/s, accepted / rejected shares, distinct
outcomes (error messages with names and numbers blanked: a rough measure of how many different
paths the inputs reached), distinct failures.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.hardening.fuzzing import TARGETS, Failure, Target, mutate, signature, time_limit


@dataclass
class Tally:
    cases: int = 0
    accepted: int = 0
    rejected: int = 0
    seconds: float = 0.0
    outcomes: set[str] = field(default_factory=set)
    failures: Counter[str] = field(default_factory=Counter)
    roundtrip: Counter[str] = field(default_factory=Counter)


_NOISE = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`|\d+|/\S+")


def _outcome(error: BaseException | None) -> str:
    if error is None:
        return "model"
    text = str(error).split(": ", 1)[-1]
    return type(error).__name__ + ": " + _NOISE.sub("_", text)[:120]


def _roundtrip(model: object) -> str | None:
    from linter.topology.model import Description
    from linter.topology.parse import parse
    from linter.topology.render import render

    if not isinstance(model, Description):
        return None
    try:
        again = parse(render(model), "rendered.txt")
    except Exception as error:  # a rendering the parser rejects is a finding too
        return signature(error)
    return None if again == model else "RoundTrip mismatch @ linter/topology/render.py"


def run_one(
    target: Target, data: bytes, workdir: Path, seconds: float, tally: Tally
) -> Failure | None:
    path = workdir / f"case{target.suffix}"
    path.write_bytes(data)
    start = time.perf_counter()
    error: BaseException | None = None
    model: object = None
    try:
        with time_limit(seconds):
            model = target.load(path)
    except KeyboardInterrupt:
        raise
    except BaseException as caught:  # classifying every outcome is the point
        error = caught
    tally.seconds += time.perf_counter() - start
    tally.cases += 1
    tally.outcomes.add(_outcome(error))
    if error is None:
        tally.accepted += 1
        if target.name == "topology":
            mismatch = _roundtrip(model)
            if mismatch:
                tally.roundtrip[mismatch] += 1
                message = "parse(render(m)) != m"
                return Failure(target.name, "round-trip: " + mismatch, message, data)
        return None
    if target.located(error):
        tally.rejected += 1
        return None
    failure = Failure(target.name, signature(error), str(error).split("\n")[0][:200], data)
    tally.failures[failure.signature] += 1
    return failure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--case-seconds", type=float, default=5.0)
    parser.add_argument("--save", type=Path, default=Path(tempfile.gettempdir()) / "ksafe-fuzz")
    parser.add_argument("--report-every", type=float, default=60.0, help="seconds")
    parser.add_argument(
        "--balance",
        choices=["cases", "time"],
        default="cases",
        help="cases: round-robin, every target the same number of cases; time: the next case "
        "goes to the target that has had the least CPU time, so fast readers get more cases",
    )
    parser.add_argument(
        "--replay",
        default="",
        help="draw the same cases as a full run with this seed, but run only these targets "
        "(comma-separated): reproduces a campaign's finding quickly",
    )
    args = parser.parse_args(argv)

    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    targets = [TARGETS[name] for name in args.targets.split(",")]
    seeds = {t.name: t.seeds() for t in targets}
    targets = [t for t in targets if seeds[t.name]]
    tallies = {t.name: Tally() for t in targets}
    first: dict[str, Failure] = {}
    args.save.mkdir(parents=True, exist_ok=True)
    replay = {name for name in args.replay.split(",") if name}
    print(f"seed {seed}; seeds per target: " + ", ".join(f"{k} {len(v)}" for k, v in seeds.items()))

    deadline = time.monotonic() + args.minutes * 60
    next_report = time.monotonic() + args.report_every
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for target in targets:  # warm-up: imports and grammar builds are not a case's cost
            (workdir / f"warm{target.suffix}").write_bytes(seeds[target.name][0])
            with contextlib.suppress(Exception):
                target.load(workdir / f"warm{target.suffix}")
        i = 0
        try:
            while time.monotonic() < deadline:
                if args.balance == "time":
                    target = min(targets, key=lambda t: tallies[t.name].seconds)
                else:
                    target = targets[i % len(targets)]
                pool = seeds[target.name]
                data = mutate(rng.choice(pool), rng, pool)
                if replay and target.name not in replay:
                    i += 1
                    continue
                failure = run_one(target, data, workdir, args.case_seconds, tallies[target.name])
                if failure is not None and failure.signature not in first:
                    first[failure.signature] = failure
                    saved = args.save / f"{target.name}-{len(first)}{target.suffix}"
                    saved.write_bytes(data)
                    print(f"NEW {failure.signature}: {failure.message} -> {saved}", flush=True)
                i += 1
                if time.monotonic() >= next_report:
                    _progress(tallies, time.monotonic() - started)
                    next_report += args.report_every
        except KeyboardInterrupt:
            print("interrupted")
    _summary(tallies, time.monotonic() - started, first)
    return 1 if first else 0


def _progress(tallies: dict[str, Tally], elapsed: float) -> None:
    total = sum(t.cases for t in tallies.values())
    failures = len({s for t in tallies.values() for s in t.failures})
    rate = total / elapsed
    print(
        f"[{elapsed:7.0f} s] {total} cases, {rate:.0f}/s, {failures} distinct failures", flush=True
    )


def _share(n: int, total: int) -> str:
    return f"{100 * n / total:.1f}%" if total else "-"


def _summary(tallies: dict[str, Tally], elapsed: float, first: dict[str, Failure]) -> None:
    print()
    header = f"{'target':<16}{'cases':>10}{'cases/s':>10}{'accepted':>10}{'rejected':>10}"
    print(header + f"{'outcomes':>10}{'failures':>10}{'round-trip':>11}")
    for name, t in tallies.items():
        rate = t.cases / t.seconds if t.seconds else 0.0
        print(
            f"{name:<16}{t.cases:>10}{rate:>10.0f}"
            f"{_share(t.accepted, t.cases):>10}{_share(t.rejected, t.cases):>10}"
            f"{len(t.outcomes):>10}{len(t.failures):>10}{sum(t.roundtrip.values()):>11}"
        )
    total = sum(t.cases for t in tallies.values())
    distinct = {s for t in tallies.values() for s in t.failures}
    print(f"\ntotal: {total} inputs in {elapsed:.0f} s ({total / elapsed:.0f} cases/s wall), "
          f"{len(distinct)} distinct failures")  # fmt: skip
    for name, t in tallies.items():
        for sig, count in t.failures.most_common():
            print(f"  {name}: {sig} x{count}: {first[sig].message}")
        for sig, count in t.roundtrip.most_common():
            print(f"  {name}: round-trip {sig} x{count} (input saved as the failure's)")


if __name__ == "__main__":
    sys.exit(main())
