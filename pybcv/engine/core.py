"""The simulation engine: data set -> shared partition designs -> one fit
per design and learner -> fold tables -> every selected test.

* :func:`simulate` runs repetitions (in-process, joblib processes or a
  dask.distributed cluster), writes each finished repetition durably
  (:mod:`pybcv.engine.store`) and resumes killed runs.
* :func:`compare` runs the battery once on real data (two learners on X, y).
* :func:`compare_losses` does the same from fixed per-record losses (users'
  saved predictions of two already trained models).
"""
from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import dataclass, field, asdict
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .. import datasets as _ds
from ..outcomes import tables_from_predictions
from ..partitions import DESIGNS
from ..stats import TESTS, designs_for, profile_options, resolve_tests
from . import fast, seeds
from .store import ConfigMismatch, Store  # noqa: F401  (ConfigMismatch re-exported)

ALPHA = 0.05

# The paper's learners per data set (A, B) and their defaults.
PAPER_LEARNERS = {
    "simple": ({"name": "glm"}, {"name": "majority"}),
    "exp6": ({"name": "J48-unpruned"}, {"name": "fnn-weighted", "omega": 0.29}),
    "letter": ({"name": "tree"}, {"name": "fnn-distorted", "upsilon": 30.09}),
}


# ------------------------------------------------------------------ learners
def learner_spec(x) -> Optional[dict]:
    """A learner spec dict {"name": ..., **params} from a name, "name:k=v,..." or dict."""
    if x is None:
        return None
    if isinstance(x, dict):
        if "name" not in x:
            raise ValueError(f"learner spec needs a 'name': {x!r}")
        return dict(x)
    if isinstance(x, str):
        name, _, rest = x.partition(":")
        d: Dict[str, Any] = {"name": name.strip()}
        for kv in filter(None, (s.strip() for s in rest.split(","))):
            k, eq, v = kv.partition("=")
            if not eq:
                raise ValueError(f"learner parameter {kv!r}: write name:param=value")
            try:
                d[k.strip()] = json.loads(v)
            except ValueError:
                d[k.strip()] = v.strip()
        return d
    raise TypeError(f"learner must be a name or a spec dict, got {type(x).__name__}")


_LEARNER_CACHE: Dict[str, Any] = {}


