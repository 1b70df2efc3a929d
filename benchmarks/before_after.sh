#!/usr/bin/env bash
# The engine's whole commands in two checkouts, alternating in every round
# (benchmarks/engine_results.md, "Start-up, seeding, scoring and the allocator"):
#   bash benchmarks/before_after.sh OLD_TREE NEW_TREE [ROUNDS]
# e.g. git worktree add /tmp/old cdbe6e1 && bash benchmarks/before_after.sh /tmp/old "$PWD" 5
# Prints: round, tree, data set, wall s, user s, sys s, minor page faults.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old="$(cd "$1" && pwd)"; new="$(cd "$2" && pwd)"; rounds="${3:-5}"
py="$here/.venv/bin/python"
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
for t in "$old" "$new"; do "$py" -m compileall -q "$t/pybcv"; done
cd "$out"
for round in $(seq 1 "$rounds"); do
  order=("$old" "$new"); [ $((round % 2)) = 0 ] && order=("$new" "$old")
  for t in "${order[@]}"; do
    for ds in epsilon simple; do
      args=(--reps 1000); [ "$ds" = simple ] && args=(--reps 200 --backend python)
      rm -rf run
      /usr/bin/time -f "$round $t $ds %e %U %S %R" env PYTHONPATH="$t" "$py" -m pybcv simulate \
        --dataset "$ds" --tests table5 "${args[@]}" --out run --quiet 2>&1 >/dev/null | tail -1
    done
  done
done
