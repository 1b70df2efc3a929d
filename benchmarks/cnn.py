"""How to train the folds of a design: one at a time, stacked (``batch_folds``),
or one process per core.

    nice -n 19 .venv/bin/python benchmarks/cnn.py [--folds 4] [--n 1000] [--epochs 2]

Trains ``--folds`` folds of the 5x2 BCV design (training size n/2) of the
``cnn-dropout`` learner (rate 0.2) on an MNIST data set of size n, with
one torch thread per process, and prints wall-clock and CPU seconds per
fit of each way, plus whether the predictions agree with the one-at-a-time
path.  On a shared machine the wall clock includes other users' load: the
CPU seconds of this process (and its workers) are the fairer figure.
Results: ``benchmarks/cnn_results.md``.
"""
from __future__ import annotations

import argparse
import os
import resource
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from pybcv import mnist, seeds
from pybcv.learners.cnn import CNNDropout
from pybcv.partitions import DESIGNS


def _cpu():
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def _work(args):
    X, y, splits, epochs, batch_folds = args
    return CNNDropout(rate=0.2, epochs=epochs, batch_folds=batch_folds).predict_splits(X, y, splits)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds", type=int, default=4)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--processes", type=int, default=2)
    a = ap.parse_args()
    d = mnist.mnist(seeds.data_seq(0, 0), a.n)
    splits = DESIGNS["bcv5x2"].splits(a.n, seeds.rng(seeds.design_seq(0, 0, "bcv5x2")))[:a.folds]
    print(f"{a.folds} folds, train {len(splits[0][0])}, {a.epochs} epochs, "
          f"cpu count {os.cpu_count()}, load {os.getloadavg()[0]:.1f}")
    ref = None
    for label, how in [("one fold at a time", "serial"), (f"stacked ({a.folds} folds)", "stacked"),
                       (f"{a.processes} processes, one fold each", "processes")]:
        t0, c0 = time.perf_counter(), _cpu()
        if how == "serial":
            pred = _work((d.X, d.y, splits, a.epochs, 1))
        elif how == "stacked":
            pred = _work((d.X, d.y, splits, a.epochs, a.folds))
        else:
            with ProcessPoolExecutor(a.processes) as ex:
                parts = list(ex.map(_work, [(d.X, d.y, [sp], a.epochs, 1) for sp in splits]))
            pred = [p[0] for p in parts]
        wall, cpu = time.perf_counter() - t0, _cpu() - c0
        if ref is None:
            ref = pred
        agree = np.mean(np.concatenate([p == q for p, q in zip(pred, ref)]))
        print(f"{label:32s} wall {wall / a.folds:6.2f} s/fit   cpu {cpu / a.folds:6.2f} s/fit   "
              f"labels equal to one-at-a-time: {agree:.4f}", flush=True)


if __name__ == "__main__":
    main()
