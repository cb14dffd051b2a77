#!/usr/bin/env bash
# The whole test suite, as CI runs it: set-up, then lint, types, layers and tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PYSPARK_PYTHON="${PYSPARK_PYTHON:-$(command -v python3)}"
echo "== ruff";          python3 -m ruff check .
echo "== mypy";          python3 -m mypy
echo "== import-linter"; lint-imports
echo "== lower bounds";  bash scripts/lower-bounds.sh
echo "== pytest";        python3 -m pytest -m "" "$@"
