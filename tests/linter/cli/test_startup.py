"""``ksafe --version`` and ``--help`` import no model, rule, parser or cluster engine; the
group's help lists every command from its summary table; a closed pipe ends a run quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from linter.cli import ALLOW_OUTSIDE_FLAG, ksafe
from linter.cli.group import COMMANDS, EXIT_BROKEN_PIPE, load_command

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("rules", "cluster_engine", "lark", "pydantic", "linter.api", "linter.topology")


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
        cwd=ROOT, check=False, timeout=120,
    )


@pytest.mark.parametrize("argv", [[], ["--version"], ["--help"]], ids=str)
def test_the_group_imports_nothing_heavy(argv: list[str]) -> None:
    program = (
        "import sys\n"
        "import linter.cli\n"
        "if sys.argv[1:]:\n"
        "    linter.cli.main(sys.argv[1:])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in {'rules', 'cluster_engine',"
        " 'lark', 'pydantic'} or m.startswith(('linter.api', 'linter.topology')))\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    done = _python(program, *argv)
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stderr, done.stderr
    if argv == ["--help"]:
        assert all(name in done.stdout for name in COMMANDS)


def test_a_command_still_imports_what_it_needs() -> None:
    done = _python(
        "import sys, linter.cli\nlinter.cli.main(['rules', '--format', 'json'])\n"
        "print('rules.catalogue' in sys.modules, file=sys.stderr)"
    )
    assert done.stdout.startswith("[")
    assert done.stderr.strip().endswith("True")


EXAMPLES = ROOT / "fixtures" / "examples"
SNAPSHOTS = ROOT / "fixtures" / "cluster" / "snapshots"
PLANS = ROOT / "fixtures" / "cluster" / "plans"
CLUSTER_SIDE = ("cluster_engine.ingest", "cluster_engine.plan", "cluster_engine.simulate",
                "cluster_engine.snapshot", "rules.cluster")


@pytest.mark.parametrize(
    ("argv", "absent"),
    [
        # a topology check never loads the cluster engine (nor does a fleet worker: same door);
        # its exception classes (cluster_engine.errors) are all a topology command needs of it
        (["diff", str(EXAMPLES / "word-count-v1.txt"), str(EXAMPLES / "word-count-v2.txt")],
         CLUSTER_SIDE),
        (["lint", str(EXAMPLES / "word-count-v1.txt")], CLUSTER_SIDE),
        # a snapshot reads captures: no parser, no rule, no simulator, no glob library
        (["cluster", "snapshot", str(SNAPSHOTS / "three-brokers")],
         ("lark", "linter.topology.parse", "rules.topology", "rules.cluster",
          "cluster_engine.simulate", "pathspec")),
        # a plan check without topologies: no describe() parser, no topology or fleet rule
        (["cluster", "check", "--snapshot", str(SNAPSHOTS / "three-brokers"),
          "--plan", str(PLANS / "risky-maintenance.yml")],
         ("lark", "linter.topology.parse", "linter.topology.streams_config", "rules.topology",
          "rules.fleet", "linter.lineage", "linter.api.checks", "pathspec")),
    ],
    ids=["diff", "lint", "cluster-snapshot", "cluster-check"],
)
def test_a_command_imports_only_its_own_side(argv: list[str], absent: tuple[str, ...]) -> None:
    program = (
        "import sys, linter.cli\n"
        "try:\n"
        "    linter.cli.main(sys.argv[1:])\n"
        "except SystemExit as done:\n"
        "    print('EXIT', done.code, file=sys.stderr)\n"
        f"loaded = sorted(m for m in sys.modules if m.startswith({absent!r}))\n"
        "print('LOADED', loaded, file=sys.stderr)\n"
    )
    done = _python(program, *argv, "-q")
    assert "EXIT 2" not in done.stderr, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout, done.stderr  # the command ran: its report or snapshot
    assert "LOADED []" in done.stderr, done.stderr


def test_summaries_in_the_table_are_the_commands_own() -> None:
    for name, entry in COMMANDS.items():
        command = load_command(name)
        for width in (30, 60, 200):
            # the summary as click cuts a command's help (its own helper is deprecated)
            stand_in = click.Command(name, help=entry.summary)
            assert stand_in.get_short_help_str(width) == command.get_short_help_str(width), name


def test_help_lists_every_command() -> None:
    with click.Context(ksafe) as ctx:
        assert ksafe.list_commands(ctx) == sorted(COMMANDS)
        assert all(ksafe.get_command(ctx, name) is not None for name in COMMANDS)
        assert ksafe.get_command(ctx, "nonsense") is None


def test_the_allow_outside_flag_is_the_configuration_s() -> None:
    from linter.config import ALLOW_OUTSIDE_FLAG as configured

    assert configured == ALLOW_OUTSIDE_FLAG


@pytest.mark.parametrize("command", [["rules"], ["explain", "KS201"], ["schema", "config"]])
def test_a_closed_pipe_ends_the_run_quietly(command: list[str]) -> None:
    """``ksafe rules | head -1``: the reader has gone before ksafe writes (its end of the pipe
    closed first, so the outcome does not depend on timing)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "linter.cli", *command], stdout=write_end,
            stderr=subprocess.PIPE, env=env, cwd=ROOT, check=False, timeout=120,
        )
    finally:
        os.close(write_end)
    assert done.stderr.decode() == ""
    assert done.returncode == EXIT_BROKEN_PIPE
