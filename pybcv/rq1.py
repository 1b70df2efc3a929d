"""RQ1 of the paper: how are rho1 and rho2 distributed?

The experiment ([YWSL] section "Experiments for RQ1"): on each UCI data set,
``n_sample`` = 300 records are drawn without replacement, a 5x2 BCV
(partition design ``bcv5x2``) is run, and the seven learners (majority,
mean, RWeka Logistic, SMO, JRip, J48, kknn with k = 5 and the triangular
kernel) are compared pairwise (21 pairs); this is repeated ``reps`` times
and rho1, rho2 are estimated from the repetitions.  Each learner is fitted
ONCE per repetition (10 fits) and its predictions are shared by its six
pairs: 70 fits per repetition instead of 420.

Estimator (written out; the paper gives only the definitions).  The paper's
Theorem on Var[E_5x2] (section "Contingency tables on 5x2 BCV") defines, for
the HO estimators E_k^(j) = 2 (n01 + n10)_k^(j) / n of the disagreement
probability e on the ten folds (j = 1..5 partitions, k = 1, 2 halves),

    sigma^2 = Var[E_k^(j)],
    rho1 = Cov[E_1^(j), E_2^(j)] / sigma^2             (same partition j),
    rho2 = Cov[E_k^(j), E_k'^(j')] / sigma^2  (j != j'; different partitions).

With R repetitions, E is an R x 10 matrix (columns in the design's fold order
(1,1), (1,2), ..., (5,2)); S = its sample covariance matrix (ddof = 1).  All
covariances of the same kind are pooled:

    sigma2_hat = mean of the 10 variances S[f, f],
    rho1_hat   = mean of the 5 covariances S[(j,1), (j,2)] / sigma2_hat,
    rho2_hat   = mean of the 40 covariances S[(j,k), (j',k')], j < j' / sigma2_hat.

The same estimator applied to the fold-level error-rate differences
d_k^(j) = (n01 - n10)_k^(j) / (n/2) gives ``rho1_diff``, ``rho2_diff`` (the
correlations that the t-test family's variance corrections use), reported
beside the paper's.

Missing values: records with a missing value (an empty field or ``?``) are
dropped when a data set is read, as in the paper ("the record that contains
missing values is omitted"); the number dropped is reported by
:func:`load_uci`.  Predictors: numeric columns stay numeric (integer-coded
categorical columns such as cmc's are numeric, as in the files), string
columns are factors.  The mean classifier needs numbers: for it, factors are
one-hot coded (one 0/1 column per level present in the sample), so its
distance is Euclidean over numbers and indicators.  A factor column with a
single level in the 300-record sample is dropped for every learner (it
carries no information; kknn's contrasts refuse it; in this project's data
it happens in krvskp only).  majority and mean run in
Python (they are exact twins of the R learners, tested in
tests/test_r_bridge.py); the other five through R (``backend``).

Random streams: repetition r of data set D with seed s draws its records from
``SeedSequence(s, spawn_key=(r, 0, stable_id("rq1:" + D)))`` and its
partition from ``SeedSequence(s, spawn_key=(r, 1, stable_id("rq1:" + D)))``
(:func:`pybcv.seeds.stable_id`), so a repetition's result depends only on
(seed, data set, r): runs resume, split into jobs or spread over dask
workers with identical results.

Store (durable, one line per repetition): ``<out>/store/config.json`` (the
run's identity) and ``<out>/store/<dataset>.tsv``, one line per finished
repetition: ``rep, seconds, backend, error, tables`` where tables is the
base64 of the (21, 10, 2, 2) uint8 contingency tables (pair order of
:data:`PAIRS`, fold order of the design).  Each line is flushed and fsync'ed;
a torn last line is ignored on resume.

Archive (committed; the store is not, it outgrows the repository):
``<out>/rq1.npz``, written by :func:`pack` (``pybcv rq1 pack --out DIR``) and
read back into the store by :func:`unpack` (``pybcv rq1 unpack --out DIR``)
with byte-identical lines.  It keeps, per repetition, the seven learners'
wrong counts per fold and each pair's both-wrong count n00 (as
min(errA, errB) - n00): the 21 tables follow as n01 = errA - n00,
n10 = errB - n00, n11 = n - errA - errB + n00 (:func:`tables_from_counts`);
a repetition whose tables do not follow keeps them whole.  ``report`` reads
the archive where there is no store; ``run`` unpacks it first.
"""
from __future__ import annotations

import base64
import io
import itertools
import json
import os
import re
import sys
import time
import zipfile
from typing import Dict, List, Optional, Sequence

import numpy as np

from ._validate import csv_safe
from .engine.archive import ArchiveError, read_npz
from .engine.store import FolderLock
from .errors import StoreError
from .interrupts import stop_pool
from .learners import make_learner
from .outcomes import tables_from_predictions
from .partitions import DESIGNS
from .seeds import stable_id

LEARNERS = ("majority", "mean", "Logistic", "SMO", "JRip", "J48", "kknn")
LEARNER_PARAMS = {"kknn": {"k": 5, "kernel": "triangular"}}
PYTHON_LEARNERS = ("majority", "mean")          # exact twins of the R learners
PAIRS = tuple(itertools.combinations(range(len(LEARNERS)), 2))
DESIGN = "bcv5x2"
N_SAMPLE = 300
# the 21 UCI data sets of the paper that this project holds (29 in the paper)
DATASETS = ("balance", "cmc", "donors", "german", "krvskp", "letter", "magic",
            "mammographic", "optdigits", "pendigits", "pima", "ringnorm", "satellite",
            "spambase", "splice", "tic_tac_toe", "titanic", "transfusion", "twonorm",
            "wave", "yeast")
STORE_VERSION = 1
#: What a data-set name may look like: it becomes a file name (``<name>.tsv``,
#: ``<name>.csv.gz``), so no path separator, no leading dot or sign.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]{0,63}")


def check_name(name, where: str = "data set") -> str:
    """``name`` when it is a safe data-set name (:data:`NAME_PATTERN`), else
    ValueError naming it and ``where`` it came from.

    >>> check_name("tic_tac_toe")
    'tic_tac_toe'
    >>> check_name("../x", "--datasets")
    Traceback (most recent call last):
    ...
    ValueError: --datasets: data-set name '../x' is not a plain name (letters, digits and _, at most 64)
    """
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"{where}: data-set name {name!r} is not a plain name (letters, "
                         f"digits and _, at most 64)")
    return name


