"""User configuration: ``[tool.ksafe]`` in ``pyproject.toml``, or a ``ksafe.toml``.

Found by walking up from the current directory (``--config`` names a file instead). Relative
paths and globs in it are relative to the file's directory. Unknown keys, unknown rules and bad
values are :class:`ConfigError` s that say ``path:line``: ``tomllib`` keeps no positions, so
:func:`locate` finds a key's line with a small scan of the text.

Reference (``ksafe.toml`` spells the same keys at top level)::

    [tool.ksafe]
    select = ["KS201", "store-removed"]     # rule ids or names; default: all
    ignore = ["generated-processor-name"]
    fail-on = "warning"                     # error (default) | warning | info | never
    application-id = "orders"               # default for topology checks
    snapshot = "cluster/prod-snapshot.json" # default for cluster checks
    topologies = ["topology/*.txt"]         # the apps' describe() files, for cluster checks
                                            # (app id: its [[paths]] application-id, else stem)
    git-base = "origin/main"                # pre-commit --all-files: diff from the merge-base

    [tool.ksafe.severity]                   # per-rule severity overrides
    generated-processor-name = "info"

    [[tool.ksafe.paths]]                    # settings for files matching a glob (later wins)
    path = "topology/orders-*.txt"          # gitignore-style, from the config's directory
    application-id = "orders"
    properties = "config/orders.properties" # Streams config before and after...
    properties-before = "..."               # ...or each side on its own
    properties-after = "..."
    snapshot = "cluster/prod-snapshot.json" # for plans matching the glob

    [[tool.ksafe.acknowledgements]]
    fingerprint = "9c1d0e6f2a3b4c5d"        # or: rule = "store-renamed" (+ resource = "counts")
    path = "topology/orders-app.txt"        # optional glob scoping the entry
    reason = "state rebuilt from the changelog during the 2026-05 migration"
    expires = 2026-09-30                    # optional
"""

from linter.config.lines import key_lines
from linter.config.loading import find_config, load_config, parse_config
from linter.config.model import (
    ALLOW_OUTSIDE_FLAG,
    CONFIG_NAMES,
    FAIL_ON,
    Config,
    ConfigError,
    PathSettings,
    resolve_rules,
)

__all__ = [
    "ALLOW_OUTSIDE_FLAG",
    "CONFIG_NAMES",
    "FAIL_ON",
    "Config",
    "ConfigError",
    "PathSettings",
    "find_config",
    "key_lines",
    "load_config",
    "parse_config",
    "resolve_rules",
]
