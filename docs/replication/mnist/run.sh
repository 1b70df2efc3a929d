#!/bin/sh
# The CPU replication of the MNIST column (type I error, dropout rate 0 = H0),
# through the engine.  Resumable: the committed archive is first turned back
# into a store, the run continues, and the store is archived again (checked
# bit for bit).  Run from the repository root; one process, lowest priority.
set -e
OUT=docs/replication/mnist/runs/h0_n1000_e5
[ -f "$OUT/results.sqlite" ] || .venv/bin/pybcv archive unpack "$OUT"
nice -n 19 .venv/bin/pybcv simulate --dataset mnist --a cnn:epochs=5 --b cnn-dropout:rate=0,epochs=5 \
    --tests mcnemar_5x2bcv,calibrated_f_5x2bcv,mcnemar_ho,proportion_z --seed 0 \
    --reps 100 --out "$OUT" --resume --quiet
.venv/bin/pybcv archive convert --delete-sqlite "$OUT"
