#!/bin/sh
# The CPU replication of the MNIST column (type I error, dropout rate 0 = H0).
# Resumable: rerunning skips the repetitions already in the folder.
# Run from the repository root; one process, one torch thread, lowest priority.
set -e
OUT=docs/replication/mnist/runs/h0_n1000_e5
nice -n 19 .venv/bin/python -m pybcv.mnist simulate --out "$OUT" \
    --reps 100 --n 1000 --epochs 5 --rate 0 \
    --tests mcnemar_5x2bcv,calibrated_f_5x2bcv,mcnemar_ho,proportion_z --seed 0