def make(spec: dict, backend: str = "auto"):
    """Build (and cache per process) the learner of a spec."""
    key = json.dumps([spec, backend], sort_keys=True)
    if key not in _LEARNER_CACHE:
        import warnings
        from ..learners import make_learner
        params = {k: v for k, v in spec.items() if k != "name"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            _LEARNER_CACHE[key] = make_learner(spec["name"], backend=backend, **params)
    return _LEARNER_CACHE[key]


class _Counting:
    """Wraps a learner and counts its fits (one per split)."""

    def __init__(self, learner):
        self.learner = learner
        self.fits = 0

    def predict_splits(self, X, y, splits):
        self.fits += len(splits)
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return self.learner.predict_splits(X, y, splits)

    @property
    def backend_(self):
        return getattr(self.learner, "backend_", "python")


def _flat(lists) -> list:
    return [x for sub in lists for x in sub]


def _cut(T: np.ndarray, names, split_lists) -> Dict[str, np.ndarray]:
    """{design: its rows of the (sum F, 2, 2) tables of all designs}."""
    out, i = {}, 0
    for name, sl in zip(names, split_lists):
        out[name] = T[i:i + len(sl)]
        i += len(sl)
    return out


def predict_designs(learner, X, y, split_lists, names) -> List[list]:
    """Predictions of every design's splits from ONE ``predict_splits`` call
    (one batch; for an R learner one call into R), cut back per design.

    When the batch fails, each design is run alone so that the error that
    propagates names its design (as a note) and its fold within the design."""
    flat = [sp for sl in split_lists for sp in sl]
    try:
        pred = learner.predict_splits(X, y, flat)
    except Exception as exc:
        for name, sl in zip(names, split_lists):
            try:
                learner.predict_splits(X, y, sl)
            except Exception as e:
                e.add_note(f"(partition design {name!r})")
                raise
        raise exc
    return list(_cut(pred, range(len(split_lists)), split_lists).values())


# ------------------------------------------------------------------ config
@dataclass
class RunConfig:
    """What defines a run's results (its identity), plus how to run it."""
    dataset: str
    tests: List[str]
    seed: int = 0
    n: Optional[int] = None
    data_params: Dict[str, Any] = field(default_factory=dict)
    learner_a: Optional[dict] = None
    learner_b: Optional[dict] = None
    profile: str = "default"
    backend: str = "auto"
    share_designs: bool = True

    def __post_init__(self):
        self.dataset = str(self.dataset).lower()
        if self.dataset not in _ds.GENERATORS:
            raise ValueError(f"unknown data set {self.dataset!r}; known: {', '.join(_ds.GENERATORS)}")
        self.tests = resolve_tests(self.tests)
        if self.n is None:
            self.n = _ds.DEFAULT_N[self.dataset]
        if self.dataset != "epsilon":
            pa, pb = PAPER_LEARNERS[self.dataset]
            self.learner_a = learner_spec(self.learner_a) or dict(pa)
            self.learner_b = learner_spec(self.learner_b) or dict(pb)
        else:
            self.learner_a = self.learner_b = None
            if self.backend in ("auto", "r", "python"):
                self.backend = "auto"     # no learner: the backend plays no part
        profile_options(self.profile)  # validates
        if self.backend not in ("auto", "r", "python"):
            raise ValueError(f"backend must be auto, r or python, got {self.backend!r}")
        if int(self.seed) < 0:
            raise ValueError("seed must be a non-negative integer")
        self.seed = int(self.seed)

    @property
    def learner_free(self) -> bool:
        return self.dataset == "epsilon"

    def identity(self) -> dict:
        d = asdict(self)
        return json.loads(json.dumps(d, sort_keys=True))

    def options(self) -> Dict[str, dict]:
        po = profile_options(self.profile)
        return {k: po.get(k, {}) for k in self.tests}

    def units(self) -> List[Tuple[str, str]]:
        """(unit, design) pairs to fit: one per design when shared, else one per test."""
        if self.share_designs:
            return [(d, d) for d in designs_for(self.tests)]
        return [(k, TESTS[k].design) for k in self.tests]

    def unit_of(self, test: str) -> str:
        return TESTS[test].design if self.share_designs else test

    def unit_rng(self, r: int, unit: str):
        if self.share_designs:
            return seeds.rng(seeds.design_seq(self.seed, r, unit))
        return seeds.rng(seeds.test_seq(self.seed, r, unit))

    def dataset_for(self, r: int) -> "_ds.Dataset":
        return _ds.make_dataset(self.dataset, seeds.data_seq(self.seed, r), n=self.n, **self.data_params)


def _score(cfg: RunConfig, tables: Dict[str, np.ndarray], options=None) -> Dict[str, Tuple[np.ndarray, np.ndarray]]:
    """{test: (stat[R], p[R])} from {unit: (R, F, 2, 2)} tables."""
    options = cfg.options() if options is None else options
    out = {}
    for k in cfg.tests:
        C = tables[cfg.unit_of(k)]
        ntr, nte = DESIGNS[TESTS[k].design].sizes(cfg.n)
        out[k] = TESTS[k].batch(C, ntr, nte, **options.get(k, {}))
    return out


# ------------------------------------------------------------------ one chunk of repetitions
def run_chunk(cfg_dict: dict, reps: Sequence[int]) -> List[dict]:
    """Run repetitions ``reps`` (a worker's unit of work); returns one row per repetition."""
    cfg = RunConfig(**cfg_dict)
    if cfg.learner_free:
        return _chunk_losses(cfg, reps)
    return [_rep_learners(cfg, r) for r in reps]


def _chunk_losses(cfg: RunConfig, reps) -> List[dict]:
    t0 = time.perf_counter()
    R = len(reps)
    codes = np.empty((R, cfg.n), np.int64)
    for i, r in enumerate(reps):
        d = cfg.dataset_for(r)
        codes[i] = 2 * d.loss_a.astype(np.int64) + d.loss_b
    tables = {u: fast.tables_batch(des, codes, [cfg.unit_rng(r, u) for r in reps])
              for u, des in cfg.units()}
    res = _score(cfg, tables)
    sec = (time.perf_counter() - t0) / max(R, 1)
    return [{"rep": int(r), "results": {k: (res[k][0][i], res[k][1][i]) for k in cfg.tests},
             "seconds": sec, "fits_a": 0, "fits_b": 0, "backend": "none"}
            for i, r in enumerate(reps)]


def _rep_learners(cfg: RunConfig, r: int, store_tables: bool = True) -> dict:
    t0 = time.perf_counter()
    d = cfg.dataset_for(r)
    la = _Counting(make(cfg.learner_a, cfg.backend))
    lb = _Counting(make(cfg.learner_b, cfg.backend))
    units = cfg.units()
    split_lists = [DESIGNS[des].splits(d.n, cfg.unit_rng(r, unit)) for unit, des in units]
    if cfg.share_designs:       # the union of designs: one batch per learner
        pa = predict_designs(la, d.X, d.y, split_lists, [u for u, _ in units])
        pb = predict_designs(lb, d.X, d.y, split_lists, [u for u, _ in units])
    else:                       # each test on its own: one batch per test
        pa = [la.predict_splits(d.X, d.y, sl) for sl in split_lists]
        pb = [lb.predict_splits(d.X, d.y, sl) for sl in split_lists]
    tables = _cut(tables_from_predictions(d.y, _flat(pa), _flat(pb), _flat(split_lists)),
                  [u for u, _ in units], split_lists)
    res = _score(cfg, {u: t[None] for u, t in tables.items()})
    return {"rep": int(r), "results": {k: (float(s[0]), float(p[0])) for k, (s, p) in res.items()},
            "seconds": time.perf_counter() - t0, "fits_a": la.fits, "fits_b": lb.fits,
            "backend": f"{la.backend_}/{lb.backend_}",
            "tables": tables if store_tables else None}


# ------------------------------------------------------------------ progress
class Progress:
    def __init__(self, total: int, done: int = 0, stream=None, enabled=True, label="reps"):
        self.total, self.done, self.t0 = total, done, time.time()
        self.start_done = done
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.label = label
        self._last = 0.0
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def update(self, k: int):
        self.done += k
        now = time.time()
        if not self.enabled or (now - self._last < (0.2 if self.tty else 5.0) and self.done < self.total):
            return
        self._last = now
        el = now - self.t0
        new = self.done - self.start_done
        eta = el / new * (self.total - self.done) if new else float("nan")
        w = 30
        fill = int(w * self.done / max(self.total, 1))
        line = (f"[{'#' * fill}{'.' * (w - fill)}] {self.done}/{self.total} {self.label} "
                f"{el:6.1f} s elapsed, ETA {eta:6.1f} s")
        self.stream.write(("\r" + line) if self.tty else (line + "\n"))
        self.stream.flush()

    def close(self):
        if self.enabled and self.tty:
            self.stream.write("\n")
            self.stream.flush()


# ------------------------------------------------------------------ simulate
@dataclass
class SimulationResult:
    config: RunConfig
    reps: np.ndarray
    statistic: Dict[str, np.ndarray]
    pvalue: Dict[str, np.ndarray]
    fits_per_rep: Tuple[float, float] = (0.0, 0.0)
    seconds_per_rep: float = 0.0
    backends: Tuple[str, ...] = ()
    out: Optional[str] = None

    def rejection_rate(self, alpha: float = ALPHA) -> Dict[str, float]:
        return {k: float(np.mean(self.pvalue[k] < alpha)) for k in self.config.tests}

    def summary(self, alpha: float = ALPHA):
        """pandas DataFrame, one row per test."""
        import pandas as pd
        rows = []
        R = len(self.reps)
        for k in self.config.tests:
            p = self.pvalue[k]
            rate = float(np.mean(p < alpha)) if R else float("nan")
            rows.append({"test": k, "name": TESTS[k].name, "family": TESTS[k].family,
                         "rejection_rate": rate, "mc_se": math.sqrt(rate * (1 - rate) / R) if R else float("nan"),
                         "reps": R, "alpha": alpha,
                         "mean_statistic": float(np.nanmean(np.where(np.isfinite(self.statistic[k]),
                                                                     self.statistic[k], np.nan)))
                         if R else float("nan"),
                         "dataset": self.config.dataset, "profile": self.config.profile,
                         "param": json.dumps(self.config.data_params or
                                             {k2: v for k2, v in (self.config.learner_b or {}).items()
                                              if k2 != "name"}),
                         "learner_a": (self.config.learner_a or {}).get("name", ""),
                         "learner_b": (self.config.learner_b or {}).get("name", ""),
                         "backend": ",".join(self.backends), "seed": self.config.seed})
        return pd.DataFrame(rows)


def _chunks(todo: List[int], size: int) -> List[List[int]]:
    return [todo[i:i + size] for i in range(0, len(todo), size)]


def default_chunk(cfg: RunConfig, reps: int, jobs: int) -> int:
    if cfg.learner_free:
        return max(1, min(500, math.ceil(reps / max(jobs, 1))))
    if cfg.dataset == "simple":
        return 4
    return 1


def simulate(dataset: str = "epsilon", tests="table5", reps: int = 1000, seed: int = 0,
             jobs: int = 1, out: Optional[str] = None, resume: bool = False,
             scheduler: Optional[str] = None, profile: str = "default", backend: str = "auto",
             learner_a=None, learner_b=None, n: Optional[int] = None,
             data_params: Optional[dict] = None, share_designs: bool = True,
             progress: bool = False, chunk: Optional[int] = None,
             max_reps_this_call: Optional[int] = None, dask_client=None) -> SimulationResult:
    """Run ``reps`` repetitions of the type-I/power experiment on ``dataset``.

    ``out``: folder for the durable store (``results.sqlite``) and
    ``summary.csv``; ``resume=True`` continues a stored run (refused when the
    configuration differs).  ``jobs`` > 1 uses joblib processes;
    ``scheduler`` (an address) or ``dask_client`` uses dask.distributed.
    Results depend only on the configuration and the seed, never on ``jobs``,
    chunking or order.  ``max_reps_this_call`` stops early (to test resume).
    """
    if isinstance(reps, bool) or not isinstance(reps, (int, np.integer)) or reps < 1:
        raise ValueError(f"reps must be an integer >= 1, got {reps!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    cfg = RunConfig(dataset=dataset, tests=tests, seed=seed, n=n, data_params=dict(data_params or {}),
                    learner_a=learner_a, learner_b=learner_b, profile=profile, backend=backend,
                    share_designs=share_designs)
    store = None
    done: set = set()
    mem: List[dict] = []
    if out is not None:
        os.makedirs(out, exist_ok=True)
        if not os.access(out, os.W_OK):
            raise PermissionError(f"output folder is not writable: {out}")
        store = Store(out)
        store.init_config(cfg.identity(), resume, int(reps))
        done = store.done()
    todo = [r for r in range(int(reps)) if r not in done]
    if max_reps_this_call is not None:
        todo = todo[:max_reps_this_call]
    size = chunk or default_chunk(cfg, len(todo), jobs)
    chunks = _chunks(todo, size)
    bar = Progress(int(reps), len(done & set(range(int(reps)))), enabled=progress)
    cfg_dict = asdict(cfg)

    def sink(rows):
        if store is not None:
            if cfg.learner_free:
                for row in rows:
                    row.pop("tables", None)
            store.write(rows)
        else:
            mem.extend(rows)
        bar.update(len(rows))

    try:
        if scheduler is not None or dask_client is not None:
            _run_dask(cfg_dict, chunks, sink, scheduler, dask_client)
        elif jobs == 1 or len(chunks) <= 1:
            for c in chunks:
                sink(run_chunk(cfg_dict, c))
        else:
            _run_joblib(cfg_dict, chunks, sink, jobs)
    finally:
        bar.close()
    if store is not None:
        res = load_result(out, store=store, cfg=cfg)
        store.close()
        write_summary(res, out)
        return res
    mem.sort(key=lambda row: row["rep"])
    return _result_from_rows(cfg, mem)


def _run_joblib(cfg_dict, chunks, sink, jobs):
    from joblib import Parallel, delayed
    wave = jobs * 2
    with Parallel(n_jobs=jobs, backend="loky") as par:
        for i in range(0, len(chunks), wave):
            for rows in par(delayed(run_chunk)(cfg_dict, c) for c in chunks[i:i + wave]):
                sink(rows)


def _run_dask(cfg_dict, chunks, sink, scheduler, client=None):
    from distributed import Client, as_completed
    own = client is None
    if own:
        client = Client(scheduler)
    try:
        futs = [client.submit(run_chunk, cfg_dict, c, pure=False) for c in chunks]
        for fut in as_completed(futs):
            sink(fut.result())
    finally:
        if own:
            client.close()


def _result_from_rows(cfg: RunConfig, rows: List[dict], out=None) -> SimulationResult:
    reps = np.array([row["rep"] for row in rows], dtype=np.int64)
    stat = {k: np.array([row["results"][k][0] for row in rows], float) for k in cfg.tests}
    pv = {k: np.array([row["results"][k][1] for row in rows], float) for k in cfg.tests}
    fa = float(np.mean([row["fits_a"] for row in rows])) if rows else 0.0
    fb = float(np.mean([row["fits_b"] for row in rows])) if rows else 0.0
    sec = float(np.mean([row["seconds"] for row in rows])) if rows else 0.0
    be = tuple(sorted({row["backend"] for row in rows}))
    return SimulationResult(cfg, reps, stat, pv, (fa, fb), sec, be, out)


def load_result(out: str, store: Optional[Store] = None, cfg: Optional[RunConfig] = None,
                profile: Optional[str] = None) -> SimulationResult:
    """Read a stored run.  ``profile`` other than the run's re-scores the tests
    from the stored fold tables (learner runs) or recomputes them (epsilon)."""
    own = store is None
    if own:
        if not os.path.exists(os.path.join(out, "results.sqlite")):
            raise FileNotFoundError(f"no simulation results in {out} (results.sqlite missing)")
        store = Store(out)
    try:
        if cfg is None:
            c = store.config()
            if c is None:
                raise ValueError(f"{out}: no stored configuration")
            cfg = RunConfig(**c)
        reps, res = store.results()
        info = store.rep_info()
        if profile is not None and profile != cfg.profile:
            cfg2 = RunConfig(**{**asdict(cfg), "profile": profile})
            if cfg.learner_free:
                rows = run_chunk(asdict(cfg2), list(map(int, reps)))
                res = {k: (np.array([r_["results"][k][0] for r_ in rows]),
                           np.array([r_["results"][k][1] for r_ in rows])) for k in cfg2.tests}
            else:
                reps, tabs = store.tables()
                res = _score(cfg2, tabs)
            cfg = cfg2
    finally:
        if own:
            store.close()
    stat = {k: res[k][0] for k in cfg.tests if k in res}
    pv = {k: res[k][1] for k in cfg.tests if k in res}
    fa = float(np.mean([i[2] for i in info])) if info else 0.0
    fb = float(np.mean([i[3] for i in info])) if info else 0.0
    sec = float(np.mean([i[1] for i in info])) if info else 0.0
    be = tuple(sorted({i[4] for i in info}))
    return SimulationResult(cfg, reps, stat, pv, (fa, fb), sec, be, out)


def write_summary(res: SimulationResult, out: str, name: str = "summary.csv"):
    df = res.summary()
    path = os.path.join(out, name)
    tmp = path + ".tmp"
    df.to_csv(tmp, index=False)
    os.replace(tmp, path)
    return path


# ------------------------------------------------------------------ compare
@dataclass
class Comparison:
    """Results of one comparison: ``results`` {test: TestResult}, the fold
    tables per design, and the 5x2 BCV averaged / effective tables."""
    results: Dict[str, Any]
    tables: Dict[str, np.ndarray]
    averaged_table: np.ndarray
    effective_table: np.ndarray
    bcv_t: float
    learner_a: str = ""
    learner_b: str = ""
    backends: Tuple[str, str] = ("", "")
    profile: str = "default"
    n: int = 0
    error_a: float = float("nan")
    error_b: float = float("nan")

    def summary(self, alpha: float = ALPHA):
        import pandas as pd
        return pd.DataFrame([{"test": k, "name": r.method, "statistic": r.statistic, "df": r.df,
                              "pvalue": r.pvalue, "reject": r.rejects(alpha)}
                             for k, r in self.results.items()])


def _bcv_tables(C: np.ndarray, rho1=0.5, rho2=0.5):
    from ..stats import bcv_t
    avg = C.reshape(-1, 2, 2).mean(0)
    t = bcv_t(5, rho1, rho2)
    return avg, t * avg, t


def _compare_from_tables(tables, n, tests, profile, **meta) -> Comparison:
    keys = resolve_tests(tests)
    po = profile_options(profile)
    results = {}
    for k in keys:
        des = TESTS[k].design
        ntr, nte = DESIGNS[des].sizes(n)
        results[k] = TESTS[k].from_tables(tables[des], ntr, nte, **po.get(k, {}))
    avg, eff, t = _bcv_tables(tables["bcv5x2"], **{o: v for o, v in po.get("mcnemar_5x2bcv", {}).items()
                                                  if o in ("rho1", "rho2")})
    all_folds = tables.get("cv10")
    ea = eb = float("nan")
    if all_folds is not None:
        s = all_folds.sum(0)
        ea, eb = (s[0, 0] + s[0, 1]) / s.sum(), (s[0, 0] + s[1, 0]) / s.sum()
    return Comparison(results, tables, avg, eff, t, profile=profile, n=n, error_a=float(ea),
                      error_b=float(eb), **meta)


def compare(X, y, learner_a="J48-unpruned", learner_b="fnn-weighted", tests="all", seed: int = 0,
            profile: str = "default", backend: str = "auto") -> Comparison:
    """Compare two learners on (X, y): every selected test (all 17 by default)
    plus the 5x2 BCV averaged and effective tables.  Learners: a registry
    name, ``"name:param=value"``, a spec dict, or any object with
    ``predict_splits`` / a scikit-learn classifier.  Each design is fitted
    once per learner; design ``d`` uses the stream ``(seed, rep 0, d)``."""
    from ..learners import as_learner
    keys = resolve_tests(tests)
    data = _ds.from_arrays(X, y)

    def build(x):
        if isinstance(x, (str, dict)):
            return make(learner_spec(x), backend)
        return as_learner(x)

    la, lb = _Counting(build(learner_a)), _Counting(build(learner_b))
    designs = designs_for(keys)
    if "bcv5x2" not in designs:
        designs.append("bcv5x2")
    split_lists = [DESIGNS[d].splits(data.n, seeds.rng(seeds.design_seq(seed, 0, d))) for d in designs]
    pa = predict_designs(la, data.X, data.y, split_lists, designs)
    pb = predict_designs(lb, data.X, data.y, split_lists, designs)
    tables = _cut(tables_from_predictions(data.y, _flat(pa), _flat(pb), _flat(split_lists)),
                  designs, split_lists)
    return _compare_from_tables(tables, data.n, keys, profile,
                                learner_a=_label(learner_a), learner_b=_label(learner_b),
                                backends=(la.backend_, lb.backend_))


def compare_losses(loss_a, loss_b, tests="all", seed: int = 0, profile: str = "default") -> Comparison:
    """The battery from fixed per-record 0-1 losses of two trained models
    (learner-free: every partition reads the same losses)."""
    la = np.asarray(loss_a).astype(np.int64)
    lb = np.asarray(loss_b).astype(np.int64)
    if la.shape != lb.shape or la.ndim != 1:
        raise ValueError("loss_a and loss_b must be 1-d arrays of the same length")
    if not (np.isin(la, (0, 1)).all() and np.isin(lb, (0, 1)).all()):
        raise ValueError("losses must be 0/1")
    keys = resolve_tests(tests)
    designs = designs_for(keys)
    if "bcv5x2" not in designs:
        designs.append("bcv5x2")
    codes = (2 * la + lb)[None]
    tables = {d: fast.tables_batch(d, codes, [seeds.rng(seeds.design_seq(seed, 0, d))])[0] for d in designs}
    return _compare_from_tables(tables, la.size, keys, profile, learner_a="A (losses)",
                                learner_b="B (losses)", backends=("none", "none"))


def _label(x):
    if isinstance(x, str):
        return x
    if isinstance(x, dict):
        return x.get("name", "?") + "".join(f" {k}={v}" for k, v in x.items() if k != "name")
    return type(x).__name__


def fit_counts(tests="table5", share_designs: bool = True, n: int = 300) -> int:
    """Fits per learner and repetition for a set of tests."""
    keys = resolve_tests(tests)
    if share_designs:
        return sum(DESIGNS[d].n_splits(n) for d in designs_for(keys))
    return sum(DESIGNS[TESTS[k].design].n_splits(n) for k in keys)
