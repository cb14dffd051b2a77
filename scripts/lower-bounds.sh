#!/usr/bin/env bash
# The declared floors hold: installs ksafe with every core dependency at exactly its lower bound
# (`name>=X` in pyproject.toml becomes `name==X`) into a throwaway virtualenv, and runs the CLI
# tests there. A dependency without a `>=` floor fails the check. Needs the package index.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(mktemp -d "${TMPDIR:-/tmp}/ksafe-lower-bounds.XXXXXX")"
trap 'rm -rf "$venv"' EXIT
pins="$(python3 - <<'PY'
import re, sys, tomllib
deps = tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]
for dep in deps:
    found = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*>=\s*([0-9][^,;\s]*)\s*", dep)
    if not found:
        sys.exit(f"lower-bounds: {dep!r} declares no plain '>=' floor")
    print(f"{found[1]}=={found[2]}")
PY
)"
python3 -m venv "$venv"
pip() { "$venv/bin/python" -m pip --quiet --disable-pip-version-check "$@"; }
# shellcheck disable=SC2086  # one pin per word
pip install $pins pytest jsonschema hypothesis
pip install --no-deps .   # ksafe itself builds and installs with these
echo "lower-bounds: $(echo $pins)"
env -u PYTHONPATH "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/linter/cli