# ----------------------------------------------------------------- data
_data_cache: Dict[str, tuple] = {}


def load_uci(path: str):
    """(X, y, n_dropped) of one data file: predictors (ndarray when all
    numeric, else a DataFrame with string columns), labels as strings,
    records with a missing value (empty or ``?``) dropped and counted."""
    import pandas as pd
    if not os.path.exists(path):
        raise ValueError(f"data file not found: {path}")
    with open(path, "rb") as fh:            # a handle: a path like file:x is no URL
        df = pd.read_csv(fh, na_values=["?"], keep_default_na=True,
                         compression="gzip" if path.endswith(".gz") else None)
    if "class" not in df.columns:
        raise ValueError(f"{path}: no 'class' column; columns are {', '.join(df.columns)}")
    n0 = len(df)
    df = df.dropna(axis=0, how="any").reset_index(drop=True)
    y = df["class"].astype(str).to_numpy()
    X = df.drop(columns=["class"])
    if all(pd.api.types.is_numeric_dtype(t) for t in X.dtypes):
        X = X.to_numpy(float)
    else:
        for c in X.columns:
            if not pd.api.types.is_numeric_dtype(X[c].dtype):
                X[c] = X[c].astype(str)
            else:
                X[c] = X[c].astype(float)
    return X, y, n0 - len(df)


def drop_single_level(X):
    """The sample without its factor columns that hold a single level (no
    information for any learner; kknn's contrasts refuse them).

    >>> import pandas as pd
    >>> list(drop_single_level(pd.DataFrame({"a": ["x", "x"], "b": ["u", "v"], "c": [1.0, 1.0]})).columns)
    ['b', 'c']
    """
    keep = [c for c in X.columns if X[c].dtype.kind in "fiub" or X[c].nunique() >= 2]
    return X[keep].reset_index(drop=True)


def _dataset(data_dir: str, name: str):
    key = os.path.join(data_dir, name)
    if key not in _data_cache:
        _data_cache[key] = load_uci(os.path.join(data_dir, name + ".csv.gz"))
    return _data_cache[key]


def one_hot(X):
    """Numbers for the mean classifier: numeric columns as they are, each
    factor as one 0/1 column per level present (sorted level order).

    >>> import pandas as pd
    >>> one_hot(pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "y"]})).tolist()
    [[1.0, 1.0, 0.0], [2.0, 0.0, 1.0]]
    """
    if isinstance(X, np.ndarray):
        return X
    cols = []
    for c in X.columns:
        v = X[c]
        if v.dtype.kind in "fiub":
            cols.append(v.to_numpy(float)[:, None])
        else:
            a = v.to_numpy()
            lev = np.unique(a)
            cols.append((a[:, None] == lev[None, :]).astype(float))
    return np.hstack(cols)


# ----------------------------------------------------------------- one repetition
def streams(seed: int, dataset: str, r: int):
    """(records generator, partition generator) of repetition r."""
    sid = stable_id("rq1:" + dataset)
    g_rows = np.random.Generator(np.random.PCG64(
        np.random.SeedSequence(int(seed), spawn_key=(int(r), 0, sid))))
    g_design = np.random.Generator(np.random.PCG64(
        np.random.SeedSequence(int(seed), spawn_key=(int(r), 1, sid))))
    return g_rows, g_design


def run_rep(X, y, seed: int, dataset: str, r: int, n_sample: int = N_SAMPLE,
            backend: str = "r", learners=None) -> dict:
    """One repetition: the (21, 10, 2, 2) tables of every pair, fold by fold.

    ``learners`` maps a learner name to an object with ``predict_splits``
    (default: :func:`make_learners`)."""
    t0 = time.perf_counter()
    n = len(y)
    if n_sample > n:
        raise ValueError(f"data set {dataset!r}: n_sample={n_sample} exceeds its {n} records")
    g_rows, g_design = streams(seed, dataset, r)
    idx = g_rows.choice(n, size=n_sample, replace=False)
    Xs = X[idx] if isinstance(X, np.ndarray) else drop_single_level(X.iloc[idx])
    ys = y[idx]
    splits = DESIGNS[DESIGN].splits(n_sample, g_design)
    learners = learners or make_learners(backend)
    preds, backends = [], []
    for name in LEARNERS:
        lrn = learners[name]
        Xl = one_hot(Xs) if name == "mean" else Xs
        try:
            p = lrn.predict_splits(Xl, ys, splits)
        except Exception as e:   # a failing learner: the repetition records why
            msg = f"learner {name!r}: {type(e).__name__}: {e}".replace("\t", " ").replace("\n", " ")
            return {"rep": int(r), "seconds": time.perf_counter() - t0, "backend": "",
                    "error": msg, "tables": None}
        preds.append(p)
        backends.append(getattr(lrn, "backend_", "python"))
    T = np.stack([tables_from_predictions(ys, preds[a], preds[b], splits) for a, b in PAIRS])
    return {"rep": int(r), "seconds": time.perf_counter() - t0,
            "backend": "/".join(backends), "error": "", "tables": T}


def make_learners(backend: str = "r") -> dict:
    return {name: make_learner(name, backend="python" if name in PYTHON_LEARNERS else backend,
                               **LEARNER_PARAMS.get(name, {}))
            for name in LEARNERS}


def run_chunk(cfg: dict, dataset: str, reps: Sequence[int]) -> List[dict]:
    """A worker's unit: repetitions ``reps`` of ``dataset`` (rows for the store)."""
    import warnings
    X, y, _ = _dataset(cfg["data_dir"], dataset)
    learners = make_learners(cfg["backend"])
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for r in reps:
            row = run_rep(X, y, cfg["seed"], dataset, r, cfg["n_sample"], cfg["backend"],
                          learners)
            row["dataset"] = dataset
            out.append(row)
    return out


# ----------------------------------------------------------------- store
STORE_HEADER = "rep\tseconds\tbackend\terror\ttables\n"


def format_line(row: dict) -> str:
    """The store's line of one repetition (what :meth:`Store.write` appends).

    >>> format_line({"rep": 3, "seconds": 1.23456, "backend": "python", "error": "",
    ...              "tables": np.zeros((21, 1, 2, 2), dtype=int)}).split("\\t")[:4]
    ['3', '1.2346', 'python', '']
    """
    T = row["tables"]
    blob = ""
    if T is not None:
        if T.max() > 255:
            raise ValueError("fold counts above 255 do not fit the store's uint8 tables")
        blob = base64.b64encode(np.ascontiguousarray(T, dtype=np.uint8).tobytes()).decode()
    return f"{row['rep']}\t{row['seconds']:.4f}\t{row['backend']}\t{row['error']}\t{blob}\n"


