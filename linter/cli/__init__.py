"""The ``ksafe`` command. Thin: parse arguments, call the library, render, choose the exit code.

Each command family lives in its own module, imported when its command runs (see
:mod:`linter.cli.group`); this file only declares the group.
"""

from __future__ import annotations

import click

from linter.cli.group import KsafeGroup

# linter.config.ALLOW_OUTSIDE_FLAG, spelled out: importing the configuration would import the
# rules (a test holds the two equal)
ALLOW_OUTSIDE_FLAG = "--allow-outside-config-paths"


@click.group(cls=KsafeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ksafe", prog_name="ksafe")
@click.option(
    ALLOW_OUTSIDE_FLAG,
    "allow_outside_config_paths",
    is_flag=True,
    help="Let paths in the configuration file (snapshot, properties) lead outside the "
    "directory holding it; without this they must stay inside.",
)
def ksafe(allow_outside_config_paths: bool) -> None:
    """Check, before you deploy, whether a Kafka change is safe.

    Kafka Streams topology upgrades (parse, lint, diff) and KRaft cluster change plans
    (cluster snapshot, cluster check). Exit codes: 0 nothing at or above --fail-on,
    1 findings at or above it, 2 usage or input error.
    """


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code instead of raising ``SystemExit``."""
    try:
        ksafe.main(args=argv, prog_name="ksafe", standalone_mode=True)
    except SystemExit as exit_:
        code = exit_.code
        return code if isinstance(code, int) else (0 if code is None else 2)
    return 0
