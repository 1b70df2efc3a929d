#!/bin/sh
# Time R's compare_learners against Python's pybcv.compare on the same
# jobs (J48 vs kknn: iris with the Table-5 tests, iris and n = 20 with all 17
# tests; seed 0), alternating the two sides ROUNDS times, REPS runs each.
# Usage (repository root, package installed): sh R/tools/bench_compare.sh [REPS] [ROUNDS]
set -e
REPS=${1:-5}; ROUNDS=${2:-2}
PY=${PYBCV_PYTHON:-.venv/bin/python}
export PYBCV_PYTHON="$PY"
TMP=$(mktemp -d)
Rscript -e "write.csv(iris, '$TMP/iris.csv', row.names = FALSE)"
i=0
while [ $i -lt "$ROUNDS" ]; do
  "$PY" R/tools/bench_compare.py "$TMP/iris.csv" "$REPS"
  Rscript R/tools/bench_compare.R "$TMP/iris.csv" "$REPS"
  i=$((i + 1))
done
rm -rf "$TMP"