class Store:
    """Append-only per-repetition store under ``<out>/store``."""

    def __init__(self, out: str):
        self.dir = os.path.join(out, "store")
        os.makedirs(self.dir, exist_ok=True)
        self._fh: Dict[str, object] = {}
        self._lock = None

    def init_config(self, identity: dict):
        path = os.path.join(self.dir, "config.json")
        if os.path.exists(path):
            with open(path) as fh:
                old = json.load(fh)
            if old != identity:
                diff = sorted(k for k in set(old) | set(identity) if old.get(k) != identity.get(k))
                raise ValueError(f"the store in {self.dir} belongs to another configuration "
                                 f"(differs in: {', '.join(diff)}); use another --out")
        else:
            tmp = path + ".tmp"
            with open(tmp, "w") as fh:
                json.dump(identity, fh, indent=1, sort_keys=True)
            os.replace(tmp, path)

    def _path(self, dataset):
        return os.path.join(self.dir, f"{check_name(dataset, 'store')}.tsv")

    def read(self, dataset: str) -> Dict[int, dict]:
        """{rep: row} of the finished repetitions (torn or repeated lines ignored)."""
        rows: Dict[int, dict] = {}
        path = self._path(dataset)
        if not os.path.exists(path):
            return rows
        with open(path) as fh:
            for line in fh:
                if not line.endswith("\n"):
                    continue                       # torn last line of a killed run
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 5 or parts[0] == "rep":
                    continue
                r = int(parts[0])
                if r in rows:
                    continue
                T = None
                if parts[4]:
                    T = np.frombuffer(base64.b64decode(parts[4]), dtype=np.uint8)
                    T = T.reshape(len(PAIRS), -1, 2, 2).astype(np.int64)
                rows[r] = {"rep": r, "seconds": float(parts[1]), "backend": parts[2],
                           "error": parts[3], "tables": T}
        return rows

    def lock(self):
        """Become the store's one writer (:class:`pybcv.engine.store.FolderLock`):
        a second process writing the same store is refused."""
        if self._lock is None:
            self._lock = FolderLock(self.dir, "RQ1 store")

    def write(self, rows: List[dict]):
        self.lock()
        for row in rows:
            ds = row["dataset"]
            fh = self._fh.get(ds)
            if fh is None:
                path = self._path(ds)
                new = not os.path.exists(path)
                if not new:                        # drop a torn last line before appending
                    with open(path, "rb+") as f:
                        data = f.read()
                        if data and not data.endswith(b"\n"):
                            f.truncate(data.rfind(b"\n") + 1)
                fh = open(path, "a")
                if new:
                    fh.write(STORE_HEADER)
                self._fh[ds] = fh
            fh.write(format_line(row))
            fh.flush()
            os.fsync(fh.fileno())

    def close(self):
        for fh in self._fh.values():
            fh.close()
        self._fh = {}
        if self._lock is not None:
            self._lock.release()
            self._lock = None


# ----------------------------------------------------------------- archive
ARCHIVE_NAME = "rq1.npz"
ARCHIVE_FORMAT = "pybcv-rq1-archive"
ARCHIVE_VERSION = 1
_PAIR_A = np.array([a for a, _ in PAIRS])
_PAIR_B = np.array([b for _, b in PAIRS])


def archive_path(out: str) -> str:
    """The compact archive of the store of ``out``: ``<out>/rq1.npz``."""
    return os.path.join(out, ARCHIVE_NAME)


def store_exists(out: str) -> bool:
    """Whether ``<out>/store`` holds a store (its config.json or a .tsv);
    an empty folder does not count.  Creates nothing."""
    folder = os.path.join(out, "store")
    if not os.path.isdir(folder):
        return False
    return any(f == "config.json" or f.endswith(".tsv") for f in os.listdir(folder))


def read_store(out: str):
    """(config.json text or None, {dataset: {rep: row}}) of the store of
    ``out``: rows in file order, data sets sorted; reads only."""
    folder = os.path.join(out, "store")
    if not os.path.isdir(folder):
        return None, {}
    path = os.path.join(folder, "config.json")
    config_text = None
    if os.path.exists(path):
        with open(path) as fh:
            config_text = fh.read()
    store = Store(out)
    names = sorted(check_name(f[:-4], f"store file {os.path.join(folder, f)}")
                   for f in os.listdir(folder) if f.endswith(".tsv"))
    return config_text, {d: store.read(d) for d in names}


def learner_errors(T: np.ndarray) -> np.ndarray:
    """(N, 7, F) wrong counts of each learner per fold, from (N, 21, F, 2, 2)
    tables (rows: learner A wrong / right, columns: learner B), taken from the
    first pair that holds the learner."""
    out = np.zeros(T.shape[:1] + (len(LEARNERS),) + T.shape[2:3], dtype=np.int64)
    for i in range(len(LEARNERS)):
        p = next(k for k, ab in enumerate(PAIRS) if i in ab)
        out[:, i] = T[:, p, :, 0, :].sum(-1) if PAIRS[p][0] == i else T[:, p, :, :, 0].sum(-1)
    return out


def tables_from_counts(wrong: np.ndarray, gap: np.ndarray, n_test: np.ndarray) -> np.ndarray:
    """(N, 21, F, 2, 2) tables from the learners' wrong counts ``wrong``
    (7, N, F), each pair's ``gap`` = min(errA, errB) - n00 (21, N, F) and the
    fold sizes ``n_test`` (N, F).

    >>> wrong = np.array([3, 5, 0, 0, 0, 0, 0])[:, None, None]      # one fold
    >>> gap = np.zeros((21, 1, 1), dtype=int); gap[0] = 1         # n00 = 3 - 1
    >>> tables_from_counts(wrong, gap, np.array([[10]]))[0, 0, 0].tolist()
    [[2, 1], [3, 4]]
    """
    wrong = np.asarray(wrong, dtype=np.int64)
    eA, eB = wrong[_PAIR_A], wrong[_PAIR_B]
    n00 = np.minimum(eA, eB) - np.asarray(gap, dtype=np.int64)
    n11 = np.asarray(n_test, dtype=np.int64)[None] - eA - eB + n00
    T = np.stack([np.stack([n00, eA - n00], -1), np.stack([eB - n00, n11], -1)], -2)
    return T.transpose(1, 0, 2, 3, 4)


