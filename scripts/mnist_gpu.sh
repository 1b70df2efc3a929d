#!/usr/bin/env bash
# The MNIST column at full fidelity on a GPU (issue 23, item 5): one call of
# a device machine, resumable across calls and sessions.  Never run by the
# tests or the default commands.  docs/replication/mnist/README.md, "The
# full-fidelity column on a GPU", says how to call it; in short, from the
# repository root of the device machine:
#
#   bash scripts/mnist_gpu.sh SECONDS [--first]
#
# runs the 5x2 BCV and hold-out tests (n = 10,000, 250 epochs, 100
# repetitions) for at most SECONDS, resuming the store in $RUN, and copies
# the store and its report to $OUT (the device tool's folder that comes
# back).  --first (the first call on a machine image): before the run,
# the core tests under this interpreter (its numpy, scipy and pandas may be
# newer than Debian's; a failure stops the call) and the batched trainer's
# timing (benchmarks/cnn.py, one epoch).  The interpreter is $PYBCV_PYTHON
# (default python3: on the device machine the one with a CUDA build of
# PyTorch); pybcv runs from this checkout (PYTHONPATH), MNIST from
# $PYBCV_DATA (default .mnist, carried: .mnist/mnist/mnist.npz).
#
#   bash scripts/mnist_gpu.sh --smoke
#
# checks the same steps here on the CPU at a toy size (n = 200, one epoch,
# 2 repetitions, a temporary store, one test file's worth of self-test).
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
out="${OUT:-$(mktemp -d)}"

if [ "${1:-}" = --smoke ]; then
    device=cpu n=200 epochs=1 reps=2 budget=300 first=--first
    selftest=(tests/test_partitions.py -k named_design_sizes)   # the plumbing only
    tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
    run="$tmp/run"
    py="${PYBCV_PYTHON:-.venv/bin/python}"        # scripts/setup.sh's interpreter
else
    py="${PYBCV_PYTHON:-python3}"
    budget="${1:?usage: bash scripts/mnist_gpu.sh SECONDS [--first] | --smoke}"
    first="${2:-}"
    case "$first" in ""|--first) ;; *) echo "unknown option $first (--first or nothing)"; exit 2;; esac
    selftest=(tests/test_partitions.py tests/test_stats_examples.py tests/test_engine.py
              tests/test_store.py tests/test_seeds_batch.py tests/test_mnist.py)
    device=cuda n=10000 epochs=250 reps=100
    run="${RUN:-docs/replication/mnist/runs/h0_n10000_e250_cuda}"
    export PYBCV_DATA="${PYBCV_DATA:-$PWD/.mnist}"
fi

"$py" - "$device" <<'EOF' || exit 1
import sys
import numpy, torch
print(f"python {sys.version.split()[0]}, numpy {numpy.__version__}, torch {torch.__version__}")
if sys.argv[1] == "cuda":
    if not torch.cuda.is_available():
        sys.exit("no CUDA device visible to this torch: run where one is")
    print("device:", torch.cuda.get_device_name(0))
EOF

if [ "$first" = --first ]; then
    "$py" -m pytest -q -x -p no:cacheprovider "${selftest[@]}" > "$out/selftest.txt" 2>&1
    st=$?; tail -3 "$out/selftest.txt"
    [ "$st" = 0 ] || { echo "the tests fail under $py: see selftest.txt; no run"; exit 1; }
    "$py" benchmarks/cnn.py --device "$device" --n "$n" --folds 10 --epochs 1 --runs 1 \
        | tee "$out/cnn_bench.txt" || { echo "the trainer's benchmark failed"; exit 1; }
fi

# the tests of the committed CPU column (its archive says which)
tests=$("$py" -c "from pybcv.engine import archive
print(','.join(archive.read_run('docs/replication/mnist/runs/h0_n1000_e5')['results']))") || exit 1
resume=(); [ -f "$run/results.sqlite" ] && resume=(--resume)
mkdir -p "$run"
a="cnn:epochs=$epochs,device=$device,batch_folds=10"
b="cnn-dropout:rate=0,epochs=$epochs,device=$device,batch_folds=10"
# SIGINT at the budget: the run stores what finished and stops (timeout's
# exit 124); killed a minute later if it has not (a call stuck on the device)
timeout -k 60 -s INT "$budget" "$py" -m pybcv simulate --dataset mnist --n "$n" \
    --a "$a" --b "$b" --tests "$tests" --seed 0 --reps "$reps" --out "$run" \
    ${resume[@]+"${resume[@]}"} --quiet
rc=$?
"$py" -m pybcv report "$run" > "$out/report.md" 2>&1
head -40 "$out/report.md"
cp "$run/results.sqlite" "$out/" || { echo "no store to bring back (simulate exit $rc)"; exit 1; }
echo "store and report in $out (simulate exit $rc)"
[ "$rc" = 0 ] || [ "$rc" = 124 ] || [ "$rc" = 130 ]
