"""Compact, exact archive of one finished simulation run (``run.npz``).

A run folder written by :func:`pybcv.engine.simulate` holds a SQLite store
(``results.sqlite``, :mod:`pybcv.engine.store`) made for durability and
resuming: one transaction per repetition, NULL for NaN, a zlib blob of int32
fold tables per repetition.  Once a run is finished, everything needed to
report it and to re-score it under another option profile fits in a file a
tenth of that size, which is what the repository keeps under
``docs/replication``.

What is kept (exactly: every float64 bit, every count):

* ``config``: the run's identity (``RunConfig`` as a dict; with the seed it
  determines every data set, partition and fit of every repetition);
* ``reps``: the finished repetitions;
* ``results``: per test, every repetition's statistic and p-value (float64,
  NaN where the test gave none);
* ``tables``: per partition design, every fold's 2x2 table of the two
  learners' outcomes (learner runs only; the learner-free ``epsilon`` run
  recomputes its tables from the seed in milliseconds and stores none);
* ``rep_info``: per repetition (rep, seconds, fits of A, fits of B, backend).

What is dropped: the per-repetition commit time of the store, and everything
recomputable from the seed (data sets, partitions, predictions).

File format ``pybcv-run-archive-1``: a zip file of ``.npy`` arrays, readable
with ``numpy.load(path)`` (no pickles), deflate-compressed, with fixed
timestamps so that the same run always gives the same bytes:

=================== =========================== ==========================================
member              dtype, shape                content
=================== =========================== ==========================================
``meta``            uint8 (bytes,)              UTF-8 JSON: ``format``, ``config``,
                                                ``reps_target``, ``tests`` (row order of
                                                ``statistic``/``pvalue``), ``backends``
                                                (codes of ``backend``), ``tables``
                                                ({design: {``cells``, ``dropped_cell``,
                                                ``fold_sizes``}})
``reps``            int64 (R,)                  repetition numbers, ascending
``statistic``       float64 (T, R)              statistic of test ``tests[t]``
``pvalue``          float64 (T, R)              p-value of test ``tests[t]``
``seconds``         float64 (R,)                run time of each repetition
``fits``            int64 (2, R)                fits of learner A, of learner B
``backend``         uint8 (R,)                  index into ``meta["backends"]``
``tables/<design>`` uint8/16/32 (3, R, F)       three of the four cells of every fold's
                                                table (see below)
=================== =========================== ==========================================

A k-learner run (RQ1: ``config["learners"]``, tables ``"<design>@<pair>"``
of every pair of the k learners, :func:`pybcv.experiments.pair_keys`) keeps
instead, per design, what its tables follow from: ``pairs/<design>/wrong``
(k, R, F), each learner's wrong count per fold, and ``pairs/<design>/gap``
(P, R, F), each pair's min(wrong A, wrong B) - n00 (n00 = both wrong), in
the smallest unsigned type; the tables follow as n01 = wrong A - n00,
n10 = wrong B - n00, n11 = fold size - wrong A - wrong B + n00
(``meta["pair_tables"]``: {design: {``fold_sizes``}}).  Its statistics and
p-values are not kept when scoring the tables reproduces them bit for bit
(``meta["scored"]``: true): :func:`read_run` scores them again.  Either
shortcut is taken only when the archive read back equals the run.

A fold table ``[[n00, n01], [n10, n11]]`` is flattened to cells 0..3
(``n00, n01, n10, n11``).  Its four counts add up to the fold's test size,
which is the same in every repetition (``fold_sizes[f]``), so the archive
keeps the three cells listed in ``cells`` and restores the
``dropped_cell`` as ``fold_sizes[f] - (sum of the other three)``.  The
dropped cell is the one with the largest mean (mostly n00, "both right"), so
the kept ones fit in the smallest unsigned type.  The (3, R, F) order keeps
each cell's values together, which compresses as well as or better than
(R, F, 3) (measured on the replication: up to 4 % smaller).

Example (a two-repetition run with one design of two folds of 5 records)::

    >>> import tempfile
    >>> tabs = {"cv2": np.array([[[[3, 1], [0, 1]], [[4, 0], [1, 0]]],
    ...                          [[[2, 2], [1, 0]], [[5, 0], [0, 0]]]])}
    >>> res = {"t": (np.array([0.5, np.nan]), np.array([0.62, np.nan]))}
    >>> info = [(0, 0.1, 2, 2, "python/python"), (1, 0.2, 2, 2, "python/python")]
    >>> d = tempfile.mkdtemp()
    >>> _ = write_run(d, {"dataset": "simple", "seed": 0}, [0, 1], res, tabs, info)
    >>> run = read_run(d)
    >>> np.array_equal(run["tables"]["cv2"], tabs["cv2"])
    True
    >>> run["results"]["t"][1]
    array([0.62,  nan])
    >>> run["rep_info"][1]
    (1, 0.2, 2, 2, 'python/python')

Command line (``pybcv archive --help``): ``convert`` turns every
``results.sqlite`` under the given folders into ``run.npz`` (checking that
the archive reads back identical to the store before it deletes anything),
``verify`` compares the two where both exist, ``show`` prints a summary,
``unpack`` turns archives back into stores (to continue or extend a run with
``pybcv simulate --resume``).
"""
from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
import zipfile
import zlib
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..experiments import pair_keys
from .config import RunConfig, score
from .store import DB_NAME, Store