def _small_uint(a: np.ndarray) -> np.ndarray:
    """``a`` as uint8 or uint16, whichever holds its values."""
    a = np.asarray(a)
    if a.size and (a.min() < 0 or a.max() > 65535):
        raise ValueError(f"counts outside 0..65535 cannot be archived (range {a.min()}..{a.max()})")
    return a.astype(np.uint8 if not a.size or a.max() <= 255 else np.uint16)


def _codes(values: List[str]):
    """(distinct values in order of appearance, codes into them)."""
    table: Dict[str, int] = {}
    codes = [table.setdefault(v, len(table)) for v in values]
    return list(table), np.array(codes, dtype=np.uint16 if len(table) <= 65536 else np.int64)


def _fold_count(data: Dict[str, Dict[int, dict]]) -> int:
    """The folds per table, the same for every stored repetition."""
    shapes = {row["tables"].shape for rows in data.values() for row in rows.values()
              if row["tables"] is not None}
    if len(shapes) > 1:
        raise ValueError(f"tables of different shapes in the store: {sorted(shapes)}")
    shape = shapes.pop() if shapes else (len(PAIRS), 0, 2, 2)
    if shape[0] != len(PAIRS) or shape[2:] != (2, 2):
        raise ValueError(f"tables of shape {shape}, expected ({len(PAIRS)}, F, 2, 2)")
    return shape[1]


def _encode_tables(rows: List[dict], F: int):
    """(failed, full, wrong (7, n, F), gap (21, n, F), n_test (n, F), full
    tables) of one data set's rows; ``full`` marks the repetitions whose 21
    tables do not follow from the learners' wrong counts (they keep their
    tables; their counts, like those of failed ones, are zero)."""
    failed = np.array([row["tables"] is None for row in rows], dtype=bool)
    T = np.zeros((len(rows), len(PAIRS), F, 2, 2), dtype=np.int64)
    for k, row in enumerate(rows):
        if not failed[k]:
            T[k] = row["tables"]
    wrong = learner_errors(T).transpose(1, 0, 2)
    n_test = T[:, 0].sum(axis=(-1, -2))
    gap = np.minimum(wrong[_PAIR_A], wrong[_PAIR_B]) - T[..., 0, 0].transpose(1, 0, 2)
    full = ~failed & ~(tables_from_counts(wrong, gap, n_test) == T).all(axis=(1, 2, 3, 4))
    off = full | failed
    wrong[:, off], gap[:, off], n_test[off] = 0, 0, 0
    return failed, full, wrong, gap, n_test, T[full]


def encode(config_text: str, data: Dict[str, Dict[int, dict]]) -> Dict[str, np.ndarray]:
    """The archive's arrays of a store (see :func:`pack`): per repetition
    (in store order, data set after data set) its rep, seconds, backend and
    error codes, whether it failed, its fold sizes, the 7 learners' wrong
    counts and the 21 pairs' gap = min(errA, errB) - n00 per fold;
    repetitions that the counts do not reproduce keep their full tables
    (``full_index``, ``full_tables``).  ``meta`` is JSON: config.json's
    text, data sets with their counts, the backend and error strings."""
    rows = [row for d in data for row in data[d].values()]
    F = _fold_count(data)
    parts = [_encode_tables(list(data[d].values()), F) for d in data]
    failed, full, wrong, gap, n_test, full_tables = (
        np.concatenate([p[i] for p in parts], axis=1 if i in (2, 3) else 0) for i in range(6))
    backends, backend_codes = _codes([row["backend"] for row in rows])
    errors, error_codes = _codes([row["error"] for row in rows])
    meta = {"format": ARCHIVE_FORMAT, "version": ARCHIVE_VERSION, "config_json": config_text,
            "learners": list(LEARNERS), "pairs": [list(p) for p in PAIRS], "folds": F,
            "datasets": list(data), "counts": [len(data[d]) for d in data],
            "backends": backends, "errors": errors}
    return {"meta": np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8),
            "rep": np.array([row["rep"] for row in rows], dtype=np.int64).astype(np.int32),
            "seconds": np.array([row["seconds"] for row in rows], dtype=np.float64),
            "backend": backend_codes, "error": error_codes, "failed": failed.astype(bool),
            "n_test": _small_uint(n_test), "wrong": _small_uint(wrong), "gap": _small_uint(gap),
            "full_index": np.flatnonzero(full).astype(np.int32),
            "full_tables": full_tables.astype(np.uint8)}


def _decode_tables(arrays, start: int, stop: int) -> np.ndarray:
    """(stop - start, 21, F, 2, 2) int64 tables of the archive's rows
    start..stop-1 (zeros for failed ones)."""
    T = np.ascontiguousarray(tables_from_counts(
        arrays["wrong"][:, start:stop], arrays["gap"][:, start:stop], arrays["n_test"][start:stop]))
    idx = np.asarray(arrays["full_index"], dtype=np.int64)
    inside = (idx >= start) & (idx < stop)
    T[idx[inside] - start] = arrays["full_tables"][inside]
    return T


def decode(arrays) -> tuple:
    """(config.json text, {dataset: {rep: row}}) from the archive's arrays;
    rows as :meth:`Store.read` returns them (tables int64 or None)."""
    meta = json.loads(bytes(np.asarray(arrays["meta"], dtype=np.uint8)).decode())
    if meta.get("format") != ARCHIVE_FORMAT or meta.get("version") != ARCHIVE_VERSION:
        raise ValueError(f"not an RQ1 archive of version {ARCHIVE_VERSION}: "
                         f"format {meta.get('format')!r}, version {meta.get('version')!r}")
    if meta["learners"] != list(LEARNERS) or meta["pairs"] != [list(p) for p in PAIRS]:
        raise ValueError("the archive's learners or pairs differ from this module's")
    rep, seconds, failed = arrays["rep"], arrays["seconds"], arrays["failed"]
    backend, error = arrays["backend"], arrays["error"]
    data, start = {}, 0
    for d, count in zip(meta["datasets"], meta["counts"]):
        T = _decode_tables(arrays, start, start + count)
        ok = ~np.asarray(failed[start:start + count], bool)
        if ok.any() and T[ok].min() < 0:
            k = int(np.flatnonzero(ok & (T.reshape(count, -1).min(axis=1) < 0))[0])
            raise ValueError(f"data set {d}, repetition {int(rep[start + k])}: the stored "
                             f"counts give a negative table cell (members 'wrong', 'gap', "
                             f"'n_test')")
        data[d] = {}
        for k in range(start, start + count):
            data[d][int(rep[k])] = {
                "rep": int(rep[k]), "seconds": float(seconds[k]),
                "backend": meta["backends"][backend[k]], "error": meta["errors"][error[k]],
                "tables": None if failed[k] else T[k - start]}
        start += count
    return meta["config_json"], data


