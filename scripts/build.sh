#!/usr/bin/env bash
# Build the sdist and the wheel into dist/ and check their metadata:
#   bash scripts/build.sh [OUTDIR]        (default: dist)
# The Weka helper jar is built first (scripts/build_java.sh) so that both
# carry it; `python -m build` runs without isolation (Debian's setuptools,
# no package index needed).  Then `twine check` (Debian: twine) reads the
# metadata as PyPI would.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
py=/usr/bin/python3
out="${1:-dist}"
bash scripts/build_java.sh || echo "[build] no Weka helper jar: see above" >&2
mkdir -p "$out"
rm -rf "$out"/pybcv-*.whl "$out"/pybcv-*.tar.gz build/lib build/bdist.*
$py -m build --no-isolation --outdir "$out" . >&2
if command -v twine >/dev/null 2>&1; then
  twine check --strict "$out"/pybcv-*
else
  echo "[build] twine missing (Debian: apt-get install twine): metadata not checked" >&2
  exit 1
fi
ls "$out"/pybcv-*
