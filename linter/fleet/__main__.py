"""Entry point for ``python -m linter.fleet`` and ``spark-submit``::

    python -m linter.fleet scan INPUT --out DIR [--master local[4]]
    spark-submit --master spark://host:7077 path/to/linter/fleet/__main__.py scan INPUT --out DIR

Same options as ``ksafe fleet scan``; under spark-submit the master is spark-submit's own unless
``--master`` is given.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from linter.cli import main as ksafe_main

    return ksafe_main(["fleet", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
