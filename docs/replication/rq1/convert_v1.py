"""Convert RQ1's first archive format (``rq1.npz``, format ``pybcv-rq1-archive``
version 1, written by the RQ1 runner that ``pybcv/rq1.py`` held until the
experiment became the engine's record ``rq1``) into one engine archive per
data set (``runs/<dataset>/run.npz``, :mod:`pybcv.engine.archive`).

Kept bit for bit: every repetition's 21 fold tables, its seconds (float64)
and backend string, failed repetitions with their error text.  Added: the
record's configuration (the old ``config.json`` translated: seed, n_sample,
backend, the seven learners with kknn's parameters and majority/mean in
Python) and the 5x2 BCV McNemar test of every pair, scored from the tables
(as a run of the engine scores them), fits 70 per repetition (7 learners x
10 folds).  Repetitions are stored in ascending order (the old store kept
them in the order they finished).

Usage::

    .venv/bin/python docs/replication/rq1/convert_v1.py OLD.npz OUT_FOLDER

Checked by tests/test_rq1.py (the committed runs are this script's output,
byte for byte, and rho.csv regenerated from them is byte-identical).
"""
from __future__ import annotations

import json
import os
import sys

import numpy as np

from pybcv.engine import archive
from pybcv.engine.config import RunConfig, score
from pybcv.experiments import EXPERIMENTS

V1_LEARNERS = ["majority", "mean", "Logistic", "SMO", "JRip", "J48", "kknn"]


def read_v1(path: str):
    """(config dict, {dataset: [row]}) of a version-1 archive, rows in
    archive order: {rep, seconds, backend, error, tables (21, F, 2, 2) or None}."""
    z = archive.read_npz(path)
    meta = json.loads(z["meta"].tobytes().decode())
    if meta.get("format") != "pybcv-rq1-archive" or meta.get("version") != 1:
        raise ValueError(f"{path}: not an RQ1 archive of version 1")
    if meta["learners"] != V1_LEARNERS:
        raise ValueError(f"{path}: learners {meta['learners']}")
    pairs = np.array(meta["pairs"])
    wrong = z["wrong"].astype(np.int64)                 # (7, N, F)
    eA, eB = wrong[pairs[:, 0]], wrong[pairs[:, 1]]     # (21, N, F)
    n00 = np.minimum(eA, eB) - z["gap"].astype(np.int64)
    n11 = z["n_test"].astype(np.int64)[None] - eA - eB + n00
    T = np.stack([np.stack([n00, eA - n00], -1), np.stack([eB - n00, n11], -1)], -2)
    T = T.transpose(1, 0, 2, 3, 4).copy()               # (N, 21, F, 2, 2)
    T[z["full_index"].astype(np.int64)] = z["full_tables"]
    data, start = {}, 0
    for d, count in zip(meta["datasets"], meta["counts"]):
        data[d] = [{"rep": int(z["rep"][k]), "seconds": float(z["seconds"][k]),
                    "backend": meta["backends"][int(z["backend"][k])],
                    "error": meta["errors"][int(z["error"][k])],
                    "tables": None if z["failed"][k] else T[k]}
                   for k in range(start, start + count)]
        start += count
    return json.loads(meta["config_json"]), data


def config_of(old: dict, dataset: str) -> RunConfig:
    """The record ``rq1``'s configuration of one data set of an old run."""
    record = EXPERIMENTS["rq1"]
    want = [{"name": x, **old["learner_params"].get(x, {})} for x in old["learners"]]
    have = [{k: v for k, v in x.items() if k not in ("backend", "one_hot")}
            for x in record.learners]
    python = [x["name"] for x in record.learners if x.get("backend") == "python"]
    if want != have or old["python_learners"] != python or old["design"] != "bcv5x2":
        raise ValueError("the old run's learners or design differ from the record rq1's")
    return RunConfig("rq1", record.tests, seed=old["seed"], n=old["n_sample"],
                     data_params={"file": dataset}, backend=old["backend"])


def convert(path: str, out: str, datasets=None) -> dict:
    """Write ``out/<dataset>/run.npz`` for each data set of the version-1
    archive ``path``; returns {dataset: archive path}."""
    old, data = read_v1(path)
    written = {}
    for d in datasets or list(data):
        cfg = config_of(old, d)
        rows = sorted(data[d], key=lambda row: row["rep"])
        ok = [row for row in rows if row["tables"] is not None]
        unit = cfg.units()[0][0]
        tables = {f"{unit}@{p}": np.stack([row["tables"][k] for row in ok]).astype(np.int32)
                  for k, (_, _, p) in enumerate(cfg.pairs())} if ok else {}
        results, _ = score(cfg, tables) if ok else ({k: ([], []) for k in cfg.keys()}, None)
        fits = len(cfg.learners) * len(ok[0]["tables"][0]) if ok else 0
        info = [(row["rep"], row["seconds"], fits, 0, row["backend"]) for row in ok]
        failures = [{"rep": row["rep"], "learner": None, "design": None, "fold": None,
                     "message": row["error"]} for row in rows if row["tables"] is None]
        folder = os.path.join(out, d)
        written[d] = archive.write_run(folder, cfg.identity(), [row["rep"] for row in ok],
                                       results, tables, info, reps_target=len(rows),
                                       failures=failures)
        back = archive.read_run(folder)           # the archive must give back every bit
        same = (back["reps"].tolist() == [row["rep"] for row in ok]
                and all(np.array_equal(np.stack([back["tables"][f"{unit}@{p}"][i]
                                                 for _, _, p in cfg.pairs()]), row["tables"])
                        and np.float64(back["rep_info"][i][1]).tobytes()
                        == np.float64(row["seconds"]).tobytes()
                        and back["rep_info"][i][4] == row["backend"] for i, row in enumerate(ok))
                and back["failures"] == failures)
        if not same:
            raise ValueError(f"{written[d]} does not reproduce data set {d} of {path}")
    return written


if __name__ == "__main__":
    for d, p in convert(sys.argv[1], sys.argv[2]).items():
        print(d, p, os.path.getsize(p))
