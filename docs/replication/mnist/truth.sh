#!/bin/sh
# True error rates at the replication's reduced setting (training size 500 =
# a 5x2 fold of n = 1000, 5 epochs): 3 data sets, error on a fixed random
# 10,000 of the 60,000 population images.  Paper: 100 data sets of 10,000,
# 250 epochs, all 60,000 images.
set -e
nice -n 19 .venv/bin/pybcv truth --dataset mnist --train-n 500 --grid 0,0.2,0.4 \
    --sets 3 --eval-size 10000 --seed 0 --out docs/replication/mnist/truth_n500_e5.json
