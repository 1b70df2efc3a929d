"""The folds of a design trained one at a time or together (``batch_folds``),
and one process per core.

    nice -n 19 .venv/bin/python benchmarks/cnn.py [--folds 10] [--n 1000] [--epochs 1] \\
        [--runs 3] [--processes 0] [--device cpu]

Trains ``--folds`` folds of the 5x2 BCV design (training size n/2) of the
``cnn-dropout`` learner (rate 0.2) on an MNIST data set of size n, one torch
thread per process, ``--runs`` times each way (interleaved), and prints the
wall-clock and CPU seconds per fit (min / median / max over the runs) and
whether each way's predictions equal the one-at-a-time path's.  On a shared
machine the wall clock includes other users' load: the CPU seconds of this
process (and its workers) are the fairer figure.  ``--device cuda`` measures
a GPU (never the default).  Results: ``benchmarks/cnn_results.md``.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from pybcv import seeds
from pybcv.datasets import mnist
from pybcv.learners.cnn import CNNDropout
from pybcv.partitions import DESIGNS


def _cpu():
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def _work(args):
    X, y, splits, epochs, batch_folds, device = args
    return CNNDropout(rate=0.2, epochs=epochs, batch_folds=batch_folds,
                      device=device).predict_splits(X, y, splits)


def _spread(v):
    return f"{min(v):6.2f} / {statistics.median(v):6.2f} / {max(v):6.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--processes", type=int, default=0,
                    help="also time this many processes, one fold each (0: not)")
    ap.add_argument("--device", default="cpu")
    a = ap.parse_args()
    d = mnist(seeds.data_seq(0, 0), a.n)
    splits = DESIGNS["bcv5x2"].splits(a.n, seeds.rng(seeds.design_seq(0, 0, "bcv5x2")))[:a.folds]
    print(f"{a.folds} folds, train {len(splits[0][0])}, {a.epochs} epochs, device {a.device}, "
          f"cpu count {os.cpu_count()}, load {os.getloadavg()[0]:.1f}, {a.runs} runs")
    ways = [("one fold at a time", 1), (f"together ({a.folds} folds)", a.folds)]
    if a.processes:
        ways.append((f"{a.processes} processes, one fold each", None))
    times = {w: ([], []) for w, _ in ways}
    ref, equal = None, {w: True for w, _ in ways}
    for _ in range(a.runs):
        for label, bf in ways:
            t0, c0 = time.perf_counter(), _cpu()
            if bf is None:
                with ProcessPoolExecutor(a.processes) as ex:
                    parts = list(ex.map(_work, [(d.X, d.y, [sp], a.epochs, 1, a.device)
                                                for sp in splits]))
                pred = [p[0] for p in parts]
            else:
                pred = _work((d.X, d.y, splits, a.epochs, bf, a.device))
            times[label][0].append((time.perf_counter() - t0) / a.folds)
            times[label][1].append((_cpu() - c0) / a.folds)
            ref = pred if ref is None else ref
            equal[label] &= all(np.array_equal(p, q) for p, q in zip(pred, ref))
    print(f"{'way':34s} {'wall s/fit min/median/max':>26s}   {'CPU s/fit min/median/max':>26s}"
          f"   predictions identical")
    for label, _ in ways:
        wall, cpu = times[label]
        print(f"{label:34s} {_spread(wall):>26s}   {_spread(cpu):>26s}   {equal[label]}")


if __name__ == "__main__":
    main()
