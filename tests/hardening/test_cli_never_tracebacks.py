"""``ksafe`` on mutated inputs: exit code 0, 1 or 2 and a message, never a traceback.

Each case is a seed mutated by the fuzzer, run through click's CliRunner in an empty directory
(so no configuration of this repository is picked up), in a rotating output format.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from linter.cli import ksafe
from linter.topology.model import Description
from linter.topology.render import render
from tests.hardening.fuzzing import ROOT, TARGETS, mutate
from tests.hardening.strategies import versions

_UNSAFE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
FORMATS = ("text", "json", "sarif", "github", "markdown", "html")
CASES = 24  # per command; the parsers themselves are fuzzed far harder in test_fuzz_parsers
SNAPSHOT_DIR = ROOT / "fixtures" / "cluster" / "snapshots" / "three-brokers"
SNAPSHOT_YAML = ROOT / "fixtures" / "cluster" / "snapshots" / "three-brokers.yaml"


def _check(result: Result, args: list[str]) -> None:
    shown = f"ksafe {' '.join(args)}\n--- exit {result.exit_code}\n{result.output[-2000:]}"
    assert result.exit_code in (0, 1, 2), shown
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{shown}\n{type(result.exception).__name__}: {result.exception}"
    )
    assert "Traceback" not in result.output, shown
    assert "Traceback" not in result.stderr, shown
    if result.exit_code == 2:
        assert result.stderr.strip(), f"exit 2 without a message\n{shown}"
    # an error message quotes the input: it must not carry its control characters to the terminal
    unsafe = _UNSAFE.findall(result.stderr)
    assert not unsafe, f"{shown}\nstderr carries {sorted(set(unsafe))}: {result.stderr[-500:]!r}"


def _cases(target: str, seed: int) -> list[tuple[bytes, bytes]]:
    seeds = TARGETS[target].seeds()
    if not seeds:
        pytest.skip(f"no seeds for {target!r} (corpus or fixtures absent)")
    rng = random.Random(seed)
    out = []
    for _ in range(CASES):
        original = rng.choice(seeds)
        out.append((original, mutate(original, rng, seeds)))
    return out


Build = Callable[[Path, bytes, bytes, str], list[str]]


def _parse(d: Path, original: bytes, mutated: bytes, fmt: str) -> list[str]:
    (d / "t.txt").write_bytes(mutated)
    return ["parse", "t.txt", "--format", "json" if fmt == "json" else "text"]


def _lint(d: Path, original: bytes, mutated: bytes, fmt: str) -> list[str]:
    (d / "t.txt").write_bytes(mutated)
    return ["lint", "t.txt", "--format", fmt]


def _diff(d: Path, original: bytes, mutated: bytes, fmt: str) -> list[str]:
    (d / "before.txt").write_bytes(original)
    (d / "after.txt").write_bytes(mutated)
    return ["diff", "before.txt", "after.txt", "--format", fmt, "--application-id", "app"]


def _snapshot(d: Path, original: bytes, mutated: bytes, fmt: str) -> list[str]:
    folder = d / "captures"
    shutil.copytree(SNAPSHOT_DIR, folder)
    victim = sorted(folder.iterdir())[len(mutated) % len(list(folder.iterdir()))]
    victim.write_bytes(mutated)
    return ["cluster", "snapshot", "captures", "-o", "snap.json"]


def _check_plan(d: Path, original: bytes, mutated: bytes, fmt: str) -> list[str]:
    (d / "plan.yaml").write_bytes(mutated)
    return ["cluster", "check", "--snapshot", str(SNAPSHOT_YAML), "--plan", "plan.yaml",
            "--format", fmt]  # fmt: skip


def _check_snapshot(d: Path, original: bytes, mutated: bytes, fmt: str) -> list[str]:
    (d / "snap.yaml").write_bytes(mutated)
    (d / "plan.yaml").write_text("- rolling-restart: {}\n", encoding="utf-8")
    return ["cluster", "check", "--snapshot", "snap.yaml", "--plan", "plan.yaml", "--format", fmt]


COMMANDS: dict[str, tuple[str, Build]] = {
    "parse": ("topology", _parse),
    "lint": ("topology", _lint),
    "diff": ("topology", _diff),
    "cluster-snapshot": ("cluster-output", _snapshot),
    "cluster-check-plan": ("plan", _check_plan),
    "cluster-check-snapshot": ("snapshot", _check_snapshot),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_cli_on_mutated_input_exits_0_1_or_2_without_traceback(
    command: str, tmp_path: Path
) -> None:
    target, build = COMMANDS[command]
    runner = CliRunner()
    for n, (original, mutated) in enumerate(_cases(target, seed=sum(map(ord, command)))):
        work = tmp_path / f"case-{n}"
        work.mkdir()
        with contextlib.chdir(work):  # no config file of ours above the inputs
            args = build(work, original, mutated, FORMATS[n % len(FORMATS)])
            _check(runner.invoke(ksafe, args), args)


@settings(max_examples=12)
@given(versions(), st.sampled_from(FORMATS))
def test_cli_lint_and_diff_of_generated_versions(
    pair: tuple[Description, Description], fmt: str
) -> None:
    """Valid but odd inputs (PAPI names with spaces, quotes, ``<``/``&``, patterns, extractors)
    go all the way through the rules and every renderer."""
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        before, after = Path(tmp, "before.txt"), Path(tmp, "after.txt")
        before.write_text(render(pair[0]), encoding="utf-8")
        after.write_text(render(pair[1]), encoding="utf-8")
        for args in (
            ["lint", str(after), "--format", fmt, "--fail-on", "info"],
            ["diff", str(before), str(after), "--format", fmt, "--application-id", "a<b>&c"],
        ):
            result = runner.invoke(ksafe, args)
            _check(result, args)
            assert result.exit_code in (0, 1), result.output
            if fmt in ("json", "sarif"):
                json.loads(result.stdout)