FORMAT = "pybcv-run-archive-1"
FILE_NAME = "run.npz"
SQLITE_NAME = DB_NAME                   # the engine's store
CELL_NAMES = ("n00", "n01", "n10", "n11")
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)       # fixed member timestamps: same run, same bytes

RepInfo = Tuple[int, float, int, int, str]


# ------------------------------------------------------------------ writing
def _uint_for(a: np.ndarray) -> np.dtype:
    top = int(a.max()) if a.size else 0
    for dt in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dt).max:
            return np.dtype(dt)
    raise ValueError(f"table counts up to {top} do not fit in 32 bits")


def _pack_tables(design: str, tables) -> Tuple[np.ndarray, dict]:
    """(3, R, F) kept cells and their description, from (R, F, 2, 2) counts."""
    T = np.asarray(tables)
    if T.ndim != 4 or T.shape[2:] != (2, 2):
        raise ValueError(f"tables[{design!r}] must have shape (R, F, 2, 2), got {T.shape}")
    if T.dtype.kind not in "iu":
        raise TypeError(f"tables[{design!r}] must hold integers, got dtype {T.dtype}")
    if T.size and T.min() < 0:
        r, f = np.argwhere(T.min(axis=(2, 3)) < 0)[0]
        raise ValueError(f"tables[{design!r}]: negative count in repetition index {r}, fold {f}")
    R, F = T.shape[:2]
    cells = T.reshape(R, F, 4).astype(np.int64)
    sizes = cells.sum(axis=2)                                   # (R, F)
    fold_sizes = sizes[0] if R else np.zeros(F, np.int64)
    bad = np.argwhere(sizes != fold_sizes)
    if len(bad):
        r, f = bad[0]
        raise ValueError(f"tables[{design!r}]: fold {f} has {sizes[r, f]} records in repetition index {r} "
                         f"but {fold_sizes[f]} in the first; a design's fold sizes are fixed")
    dropped = int(np.argmax(cells.mean(axis=(0, 1)))) if R else 3
    kept = [c for c in range(4) if c != dropped]
    packed = np.moveaxis(cells[:, :, kept], 2, 0)
    packed = np.ascontiguousarray(packed.astype(_uint_for(packed)))
    return packed, {"cells": [CELL_NAMES[c] for c in kept], "dropped_cell": CELL_NAMES[dropped],
                    "fold_sizes": [int(x) for x in fold_sizes]}


def _unpack_tables(packed: np.ndarray, desc: dict) -> np.ndarray:
    """(R, F, 2, 2) int32 counts from the (3, R, F) kept cells."""
    _, R, F = packed.shape
    kept = [CELL_NAMES.index(c) for c in desc["cells"]]
    dropped = CELL_NAMES.index(desc["dropped_cell"])
    cells = np.empty((R, F, 4), np.int32)
    cells[:, :, kept] = np.moveaxis(packed, 0, 2)
    cells[:, :, dropped] = (np.asarray(desc["fold_sizes"], np.int64)[None, :]
                            - packed.astype(np.int64).sum(axis=0))
    return cells.reshape(R, F, 2, 2)