def _zip_member(zf, name: str, a: np.ndarray):
    """Add ``name``.npy to ``zf`` with whichever of deflate, bzip2 and lzma
    gives the fewest bytes (np.load reads all three); fixed timestamp, so an
    unchanged store packs to identical bytes."""
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.ascontiguousarray(a), allow_pickle=False)
    raw = buf.getvalue()
    sizes = {}
    for method in (zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
        probe = io.BytesIO()
        with zipfile.ZipFile(probe, "w") as z:
            z.writestr(_zip_info(name), raw, compress_type=method, compresslevel=9)
        sizes[method] = len(probe.getvalue())
    zf.writestr(_zip_info(name), raw, compress_type=min(sizes, key=sizes.get), compresslevel=9)


def _zip_info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
    info.external_attr = 0o644 << 16
    return info


def write_archive(path: str, arrays: Dict[str, np.ndarray]):
    """Write ``arrays`` as an npz file (``np.load`` reads it; no pickle),
    atomically."""
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w") as zf:
        for name, a in arrays.items():
            _zip_member(zf, name, a)
    os.replace(tmp, path)


def read_archive(path: str) -> tuple:
    """(config.json text, {dataset: {rep: row}}) of an archive file, every
    member checked first (:func:`check_arrays`; sizes and dtypes:
    :func:`pybcv.engine.archive.read_npz`)."""
    if not os.path.exists(path):
        raise ValueError(f"no archive {path}")
    arrays = read_npz(path)
    missing = {"meta", "rep", "seconds", "backend", "error", "failed", "n_test", "wrong", "gap",
               "full_index", "full_tables"} - set(arrays)
    if missing:
        raise ValueError(f"{path}: not an RQ1 archive (no {', '.join(sorted(missing))})")
    try:
        check_arrays(arrays)
        return decode(arrays)
    except ValueError as e:
        raise ArchiveError(f"{path}: {e}") from None


def _meta_of(arrays) -> dict:
    try:
        meta = json.loads(bytes(np.asarray(arrays["meta"], dtype=np.uint8)).decode())
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"member 'meta' is not UTF-8 JSON ({e})") from None
    if not isinstance(meta, dict):
        raise ValueError("member 'meta' is not a JSON object")
    return meta


def check_arrays(arrays):
    """ValueError naming the member unless the archive's arrays are what
    :func:`encode` writes: shapes consistent with the repetitions counted in
    ``meta``, codes within their tables, counts that are non-negative
    integers, data-set names that are plain names (:func:`check_name`)."""
    meta = _meta_of(arrays)
    for key, kind in (("datasets", list), ("counts", list), ("backends", list),
                      ("errors", list), ("config_json", str), ("folds", int)):
        if not isinstance(meta.get(key), kind):
            raise ValueError(f"member 'meta': {key!r} missing or of the wrong type")
    names = [check_name(d, "member 'meta'") for d in meta["datasets"]]
    if len(set(names)) != len(names):
        raise ValueError("member 'meta': a data set is listed twice")
    counts = meta["counts"]
    if len(counts) != len(names) or not all(isinstance(c, int) and c >= 0 for c in counts):
        raise ValueError("member 'meta': 'counts' must hold one repetition count per data set")
    N, F = sum(counts), meta["folds"]
    if F < 1:
        raise ValueError(f"member 'meta': 'folds' must be >= 1, got {F}")
    K = len(arrays["full_index"])
    want = {"rep": ("iu", (N,)), "seconds": ("f", (N,)), "backend": ("iu", (N,)),
            "error": ("iu", (N,)), "failed": ("b", (N,)), "n_test": ("u", (N, F)),
            "wrong": ("u", (len(LEARNERS), N, F)), "gap": ("u", (len(PAIRS), N, F)),
            "full_index": ("iu", (K,)), "full_tables": ("u", (K, len(PAIRS), F, 2, 2))}
    for name, (kinds, shape) in want.items():
        a = arrays[name]
        if a.dtype.kind not in kinds or a.shape != shape:
            raise ValueError(f"member {name!r}: dtype {a.dtype}, shape {a.shape}; expected "
                             f"{'integers' if kinds != 'f' else 'floats'} of shape {shape}")
    if N and arrays["rep"].min() < 0:
        raise ValueError("member 'rep': negative repetition numbers")
    if N and not np.all(np.isfinite(arrays["seconds"])):
        raise ValueError("member 'seconds': values that are not finite")
    for name, table in (("backend", "backends"), ("error", "errors")):
        if N and int(arrays[name].max()) >= len(meta[table]):
            raise ValueError(f"member {name!r}: code {int(arrays[name].max())}, but "
                             f"{len(meta[table])} {table}")
    idx = arrays["full_index"].astype(np.int64)
    if K and (idx.min() < 0 or idx.max() >= N or np.any(np.diff(idx) <= 0)):
        raise ValueError("member 'full_index': indices must be ascending within the repetitions")
    start = 0
    for d, c in zip(names, counts):
        r = arrays["rep"][start:start + c]
        if len(np.unique(r)) != c:
            raise ValueError(f"member 'rep': data set {d} lists a repetition twice")
        start += c



def same_rows(a: Dict[int, dict], b: Dict[int, dict]) -> bool:
    """Whether two {rep: row} maps hold the same repetitions in the same
    order, with identical store lines, seconds to the bit and tables."""
    if list(a) != list(b):
        return False
    for r in a:
        x, y = a[r], b[r]
        if format_line(x) != format_line(y) \
                or np.float64(x["seconds"]).tobytes() != np.float64(y["seconds"]).tobytes():
            return False
        if (x["tables"] is None) != (y["tables"] is None) or (
                x["tables"] is not None and not np.array_equal(x["tables"], y["tables"])):
            return False
    return True


