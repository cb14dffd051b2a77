"""What the checks raise for bad input, from light modules only: the command line catches these
before it knows which check will run, and must not load every check to do so."""

from __future__ import annotations

from cluster_engine.errors import ClusterInputError
from linter.config import ConfigError
from linter.gitbase import GitError
from linter.inputs import MalformedInput
from linter.topology.errors import StreamsConfigError, TopologyParseError

__all__ = ["INPUT_ERRORS", "UsageProblem"]

# Each is reported as one located line and exit 2, never a traceback.
INPUT_ERRORS: tuple[type[Exception], ...] = (
    TopologyParseError,
    StreamsConfigError,
    ClusterInputError,
    ConfigError,
    GitError,
    MalformedInput,
)


class UsageProblem(Exception):
    """The inputs and the configuration together do not say what to check (a missing
    snapshot, a glob that matches nothing): the command line's to report as a usage error."""
