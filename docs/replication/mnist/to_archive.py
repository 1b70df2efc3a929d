"""One-off conversion of the MNIST replication's per-repetition JSON files
(written by the former standalone driver ``python -m pybcv.mnist simulate``)
into the engine's run archive ``run.npz`` (:mod:`pybcv.engine.archive`), the
format of every other committed run; ``pybcv report`` and ``pybcv simulate
--resume`` (after ``pybcv archive unpack``) read it.

The configuration is the one ``pybcv simulate --dataset mnist --a cnn:epochs=5
--b cnn-dropout:rate=0,epochs=5 --tests <the four> --seed 0`` stores: that
command draws the same data sets, folds and fits
(tests/test_mnist.py::test_simulate_reproduces_the_committed_repetition_0).
Statistics, p-values and fold tables are copied bit for bit and checked.

    .venv/bin/python docs/replication/mnist/to_archive.py docs/replication/mnist/runs/h0_n1000_e5
"""
import glob
import json
import os
import sys

import numpy as np

from pybcv.engine import RunConfig, archive


def convert(folder: str) -> str:
    with open(os.path.join(folder, "config.json")) as f:
        ident = json.load(f)
    rows = []
    for path in sorted(glob.glob(os.path.join(folder, "rep*.json"))):
        with open(path) as f:
            rows.append(json.load(f))
    rows.sort(key=lambda r: r["rep"])
    cfg = RunConfig("mnist", ident["tests"], seed=ident["seed"], n=ident["n"],
                    learner_a={"name": "cnn", "epochs": ident["epochs"]},
                    learner_b={"name": "cnn-dropout", "rate": ident["rate"],
                               "epochs": ident["epochs"]})
    reps = [r["rep"] for r in rows]
    results = {k: (np.array([r["results"][k][0] for r in rows], np.float64),
                   np.array([r["results"][k][1] for r in rows], np.float64)) for k in cfg.tests}
    designs = rows[0]["designs"]
    tables = {d: np.array([r["tables"][d] for r in rows], np.int64) for d in designs}
    info = [(r["rep"], float(r["seconds"]), int(r["fits_a"]), int(r["fits_b"]), "python/python")
            for r in rows]
    path = archive.write_run(folder, cfg.identity(), reps, results, tables, info,
                             reps_target=len(rows))
    back = archive.read_run(folder)
    for k, (s, p) in results.items():
        assert np.array_equal(back["results"][k][0].view(np.uint64), s.view(np.uint64)), k
        assert np.array_equal(back["results"][k][1].view(np.uint64), p.view(np.uint64)), k
    for d, T in tables.items():
        assert np.array_equal(back["tables"][d], T), d
    return path


if __name__ == "__main__":
    for folder in sys.argv[1:]:
        print(convert(folder))
