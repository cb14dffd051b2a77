#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh machine: ksafe with its dev and spark extras,
# a Java runtime for Spark (17+), and Debian's Chromium for the HTML report tests.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check -e '.[dev,spark]'

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }
apt_updated=""
apt_install() {
  [ -n "$apt_updated" ] || { as_root apt-get update -qq && apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

java_major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1; }
if ! command -v java >/dev/null || [ "$(java_major)" -lt 17 ] 2>/dev/null; then
  echo "setup: installing a Java 17 runtime for Spark" >&2
  apt_install openjdk-17-jre-headless || echo "setup: could not install Java; Spark tests will be skipped" >&2
fi

if ! command -v chromium >/dev/null; then
  echo "setup: installing Debian's Chromium for the HTML report tests" >&2
  apt_install chromium || echo "setup: could not install Chromium; browser tests will be skipped" >&2
fi
