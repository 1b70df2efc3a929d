#!/usr/bin/env bash
# The R package's tarball, built and checked:
#   bash scripts/build_r.sh [OUTDIR]          (default: dist)
# 1. the Weka helper jar into R/inst/java (scripts/build_java.sh), so the
#    tarball carries the fast path as rJava packages carry their jars;
# 2. R CMD build R (runs the vignette: needs the .venv of scripts/setup.sh,
#    found through PYBCV_PYTHON);
# 3. R CMD check --as-cran on the tarball, offline (no CRAN incoming or
#    orphaned-package look-ups).
# Prints the check's Status line; exit status 1 on an ERROR or a WARNING.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
out="$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)"
bash scripts/build_java.sh
export PYBCV_PYTHON="${PYBCV_PYTHON:-$here/.venv/bin/python}"
cd "$out"
rm -f pybcv_*.tar.gz
R CMD build "$here/R" >&2
tarball=$(ls pybcv_*.tar.gz)
export _R_CHECK_CRAN_INCOMING_REMOTE_=false _R_CHECK_CRAN_INCOMING_=false \
       _R_CHECK_FORCE_SUGGESTS_=false _R_CHECK_SYSTEM_CLOCK_=0 _R_CHECK_ORPHANED_=false
R CMD check --as-cran --no-manual "$tarball" > check.log 2>&1 || true
status=$(grep -E "^Status:" pybcv.Rcheck/00check.log || echo "Status: no status line")
echo "$out/$tarball: $status"
if grep -qE "^Status:.*(ERROR|WARNING)" pybcv.Rcheck/00check.log || ! grep -q "^Status:" pybcv.Rcheck/00check.log; then
  grep -B2 -A12 -E "\.\.\. (ERROR|WARNING)" pybcv.Rcheck/00check.log >&2 || tail -40 check.log >&2
  exit 1
fi