def _write_npz(path: str, members: Dict[str, np.ndarray]):
    """An .npz (zip of .npy, deflate level 9) with fixed timestamps, written atomically."""
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", allowZip64=True) as zf:
        for name, arr in members.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(arr), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=_ZIP_TIME)
            info.external_attr = 0o644 << 16
            zf.writestr(info, buf.getvalue(), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    os.replace(tmp, path)


def _pack_pairs(config: dict, tables, members: dict) -> dict:
    """Add ``pairs/<design>/wrong`` and ``.../gap`` to ``members`` for each
    design whose pair tables follow from the learners' wrong counts (see the
    module docstring); returns {design: {"fold_sizes"}} of those designs."""
    learners = config.get("learners")
    if not isinstance(learners, list) or not tables:
        return {}
    pairs = [p for _, _, p in pair_keys(learners)]
    designs = sorted({key.split("@")[0] for key in tables})
    if set(tables) != {f"{d}@{p}" for d in designs for p in pairs}:
        return {}                          # not exactly every pair's tables on some designs
    idx = [(i, j) for i, j, _ in pair_keys(learners)]
    k = len(learners)
    out = {}
    for d in designs:
        T = np.stack([np.asarray(tables[f"{d}@{p}"], np.int64) for p in pairs])  # (P, R, F, 2, 2)
        if T.shape[1] == 0 or T.min() < 0:
            continue
        wrong = np.zeros((k,) + T.shape[1:3], np.int64)
        for i in range(k):                 # from the first pair that holds learner i
            p, (a, b) = next((p, ab) for p, ab in enumerate(idx) if i in ab)
            wrong[i] = T[p, :, :, 0, :].sum(-1) if a == i else T[p, :, :, :, 0].sum(-1)
        sizes = T[0, 0].sum(axis=(1, 2))
        A, B = np.array([a for a, _ in idx]), np.array([b for _, b in idx])
        gap = np.minimum(wrong[A], wrong[B]) - T[..., 0, 0]
        desc = {"fold_sizes": [int(x) for x in sizes]}
        if gap.min() < 0 or not np.array_equal(_pair_tables(wrong, gap, desc, idx), T):
            continue                       # tables no k learners give: kept whole
        members[f"pairs/{d}/wrong"] = wrong.astype(_uint_for(wrong))
        members[f"pairs/{d}/gap"] = gap.astype(_uint_for(gap))
        out[d] = desc
    return out


def _pair_tables(wrong: np.ndarray, gap: np.ndarray, desc: dict, idx) -> np.ndarray:
    """(P, R, F, 2, 2) int64 tables of the pairs ``idx`` from the learners'
    wrong counts (k, R, F) and the pairs' gaps (P, R, F)."""
    wrong = wrong.astype(np.int64)
    eA, eB = wrong[[a for a, _ in idx]], wrong[[b for _, b in idx]]
    n00 = np.minimum(eA, eB) - gap.astype(np.int64)
    n11 = np.asarray(desc["fold_sizes"], np.int64)[None, None, :] - eA - eB + n00
    return np.stack([np.stack([n00, eA - n00], -1), np.stack([eB - n00, n11], -1)], -2)


def _scores_match(config: dict, tables, results) -> bool:
    """Whether scoring ``tables`` under ``config`` gives ``results`` bit for bit."""
    try:
        got, _ = score(RunConfig(**config), {k: np.asarray(v) for k, v in tables.items()})
    except (ValueError, KeyError, TypeError, AttributeError):
        return False
    return list(got) == list(results) and all(
        _same_floats(got[k][0], results[k][0]) and _same_floats(got[k][1], results[k][1])
        for k in results)


def write_run(folder: str, config: dict, reps, results: Dict[str, Tuple[Sequence[float], Sequence[float]]],
              tables: Optional[Dict[str, np.ndarray]], rep_info: Sequence[RepInfo],
              reps_target: Optional[int] = None, failures: Sequence[dict] = ()) -> str:
    """Write ``folder/run.npz``; returns its path.

    ``reps`` (R,) ascending repetition numbers; ``results`` {test: (statistic[R],
    pvalue[R])}; ``tables`` {design: (R, F, 2, 2) counts} or empty/None (a
    learner-free run); ``rep_info`` one (rep, seconds, fits_a, fits_b, backend)
    per repetition, in the order of ``reps``; ``failures`` the repetitions
    whose learner failed (dicts with rep, learner, design, fold, message, as
    :meth:`pybcv.engine.store.Store.failures` gives them).
    """
    if not isinstance(config, dict):
        raise TypeError(f"config must be a dict (the run's identity), got {type(config).__name__}")
    reps = np.asarray(reps)
    if reps.ndim != 1 or (reps.size and reps.dtype.kind not in "iu"):
        raise ValueError(f"reps must be a 1-d integer array, got shape {reps.shape}, dtype {reps.dtype}")
    reps = reps.astype(np.int64)
    if np.any(np.diff(reps) <= 0):
        raise ValueError("reps must be strictly ascending")
    R = len(reps)
    tests = list(results)
    stat, pval = np.empty((2, len(tests), R), np.float64)
    for i, k in enumerate(tests):
        s, p = (np.asarray(x, dtype=np.float64) for x in results[k])
        if s.shape != (R,) or p.shape != (R,):
            raise ValueError(f"results[{k!r}]: statistic and p-value need shape ({R},), "
                             f"got {s.shape} and {p.shape}")
        stat[i], pval[i] = s, p
    info = list(rep_info)
    if [int(x[0]) for x in info] != reps.tolist():
        raise ValueError("rep_info must hold one (rep, seconds, fits_a, fits_b, backend) per repetition, "
                         "in the order of reps")
    backends = sorted({str(x[4]) for x in info})
    if len(backends) > 255:
        raise ValueError("more than 255 distinct backends in rep_info")
    members: Dict[str, np.ndarray] = {}
    table_meta = {}
    for design, T in (tables or {}).items():
        if "/" in design:
            raise ValueError(f"design name {design!r} must not contain '/'")
        if np.shape(T)[0] != R:
            raise ValueError(f"tables[{design!r}] has {np.shape(T)[0]} repetitions, reps has {R}")
    pair_meta = _pack_pairs(config, tables or {}, members)
    for design, T in sorted((tables or {}).items()):     # a canonical order: same run, same bytes
        if design.split("@")[0] not in pair_meta:
            members["tables/" + design], table_meta[design] = _pack_tables(design, T)
    meta = {"format": FORMAT, "config": config, "reps_target": reps_target, "tests": tests,
            "backends": backends, "tables": table_meta}
    if pair_meta:
        meta["pair_tables"] = pair_meta
        if R and _scores_match(config, tables, results):
            meta["scored"] = True
    if failures:                      # absent when none: a run without failures keeps its bytes
        meta["failures"] = [dict(f) for f in failures]
    code = {b: i for i, b in enumerate(backends)}
    scores = {} if meta.get("scored") else {"statistic": stat, "pvalue": pval}
    members = {"meta": np.frombuffer(json.dumps(meta, sort_keys=True).encode(), np.uint8),
               "reps": reps, **scores,
               "seconds": np.array([float(x[1]) for x in info], np.float64).reshape(R),
               "fits": np.array([[int(x[2]) for x in info], [int(x[3]) for x in info]], np.int64).reshape(2, R),
               "backend": np.array([code[str(x[4])] for x in info], np.uint8).reshape(R),
               **members}
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, FILE_NAME)
    _write_npz(path, members)
    return path