def _check_no_loss(path: str, config_text: str, data: Dict[str, Dict[int, dict]]):
    """Refuse to replace an archive that holds repetitions the store lacks,
    or that belongs to another configuration."""
    old_config, old = read_archive(path)
    if json.loads(old_config) != json.loads(config_text):
        raise ValueError(f"{path} belongs to another configuration than the store; "
                         "move it away first")
    lost = {d: len(set(rows) - set(data.get(d, {}))) for d, rows in old.items()}
    lost = {d: n for d, n in lost.items() if n}
    if lost:
        raise ValueError(f"{path} holds repetitions that the store lacks "
                         f"({', '.join(f'{d}: {n}' for d, n in sorted(lost.items()))}); "
                         "unpack it first, or move it away")


def pack(out: str, path: Optional[str] = None) -> dict:
    """Pack the store of ``out`` into ``path`` (default ``<out>/rq1.npz``),
    verified: the archive read back must give every repetition's line, seconds
    and tables bit for bit, else ValueError (and no archive is written).
    Returns {dataset: repetitions}, the archive's bytes and the repetitions
    kept with full tables."""
    path = path or archive_path(out)
    config_text, data = read_store(out)
    if config_text is None:
        raise ValueError(f"no store in {os.path.join(out, 'store')} (no config.json)")
    data = {d: rows for d, rows in data.items() if rows}
    if not data:
        raise ValueError(f"the store in {os.path.join(out, 'store')} holds no repetition")
    if os.path.exists(path):
        _check_no_loss(path, config_text, data)
    arrays = encode(config_text, data)
    tmp = path + ".new"
    write_archive(tmp, arrays)
    try:
        back_config, back = read_archive(tmp)
        bad = [d for d in data if not same_rows(data[d], back.get(d, {}))]
        if back_config != config_text or list(back) != list(data) or bad:
            raise ValueError(f"the archive does not reproduce the store "
                             f"(data sets {', '.join(bad) or 'list or config.json'}); not written")
    except BaseException:
        os.remove(tmp)
        raise
    os.replace(tmp, path)
    return {"archive": path, "bytes": os.path.getsize(path),
            "full_tables": int(len(arrays["full_index"])),
            "repetitions": {d: len(rows) for d, rows in data.items()}}


def _missing_rows(out: str, config_text: str, data: Dict[str, Dict[int, dict]]):
    """{dataset: rows} of the archive that the existing store of ``out``
    lacks; ValueError when the store is not a subset of the archive."""
    folder = os.path.join(out, "store")
    cfg_path = os.path.join(folder, "config.json")
    if os.path.exists(cfg_path):
        with open(cfg_path) as fh:
            if json.load(fh) != json.loads(config_text):
                raise ValueError(f"the store in {folder} belongs to another configuration "
                                 "than the archive; refusing to unpack into it")
    store = Store(out)
    names = sorted(check_name(f[:-4], f"store file {os.path.join(folder, f)}")
                   for f in os.listdir(folder) if f.endswith(".tsv"))
    missing = {}
    for d in sorted(set(names) | set(data)):
        have, full = store.read(d), data.get(d, {})
        if not set(have) <= set(full) or not all(same_rows({r: have[r]}, {r: full[r]})
                                                  for r in have):
            raise ValueError(f"the store in {folder} holds repetitions of {d} that the archive "
                             "lacks or that differ from it; refusing to unpack into it")
        missing[d] = [r for r in full if r not in have]
    return missing


def unpack(out: str, path: Optional[str] = None) -> dict:
    """Rebuild the store of ``out`` from ``path`` (default ``<out>/rq1.npz``):
    the lines :meth:`Store.write` writes, in the archive's order.  An existing
    store must hold a subset of the archive's repetitions (same config); only
    the missing lines are appended.  Returns {dataset: lines added}."""
    path = path or archive_path(out)
    config_text, data = read_archive(path)
    missing = _missing_rows(out, config_text, data) if store_exists(out) \
        else {d: list(rows) for d, rows in data.items()}
    store = Store(out)
    cfg_path = os.path.join(store.dir, "config.json")
    if not os.path.exists(cfg_path):
        with open(cfg_path + ".tmp", "w") as fh:
            fh.write(config_text)
        os.replace(cfg_path + ".tmp", cfg_path)
    try:
        for d, reps in missing.items():
            store.write([{**data[d][r], "dataset": d} for r in reps])
    finally:
        store.close()
    return {d: len(reps) for d, reps in missing.items()}


def load_rows(out: str) -> Dict[str, Dict[int, dict]]:
    """{dataset: {rep: row}} of ``out``: its store, else its archive."""
    if store_exists(out):
        return read_store(out)[1]
    if os.path.exists(archive_path(out)):
        return read_archive(archive_path(out))[1]
    raise ValueError(f"no store ({os.path.join(out, 'store')}) and no archive "
                     f"({archive_path(out)}): nothing to report")


