#!/usr/bin/env bash
# The Weka helper (java/src) as R/inst/java/pybcv-weka.jar -- the one place
# the R package, the embedded-R bridge and the wheel load it from (rJava
# packages ship their jars in inst/java).  Compiled against RWekajars' own
# weka.jar; rebuilt only when java/src or weka.jar changed (stamp in
# build/java).  Needs a JDK (javac, jar) and the R package RWekajars.
# Exit status 0 when the jar is there afterwards, 1 (with the reason) if not.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
log() { printf '[build_java] %s\n' "$*" >&2; }
jar_out=R/inst/java/pybcv-weka.jar
stamp=build/java/.sources.sha256

for tool in javac jar Rscript; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    log "$tool not found: cannot build $jar_out (Debian: default-jdk-headless r-base-core)"
    exit 1
  fi
done
wekajar=$(Rscript -e 'cat(system.file("java", "weka.jar", package = "RWekajars"))' 2>/dev/null || true)
if [ -z "$wekajar" ] || [ ! -f "$wekajar" ]; then
  log "RWekajars' weka.jar not found: cannot build $jar_out (R: install.packages(\"RWeka\"))"
  exit 1
fi
mapfile -t jsrc < <(find java/src -name '*.java' | LC_ALL=C sort)
jsum=$( { sha256sum "${jsrc[@]}"; sha256sum "$wekajar"; } | sha256sum | cut -d' ' -f1)
if [ -f "$jar_out" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$jsum" ]; then
  log "$jar_out up to date"
  exit 0
fi
log "compiling java/src against $wekajar into $jar_out"
rm -rf build/java && mkdir -p build/java/classes "$(dirname "$jar_out")"
# --release 8: the jar runs on any JVM rJava may start (Java 8 and later)
javac -nowarn -encoding UTF-8 --release 8 -d build/java/classes -cp "$wekajar" "${jsrc[@]}" 2>/dev/null \
  || javac -nowarn -encoding UTF-8 -d build/java/classes -cp "$wekajar" "${jsrc[@]}"
jar cf "$jar_out" -C build/java/classes .
echo "$jsum" > "$stamp"