# ------------------------------------------------------------------ reading
def is_run(folder: str) -> bool:
    """True when ``folder`` holds an archived run (``run.npz``)."""
    return os.path.isfile(os.path.join(folder, FILE_NAME))


#: Bound on the bytes an archive's members may inflate to: this many times
#: the file's own size, or MIN_INFLATE_LIMIT, whichever is larger (a genuine
#: run inflates by a factor of about 2-20; a crafted member by thousands).
INFLATE_FACTOR = 100
MIN_INFLATE_LIMIT = 256 * 2 ** 20


class ArchiveError(ValueError):
    """A damaged or hostile archive; the message names the file and the member."""


def read_npz(path: str) -> Dict[str, np.ndarray]:
    """{member: array} of an ``.npz`` file, every member checked before it is
    read: a plain ``.npy`` with a numeric or boolean dtype (no pickle) whose
    stored size matches its header, the members together inflating to at
    most ``max(MIN_INFLATE_LIMIT, INFLATE_FACTOR * file size)`` bytes."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no archive {path}")
    limit = max(MIN_INFLATE_LIMIT, INFLATE_FACTOR * os.path.getsize(path))
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            total = sum(i.file_size for i in infos)
            if total > limit:
                big = max(infos, key=lambda i: i.file_size)
                raise ArchiveError(f"{path}: its members inflate to {total} bytes (member "
                                   f"{big.filename!r}: {big.file_size}), more than the "
                                   f"{limit} allowed for a file of this size; not read")
            out = {}
            for info in infos:
                name = info.filename
                if not name.endswith(".npy") or name[:-4] in out:
                    raise ArchiveError(f"{path}: member {name!r} is not an array of the archive")
                with zf.open(info) as f:
                    try:
                        version = np.lib.format.read_magic(f)
                        shape, fortran, dtype = np.lib.format._read_array_header(f, version)
                        header = f.tell() if f.seekable() else None
                    except (ValueError, EOFError) as e:
                        raise ArchiveError(f"{path}: member {name!r} is not a .npy array "
                                           f"({e})") from None
                if dtype.kind not in "biuf" or dtype.hasobject:
                    raise ArchiveError(f"{path}: member {name!r} has dtype {dtype}, not a "
                                       f"number or boolean array")
                want = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
                if header is not None and info.file_size != header + want:
                    raise ArchiveError(f"{path}: member {name!r}: {info.file_size} bytes, "
                                       f"but its header says {header + want}")
                with zf.open(info) as f:
                    out[name[:-4]] = np.lib.format.read_array(f, allow_pickle=False)
            return out
    except (zipfile.BadZipFile, EOFError, OSError, zlib.error) as e:
        if isinstance(e, FileNotFoundError):
            raise
        raise ArchiveError(f"{path}: not a readable archive ({type(e).__name__}: {e})") from None


def _member(z, path, name, dtype_kinds, shape):
    """Member ``name`` of ``z``, checked: present, dtype kind in
    ``dtype_kinds``, shape ``shape`` (None: any length on that axis)."""
    if name not in z:
        raise ArchiveError(f"{path}: member {name!r} missing")
    a = z[name]
    if a.dtype.kind not in dtype_kinds:
        raise ArchiveError(f"{path}: member {name!r} has dtype {a.dtype}, expected "
                           + {"f": "floats", "iu": "integers", "u": "unsigned integers",
                              "b": "booleans"}.get(dtype_kinds, dtype_kinds))
    if len(a.shape) != len(shape) or any(s is not None and s != t for s, t in zip(shape, a.shape)):
        raise ArchiveError(f"{path}: member {name!r} has shape {a.shape}, expected "
                           f"{tuple('*' if s is None else s for s in shape)}")
    return a


def _meta(z, path) -> dict:
    try:
        meta = json.loads(_member(z, path, "meta", "u", (None,)).tobytes().decode())
    except (UnicodeDecodeError, ValueError) as e:
        if isinstance(e, ArchiveError):
            raise
        raise ArchiveError(f"{path}: member 'meta' is not UTF-8 JSON ({e})") from None
    if not isinstance(meta, dict):
        raise ArchiveError(f"{path}: member 'meta' is not a JSON object")
    if meta.get("format") != FORMAT:
        raise ArchiveError(f"{path}: archive format {meta.get('format')!r}, this pybcv reads {FORMAT!r}")
    for key, kind in {"config": dict, "tests": list, "backends": list, "tables": dict}.items():
        if not isinstance(meta.get(key), kind):
            raise ArchiveError(f"{path}: member 'meta': {key!r} must be a JSON "
                               f"{'object' if kind is dict else 'list'}")
    if not all(isinstance(t, str) for t in meta["tests"]) or len(set(meta["tests"])) != len(meta["tests"]):
        raise ArchiveError(f"{path}: member 'meta': 'tests' must be distinct names")
    if not all(isinstance(b, str) for b in meta["backends"]):
        raise ArchiveError(f"{path}: member 'meta': 'backends' must be names")
    if not isinstance(meta.get("failures", []), list):
        raise ArchiveError(f"{path}: member 'meta': 'failures' must be a list")
    if meta.get("reps_target") is not None and (not isinstance(meta["reps_target"], int)
                                                or meta["reps_target"] < 0):
        raise ArchiveError(f"{path}: member 'meta': 'reps_target' must be a count")
    return meta


def _check_tables(z, path, design, desc, R):
    """The (3, R, F) kept cells of ``design`` (member ``tables/<design>`` of
    ``z``), checked with their description."""
    name = "tables/" + design
    if not isinstance(desc, dict) or not isinstance(desc.get("fold_sizes"), list) \
            or not isinstance(desc.get("cells"), list):
        raise ArchiveError(f"{path}: member 'meta': the table layout of {design!r} is malformed")
    cells = desc["cells"] + [desc.get("dropped_cell")]
    if sorted(map(str, cells)) != sorted(CELL_NAMES):
        raise ArchiveError(f"{path}: member 'meta': the cells of {design!r} must be three of "
                           f"{', '.join(CELL_NAMES)} and the dropped one, got {cells}")
    sizes = desc["fold_sizes"]
    if not sizes or not all(isinstance(x, int) and x >= 0 for x in sizes):
        raise ArchiveError(f"{path}: member 'meta': the fold sizes of {design!r} must be counts")
    packed = _member(z, path, name, "u", (3, R, len(sizes)))
    kept = packed.astype(np.int64).sum(axis=0)
    over = np.argwhere(kept > np.asarray(sizes, np.int64)[None, :])
    if len(over):
        r, f = over[0]
        raise ArchiveError(f"{path}: member {name!r}: repetition index {r}, fold {f}: the "
                           f"counts exceed the fold's {sizes[f]} records")
    return packed


def read_run(folder: str) -> dict:
    """The archived run of ``folder`` as a dict: ``config`` (dict), ``reps``
    (int64 array), ``results`` {test: (statistic, pvalue) float64 arrays},
    ``tables`` {design: (R, F, 2, 2) int32 array} ({} for a learner-free run),
    ``rep_info`` [(rep, seconds, fits_a, fits_b, backend)], ``failures``
    (recorded learner failures), plus ``reps_target``.
    These equal, bit for bit, what :class:`pybcv.engine.store.Store` returns
    from the ``results.sqlite`` the archive was made from.

    Every member is checked before use (:func:`read_npz`: size, dtype; here:
    shapes, ranges, consistency): an :class:`ArchiveError` names the member.
    """
    path = os.path.join(folder, FILE_NAME)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no archived run in {folder} ({FILE_NAME} missing)")
    z = read_npz(path)
    meta = _meta(z, path)
    reps = _member(z, path, "reps", "iu", (None,))
    R, T = len(reps), len(meta["tests"])
    if R and (reps.min() < 0 or np.any(np.diff(reps.astype(np.int64)) <= 0)):
        raise ArchiveError(f"{path}: member 'reps' must hold distinct non-negative "
                           f"repetition numbers in ascending order")
    tables = _read_pairs(z, path, meta, R)
    if meta.get("scored"):
        stat, pval = _rescore(path, meta, tables)
    else:
        stat = _member(z, path, "statistic", "f", (T, R))
        pval = _member(z, path, "pvalue", "f", (T, R))
    for i, k in enumerate(meta["tests"]):
        p = pval[i]
        bad = np.flatnonzero(~np.isnan(p) & ~((p >= 0) & (p <= 1)))
        if len(bad):
            raise ArchiveError(f"{path}: member 'pvalue': test {k!r}, repetition "
                               f"{int(reps[bad[0]])}: p-value {p[bad[0]]!r} outside [0, 1]")
        if R and np.isnan(p).all():
            raise ArchiveError(f"{path}: member 'pvalue': every p-value of test {k!r} is NaN")
    seconds = _member(z, path, "seconds", "f", (R,))
    fits = _member(z, path, "fits", "iu", (2, R))
    backend = _member(z, path, "backend", "u", (R,))
    if R and fits.min() < 0:
        raise ArchiveError(f"{path}: member 'fits': negative fit counts")
    if R and int(backend.max()) >= len(meta["backends"]):
        raise ArchiveError(f"{path}: member 'backend': code {int(backend.max())} but "
                           f"{len(meta['backends'])} backend names")
    for d, desc in meta["tables"].items():
        if not isinstance(d, str) or "/" in d:
            raise ArchiveError(f"{path}: member 'meta': design name {d!r}")
        tables[d] = _unpack_tables(_check_tables(z, path, d, desc, R), desc)
    extra = sorted(set(z) - {"meta", "reps", "statistic", "pvalue", "seconds", "fits", "backend"}
                   - {"tables/" + d for d in meta["tables"]}
                   - {f"pairs/{d}/{m}" for d in meta.get("pair_tables", {}) for m in ("wrong", "gap")})
    if extra:
        raise ArchiveError(f"{path}: unknown member(s) {', '.join(map(repr, extra))}")
    names = meta["backends"]
    rep_info = [(int(r), float(s), int(a), int(b), names[int(c)])
                for r, s, a, b, c in zip(reps, seconds, fits[0], fits[1], backend)]
    return {"config": meta["config"], "reps": reps.astype(np.int64, copy=False),
            "results": {k: (stat[i], pval[i]) for i, k in enumerate(meta["tests"])},
            "tables": tables, "rep_info": rep_info, "reps_target": meta.get("reps_target"),
            "failures": list(meta.get("failures", []))}


def _read_pairs(z, path, meta, R) -> Dict[str, np.ndarray]:
    """{"<design>@<pair>": (R, F, 2, 2) int32} of a k-learner run's
    ``pairs/<design>/...`` members, checked (every cell a count)."""
    pm = meta.get("pair_tables", {})
    if not pm:
        if meta.get("scored"):
            raise ArchiveError(f"{path}: member 'meta': 'scored' without 'pair_tables'")
        return {}
    learners = meta["config"].get("learners")
    if not isinstance(pm, dict) or not isinstance(learners, list) or len(learners) < 2 \
            or not all(isinstance(x, dict) and isinstance(x.get("name"), str) for x in learners):
        raise ArchiveError(f"{path}: member 'meta': 'pair_tables' needs the config's learners")
    keys = pair_keys(learners)
    idx = [(i, j) for i, j, _ in keys]
    out = {}
    for d, desc in pm.items():
        sizes = desc.get("fold_sizes") if isinstance(desc, dict) else None
        if not isinstance(d, str) or "/" in d or not isinstance(sizes, list) or not sizes \
                or not all(isinstance(x, int) and x >= 0 for x in sizes):
            raise ArchiveError(f"{path}: member 'meta': the pair tables of {d!r} are malformed")
        F = len(sizes)
        wrong = _member(z, path, f"pairs/{d}/wrong", "u", (len(learners), R, F))
        gap = _member(z, path, f"pairs/{d}/gap", "u", (len(keys), R, F))
        T = _pair_tables(wrong, gap, desc, idx)
        bad = np.argwhere(T.min(axis=(3, 4)) < 0)
        if len(bad):
            p, r, f = bad[0]
            raise ArchiveError(f"{path}: members 'pairs/{d}/wrong', 'pairs/{d}/gap': pair "
                               f"{keys[p][2]}, repetition index {r}, fold {f}: the counts give "
                               f"a negative table cell")
        for p, (_, _, key) in enumerate(keys):
            out[f"{d}@{key}"] = T[p].astype(np.int32)
    return out


def _rescore(path, meta, tables):
    """(statistic, pvalue) (T, R) of a run whose scores are not kept:
    its tests scored again from its tables."""
    try:
        got, _ = score(RunConfig(**meta["config"]), tables)
        return tuple(np.array([got[k][j] for k in meta["tests"]], np.float64)
                     .reshape(len(meta["tests"]), -1) for j in (0, 1))
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise ArchiveError(f"{path}: member 'meta': its tests cannot be scored from its "
                           f"tables ({type(e).__name__}: {e})") from None


class ArchivedStore:
    """A read-only view of an archived run with the reading methods of
    :class:`pybcv.engine.store.Store` (``config``, ``results``, ``tables``,
    ``rep_info``, ``done``, ``n_done``, ``close``), so that code which reads a
    store reads an archive unchanged."""

    def __init__(self, folder: str):
        self.folder = folder
        self.path = os.path.join(folder, FILE_NAME)
        self._run = read_run(folder)

    def config(self) -> dict:
        return self._run["config"]

    def results(self):
        """(reps, {test: (statistic[R], pvalue[R])}), as ``Store.results``."""
        return self._run["reps"].copy(), {k: (s.copy(), p.copy()) for k, (s, p) in self._run["results"].items()}

    def tables(self, reps=None):
        """(reps, {design: (R, F, 2, 2)}) of every repetition or of ``reps``, as
        ``Store.tables``."""
        if not self._run["tables"]:
            raise ValueError("this run stored no fold tables")
        keep = np.isin(self._run["reps"], self._run["reps"] if reps is None else list(reps))
        return self._run["reps"][keep], {k: v[keep] for k, v in self._run["tables"].items()}

    def rep_info(self) -> List[RepInfo]:
        return list(self._run["rep_info"])

    def done(self) -> set:
        return set(int(r) for r in self._run["reps"])

    def n_done(self) -> int:
        return len(self._run["reps"])

    def failures(self) -> List[dict]:
        return list(self._run["failures"])

    def close(self):
        pass


# ------------------------------------------------------------------ from / to the SQLite store
def read_sqlite(folder: str) -> dict:
    """A ``results.sqlite`` run folder in :func:`read_run`'s form, read from a
    temporary copy (the store's files stay untouched)."""
    src = os.path.join(folder, SQLITE_NAME)
    if not os.path.isfile(src):
        raise FileNotFoundError(f"no simulation store in {folder} ({SQLITE_NAME} missing)")
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in ("", "-wal"):
            if os.path.exists(src + suffix):
                shutil.copy2(src + suffix, os.path.join(tmp, SQLITE_NAME + suffix))
        st = Store(tmp)
        try:
            config = st.config()
            if config is None:
                raise ValueError(f"{src}: no stored configuration")
            reps, results = st.results()
            rep_info = [tuple(x) for x in st.rep_info()]
            failures = st.failures()
            target = st.get_meta("reps_target")
            try:
                t_reps, tables = st.tables()
            except ValueError:                     # no fold tables: the learner-free run only
                if config.get("dataset") != "epsilon":
                    raise ValueError(f"{src}: a learner run without fold tables in some repetition") from None
                t_reps, tables = reps, {}
        finally:
            st.close()
    if not np.array_equal(t_reps, reps):
        raise ValueError(f"{src}: repetitions with tables differ from those with results")
    return {"config": config, "reps": reps, "results": results, "tables": tables,
            "rep_info": rep_info, "reps_target": None if target is None else int(target),
            "failures": failures}


def _same_floats(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return a.shape == b.shape and np.array_equal(a.view(np.uint64), b.view(np.uint64))


def differences(a: dict, b: dict) -> List[str]:
    """What differs between two runs in :func:`read_run`'s form ([] when
    identical: floats compared bit for bit, NaN positions included)."""
    out = []
    if a["config"] != b["config"]:
        out.append("config")
    if not np.array_equal(a["reps"], b["reps"]):
        out.append("reps")
    if list(a["results"]) != list(b["results"]):
        out.append(f"tests: {list(a['results'])} vs {list(b['results'])}")
    for k in set(a["results"]) & set(b["results"]):
        for j, what in enumerate(("statistic", "pvalue")):
            if not _same_floats(a["results"][k][j], b["results"][k][j]):
                out.append(f"{what} of {k}")
    if set(a["tables"]) != set(b["tables"]):
        out.append(f"designs: {sorted(a['tables'])} vs {sorted(b['tables'])}")
    for d in set(a["tables"]) & set(b["tables"]):
        if not np.array_equal(a["tables"][d], b["tables"][d]):
            out.append(f"tables of {d}")
    if len(a["rep_info"]) != len(b["rep_info"]) or any(
            x[0] != y[0] or not _same_floats(x[1], y[1]) or tuple(x[2:]) != tuple(y[2:])
            for x, y in zip(a["rep_info"], b["rep_info"])):
        out.append("rep_info")
    if a.get("failures", []) != b.get("failures", []):
        out.append("failures")
    return out


def from_sqlite(sqlite_folder: str, out_folder: Optional[str] = None) -> str:
    """Convert the ``results.sqlite`` of ``sqlite_folder`` into
    ``out_folder/run.npz`` (default: the same folder), then read the archive
    back and raise ``ValueError`` unless it equals the store bit for bit.
    Returns the archive's path; the store is left in place."""
    src = read_sqlite(sqlite_folder)
    out_folder = sqlite_folder if out_folder is None else out_folder
    path = write_run(out_folder, src["config"], src["reps"], src["results"], src["tables"],
                     src["rep_info"], reps_target=src["reps_target"], failures=src["failures"])
    diff = differences(src, read_run(out_folder))
    if diff:
        raise ValueError(f"{path} does not reproduce {sqlite_folder}/{SQLITE_NAME}: {', '.join(diff)}")
    return path


def to_sqlite(folder: str, out_folder: Optional[str] = None) -> str:
    """Write the archived run of ``folder`` back into a ``results.sqlite``
    store in ``out_folder`` (default: the same folder), so that
    ``pybcv simulate --resume`` can continue or extend it.  Refuses to
    overwrite an existing store."""
    run = read_run(folder)
    out_folder = folder if out_folder is None else out_folder
    if os.path.exists(os.path.join(out_folder, SQLITE_NAME)):
        raise FileExistsError(f"{out_folder} already holds a {SQLITE_NAME}")
    os.makedirs(out_folder, exist_ok=True)
    st = Store(out_folder)
    # A bulk copy of a safe source: no fsync per repetition (a failed copy is removed below).
    st.con.execute("PRAGMA synchronous=OFF")
    ok = False
    try:
        st.init_config(run["config"], resume=False, reps_target=int(run["reps_target"] or len(run["reps"])))
        st.write({"rep": r, "seconds": sec, "fits_a": fa, "fits_b": fb, "backend": be,
                  "results": {k: (s[i], p[i]) for k, (s, p) in run["results"].items()},
                  "tables": {d: T[i] for d, T in run["tables"].items()} or None}
                 for i, (r, sec, fa, fb, be) in enumerate(run["rep_info"]))
        ok = True
    finally:
        st.close()
        if not ok:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(os.path.join(out_folder, SQLITE_NAME + suffix)):
                    os.remove(os.path.join(out_folder, SQLITE_NAME + suffix))
    return os.path.join(out_folder, SQLITE_NAME)
