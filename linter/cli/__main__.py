"""``python -m linter.cli``: the same entry point as the ``ksafe`` script."""

from __future__ import annotations

import sys

from linter.cli import main

if __name__ == "__main__":
    sys.exit(main())