# ----------------------------------------------------------------- runner
def run(data_dir: str, out: str, reps: int = 1000, seed: int = 0, datasets=DATASETS,
        n_sample: int = N_SAMPLE, backend: str = "r", jobs: int = 1,
        scheduler: Optional[str] = None, chunk: int = 5,
        max_reps_this_call: Optional[int] = None, progress: bool = False) -> dict:
    """Run (or resume) the RQ1 experiment; returns {dataset: repetitions done}.

    Round robin over the data sets, ``chunk`` repetitions at a time;
    ``jobs`` > 1 uses spawned processes, ``scheduler`` a dask.distributed
    scheduler address.  Results depend only on (seed, data set, repetition).
    Without a store but with an archive (``<out>/rq1.npz``), the store is
    first rebuilt from the archive (:func:`unpack`)."""
    for name, v, lo in (("reps", reps, 1), ("jobs", jobs, 1), ("chunk", chunk, 1),
                        ("n_sample", n_sample, 10)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
            raise ValueError(f"{name} must be an integer >= {lo}, got {v!r}")
    if int(seed) < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    datasets = [check_name(d, "--datasets") for d in datasets]
    for d in datasets:
        if not os.path.exists(os.path.join(data_dir, d + ".csv.gz")):
            raise ValueError(f"data set {d!r}: no file {d}.csv.gz in {data_dir}")
    if not store_exists(out) and os.path.exists(archive_path(out)):
        print(f"[rq1] no store in {os.path.join(out, 'store')}: unpacking {archive_path(out)} "
              "first", file=sys.stderr, flush=True)
        unpack(out)
    store = Store(out)
    store.lock()
    store.init_config({"version": STORE_VERSION, "seed": int(seed), "n_sample": int(n_sample),
                       "design": DESIGN, "learners": list(LEARNERS),
                       "learner_params": LEARNER_PARAMS, "python_learners": list(PYTHON_LEARNERS),
                       "backend": backend, "single_level_factors": "dropped"})
    cfg = {"data_dir": data_dir, "seed": int(seed), "n_sample": int(n_sample), "backend": backend}
    # round robin over the data sets, ``chunk`` repetitions at a time, so that
    # a partial run covers every data set with about the same repetitions
    done = {d: set(store.read(d)) for d in datasets}
    tasks = []
    for start in range(0, int(reps), chunk):
        for d in datasets:
            c = [r for r in range(start, min(start + chunk, int(reps))) if r not in done[d]]
            if c:
                tasks.append((d, c))
    if max_reps_this_call is not None:
        left, cut = int(max_reps_this_call), []
        for d, c in tasks:
            if left <= 0:
                break
            cut.append((d, c[:left]))
            left -= len(cut[-1][1])
        tasks = cut
    t0, count = time.time(), [0]
    total = sum(len(c) for _, c in tasks)

    def sink(rows):
        store.write(rows)
        count[0] += len(rows)
        if progress:
            el = time.time() - t0
            print(f"[rq1] {count[0]}/{total} repetitions ({rows[0]['dataset']}), "
                  f"{el / count[0]:.2f} s each", file=sys.stderr, flush=True)

    try:
        if scheduler is not None:
            from distributed import Client, as_completed
            with Client(scheduler) as client:
                futs = [client.submit(run_chunk, cfg, d, c, pure=False) for d, c in tasks]
                for fut in as_completed(futs):
                    sink(fut.result())
        elif jobs == 1 or len(tasks) <= 1:
            for d, c in tasks:
                sink(run_chunk(cfg, d, c))
        else:
            # spawned (not forked) processes: a forked JVM is unusable
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor, as_completed
            ctx = multiprocessing.get_context("spawn")
            ex = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
            try:
                futs = [ex.submit(run_chunk, cfg, d, c) for d, c in tasks]
                for fut in as_completed(futs):
                    sink(fut.result())
            except BaseException:
                # Ctrl-C or an error: drop the queued chunks and stop the workers
                # now (finished chunks are stored; shutdown(wait=True) would run
                # every queued chunk first)
                stop_pool(ex)
                raise
            ex.shutdown()
    finally:
        store.close()
    return {d: len(store.read(d)) for d in datasets}


# ----------------------------------------------------------------- estimator
def rho_estimates(V: np.ndarray):
    """(rho1, rho2, sigma2) from an (R, 10) matrix of fold-level estimators
    in the 5x2 BCV fold order (1,1), (1,2), ..., (5,2); pooled covariances
    over the repetitions (see the module docstring).

    Worked example: three repetitions where the two halves of a partition
    move together and different partitions do not co-vary at all.

    >>> V = np.array([[0.1, 0.1] * 5, [0.2, 0.2] * 5, [0.3, 0.3] * 5])
    >>> V[:, 2:] = np.array([[0.1, 0.1, 0.3, 0.3, 0.2, 0.2, 0.2, 0.2],
    ...                      [0.2, 0.2, 0.1, 0.1, 0.3, 0.3, 0.1, 0.1],
    ...                      [0.3, 0.3, 0.2, 0.2, 0.1, 0.1, 0.3, 0.3]])
    >>> r1, r2, s2 = rho_estimates(V)
    >>> round(r1, 6), round(s2, 6)
    (1.0, 0.01)

    rho2 pools the 40 cross-partition covariances, here
    (4 x 0.01 [(1,2)(1,4)] + ... ) / 40 / sigma2:

    >>> S = np.cov(V, rowvar=False)
    >>> cross = [S[a, b] for a in range(10) for b in range(a + 1, 10) if a // 2 != b // 2]
    >>> bool(np.isclose(r2, np.mean(cross) / np.mean(np.diag(S))))
    True
    """
    V = np.asarray(V, dtype=float)
    if V.ndim != 2 or V.shape[1] != 10:
        raise ValueError(f"expected an (R, 10) matrix of 5x2 fold estimates, got shape {V.shape}")
    if V.shape[0] < 2:
        return float("nan"), float("nan"), float("nan")
    S = np.cov(V, rowvar=False, ddof=1)
    s2 = float(np.mean(np.diag(S)))
    if not s2 > 0:
        return float("nan"), float("nan"), s2
    within = np.mean([S[2 * j, 2 * j + 1] for j in range(5)])
    cross = np.mean([S[a, b] for a in range(10) for b in range(a + 1, 10) if a // 2 != b // 2])
    return float(within / s2), float(cross / s2), s2


def rho_table(out: str, datasets=None):
    """One row per (data set, pair): rho1, rho2 (the paper's
    disagreement estimators), rho1_diff, rho2_diff (error-rate differences),
    mean disagreement and error rates, reps used, failed reps.  Reads the
    store of ``out``, or its archive where it has no store."""
    import pandas as pd
    data = load_rows(out)
    if datasets is None:
        datasets = list(data)
    rows = []
    for d in datasets:
        got = data.get(d, {})
        ok = [got[r]["tables"] for r in sorted(got) if got[r]["tables"] is not None]
        failed = sum(1 for r in got if got[r]["tables"] is None)
        if not ok:
            continue
        T = np.stack(ok)                         # (R, 21, 10, 2, 2)
        if T.min() < 0:
            r = sorted(got)[int(np.argwhere(T < 0)[0][0])]
            raise ValueError(f"data set {d}, repetition {r}: a negative count in its "
                             f"contingency tables (a damaged store or archive)")
        nte = T[0, 0].sum(axis=(1, 2)).astype(float)
        n01, n10 = T[..., 0, 1], T[..., 1, 0]
        E = (n01 + n10) / nte                    # (R, 21, 10)
        D = (n01 - n10) / nte
        errA = (T[..., 0, 0] + T[..., 0, 1]) / nte
        errB = (T[..., 0, 0] + T[..., 1, 0]) / nte
        for p, (a, b) in enumerate(PAIRS):
            r1, r2, s2 = rho_estimates(E[:, p, :])
            d1, d2, _ = rho_estimates(D[:, p, :])
            rows.append({"dataset": d, "learner_a": LEARNERS[a], "learner_b": LEARNERS[b],
                         "rho1": r1, "rho2": r2, "reps": len(ok),
                         "rho1_diff": d1, "rho2_diff": d2, "sigma2": s2,
                         "mean_disagreement": float(E[:, p].mean()),
                         "error_a": float(errA[:, p].mean()), "error_b": float(errB[:, p].mean()),
                         "failed_reps": failed})
    return pd.DataFrame(rows)


def _span(reps) -> str:
    """"1000" or "470-475": the repetition counts of the experiments."""
    lo, hi = int(reps.min()), int(reps.max())
    return str(lo) if lo == hi else f"{lo}-{hi}"


def scatter(df, path: str):
    """(rho1, rho2) of every experiment with the bound rho2 = (1 + rho1)/2."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ok = df.dropna(subset=["rho1", "rho2"])
    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.scatter(ok["rho1"], ok["rho2"], s=9, alpha=0.6, label=f"{len(ok)} experiments")
    x = np.linspace(-1, 1, 3)
    ax.plot(x, (1 + x) / 2, "r-", lw=1.5, label=r"bound $\rho_2=(1+\rho_1)/2$")
    ax.plot(x, x, color="grey", ls=":", lw=1, label=r"$\rho_2=\rho_1$")
    ax.axhline(0.5, color="k", ls="--", lw=0.8)
    ax.axvline(0.5, color="k", ls="--", lw=0.8, label=r"$\rho_1=\rho_2=1/2$ (paper's t)")
    ax.set_xlim(min(-0.6, float(ok["rho1"].min()) - 0.05) if len(ok) else -0.6, 1.0)
    ax.set_ylim(min(-0.3, float(ok["rho2"].min()) - 0.05) if len(ok) else -0.3, 1.0)
    ax.set_xlabel(r"$\rho_1$")
    ax.set_ylabel(r"$\rho_2$")
    reps = _span(ok["reps"]) if len(ok) else "0"
    ax.set_title(f"RQ1: {ok['dataset'].nunique()} data sets x 21 pairs, {reps} reps")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def observations(df) -> dict:
    """The paper's three observations, as fractions of the experiments."""
    ok = df.dropna(subset=["rho1", "rho2"])
    n = len(ok)
    if n == 0:
        return {"experiments": 0}
    r1, r2 = ok["rho1"].to_numpy(), ok["rho2"].to_numpy()
    margin = (1 + r1) / 2 - r2
    return {"experiments": n, "undefined": int(len(df) - n),
            "rho1_median": float(np.median(r1)), "rho2_median": float(np.median(r2)),
            "frac_rho1_le_half": float(np.mean(r1 <= 0.5)),
            "frac_rho2_in_0_half": float(np.mean((r2 >= 0) & (r2 <= 0.5))),
            "frac_both_bounds": float(np.mean((r1 <= 0.5) & (r2 >= 0) & (r2 <= 0.5))),
            "frac_below_theorem_bound": float(np.mean(margin > 0)),
            "min_margin_to_bound": float(margin.min()),
            "median_margin_to_bound": float(np.median(margin)),
            "frac_rho2_ge_rho1": float(np.mean(r2 >= r1)),
            "rho1_q95": float(np.quantile(r1, 0.95)), "rho2_q95": float(np.quantile(r2, 0.95))}


def summary_markdown(df, obs) -> str:
    """The paper's three observations beside ours, and medians per pair."""
    if not obs.get("experiments"):
        return "# RQ1 summary\n\nNo experiment has two finished repetitions yet.\n"
    pct = lambda x: f"{100 * x:.1f} %"  # noqa: E731
    reps = _span(df["reps"])
    by_pair = df.groupby(["learner_a", "learner_b"], sort=False)[["rho1", "rho2"]].median()
    pairs = "\n".join(f"| {a} | {b} | {r['rho1']:.3f} | {r['rho2']:.3f} |"
                      for (a, b), r in by_pair.iterrows())
    return f"""# RQ1 summary (written by `pybcv rq1 report`)

{obs['experiments']} experiments ({df['dataset'].nunique()} data sets x 21 pairs), {reps}
repetitions each ({obs['undefined']} undefined: no variation of the
disagreement rate).  Medians: rho1 {obs['rho1_median']:.3f}, rho2 {obs['rho2_median']:.3f};
95 % quantiles: rho1 {obs['rho1_q95']:.3f}, rho2 {obs['rho2_q95']:.3f}.

| the paper's observation | ours |
|---|---|
| (1) most rho1, rho2 below 0.5; rho1 around 0, rho2 > 0; the bounds rho1 <= 1/2, 0 <= rho2 <= 1/2 hold with high probability | rho1 <= 1/2 in {pct(obs['frac_rho1_le_half'])}, 0 <= rho2 <= 1/2 in {pct(obs['frac_rho2_in_0_half'])}, both in {pct(obs['frac_both_bounds'])} of the experiments; median rho1 {obs['rho1_median']:.3f}, median rho2 {obs['rho2_median']:.3f} |
| (2) all points below rho2 = (1 + rho1)/2, with a wide margin (the bound is loose) | {pct(obs['frac_below_theorem_bound'])} below the bound; margin (1 + rho1)/2 - rho2: median {obs['median_margin_to_bound']:.3f}, smallest {obs['min_margin_to_bound']:.3f} |
| (3) the majority satisfy rho2 >= rho1 | rho2 >= rho1 in {pct(obs['frac_rho2_ge_rho1'])} |

A correlation estimated from R repetitions has a sampling SE of about
(1 - rho^2)/sqrt(R) for one pair of folds (0.1 at R = 100), less after
pooling over the 5 (rho1) and 40 (rho2) pairs of folds; fractions near a
boundary therefore still move with R.

## Medians per pair (over the data sets)

| learner A | learner B | median rho1 | median rho2 |
|---|---|---:|---:|
{pairs}
"""


def report(out: str, dest: str):
    """Write rho.csv, rho_scatter.png, observations.json and summary.md into ``dest``."""
    df = rho_table(out)
    if df.empty:
        raise ValueError(f"{out}: no data set has a finished repetition yet; nothing to report")
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "rho.csv"), "w", newline="") as fh:   # a handle, never a URL
        csv_safe(df).to_csv(fh, index=False, float_format="%.6g")
    scatter(df, os.path.join(dest, "rho_scatter.png"))
    obs = observations(df)
    with open(os.path.join(dest, "observations.json"), "w") as fh:
        json.dump(obs, fh, indent=1)
    with open(os.path.join(dest, "summary.md"), "w") as fh:
        fh.write(summary_markdown(df, obs))
    return df, obs
