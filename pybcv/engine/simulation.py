"""The type-I error / power simulation: :func:`simulate` runs the
repetitions of a :class:`~pybcv.engine.config.RunConfig` (in-process, joblib
processes or a dask.distributed cluster), stores each finished repetition
durably (:mod:`pybcv.engine.store`), resumes killed runs, and returns a
:class:`SimulationResult`.  :func:`load_result` reads a stored run (a
``results.sqlite`` folder or a compact archive folder, :mod:`pybcv.engine.archive`).

Results depend only on the configuration and the seed, never on the number
of processes, the chunking or the order of execution.
"""
from __future__ import annotations

import csv
import json
import math
import os
import re
import sys
import time
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple
from urllib.parse import urlparse

import numpy as np
from tqdm import tqdm

from .._deferred import deferred
from ..fold_tables import BATCH_VALUES
from ..errors import ConfigMismatch
from ..interrupts import workers_deaf
from ..learners import LEARNERS
from ..learners.base import r_problem
from ..stats import TESTS
from . import archive
from .config import RunConfig, score
from ..learners.timelimit import check_timeout
from .repetition import Repetition, learner_free_batch, run_chunk
from .store import DB_NAME, Store, config_differences

pd = deferred("pandas")     # imported on first use: 0.2 s of start-up (_deferred.py)
_socket = deferred("socket")  # to check a scheduler's address

ALPHA = 0.05
#: Seconds a dask scheduler's address may take to answer before a run gives up on it.
SCHEDULER_TIMEOUT_S = 5.0
RESCORE_CHUNK = 500      # learner-free repetitions redrawn at a time when a run is read
#: Finished repetitions are committed to the store together, at most this many
#: seconds after the first of them finished (and at the end, and on Ctrl-C):
#: one transaction and fsync per batch instead of per repetition.  A run
#: killed outright loses at most the repetitions of the last COMMIT_EVERY_S
#: seconds and the chunks in flight; ``resume`` recomputes them identically.
COMMIT_EVERY_S = 1.0


@dataclass
class SimulationResult:
    """Per-repetition statistics and p-values of a run, with its summary.

    ``interval``: {test: (low[R], high[R])}, the 95% confidence intervals of
    mu_A - mu_B where the statistics provide them (for the CI coverage).
    ``failures``: repetitions whose learner failed (dicts with rep, learner,
    design, fold, message); they have no results and are left out of every
    rate, and :meth:`summary` counts them (``failed_reps``)."""
    config: RunConfig
    reps: np.ndarray
    statistic: Dict[str, np.ndarray]
    pvalue: Dict[str, np.ndarray]
    fits_per_rep: Tuple[float, float] = (0.0, 0.0)
    seconds_per_rep: float = 0.0
    backends: Tuple[str, ...] = ()
    out: Optional[str] = None
    interval: Dict[str, Tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    failures: List[dict] = field(default_factory=list)

    def rejection_rate(self, alpha: float = ALPHA) -> Dict[str, float]:
        """{test: share of p-values below ``alpha``} (NaN without a finished repetition)."""
        if not len(self.reps):
            return {k: float("nan") for k in self.config.keys()}
        return {k: float(np.mean(self.pvalue[k] < alpha)) for k in self.config.keys()}

    def coverage(self) -> Dict[str, float]:
        """{test: share of 95% intervals that contain the true mu_A - mu_B}
        where the true difference is known (every H0 point: 0) and the test
        has an interval; empty otherwise.  An empty interval (NaN: the F
        tests reject at every shift) misses the truth; one-sided intervals
        (an infinite end) are not scored."""
        truth = self.config.true_difference()
        if truth is None:
            return {}
        out, options = {}, self.config.options()
        for k, (lo, hi) in self.interval.items():
            if not TESTS[k.split("@")[0]].gives_interval(**options.get(k.split("@")[0], {})):
                continue
            scored = ~(np.isinf(lo) | np.isinf(hi))
            if scored.any():
                out[k] = float(np.mean(((lo <= truth) & (truth <= hi))[scored]))
        return out

    def summary(self, alpha: float = ALPHA):
        """pandas DataFrame, one row per test (a k-learner run: per test and
        pair, the pair's learners in ``learner_a``, ``learner_b``;
        ``ci_coverage``: NaN where unknown)."""
        return pd.DataFrame(self.summary_rows(alpha))

    def summary_rows(self, alpha: float = ALPHA) -> List[dict]:
        """The rows of :meth:`summary` as dicts (what ``summary.csv`` holds;
        no pandas needed)."""
        R = len(self.reps)
        cov = self.coverage()
        cfg = self.config
        names = {p: (cfg.learners[i]["name"], cfg.learners[j]["name"]) for i, j, p in cfg.pairs()}
        rows = []
        for key in cfg.keys():
            k, _, pair = key.partition("@")
            rate = float(np.mean(self.pvalue[key] < alpha)) if R else float("nan")
            stat = self.statistic[key]
            a, b = names.get(pair, ((cfg.learner_a or {}).get("name", ""),
                                    (cfg.learner_b or {}).get("name", "")))
            rows.append({"test": k, "name": TESTS[k].name, "family": TESTS[k].family,
                         "rejection_rate": rate,
                         "mc_se": math.sqrt(rate * (1 - rate) / R) if R else float("nan"),
                         "reps": R, "failed_reps": len(self.failures), "alpha": alpha,
                         "mean_statistic": float(np.nanmean(np.where(np.isfinite(stat), stat, np.nan)))
                         if R else float("nan"),
                         "ci_coverage": cov.get(key, float("nan")),
                         "dataset": cfg.dataset, "profile": cfg.profile,
                         "param": json.dumps(cfg.data_params or
                                             {k2: v for k2, v in (cfg.learner_b or {}).items()
                                              if k2 != "name"}),
                         "learner_a": a, "learner_b": b,
                         "backend": ",".join(self.backends), "seed": cfg.seed})
        return rows

    def to_json(self, alpha: float = ALPHA) -> dict:
        """One machine-readable object: the configuration and per-test rates."""
        return {"config": self.config.identity(), "reps": int(len(self.reps)), "alpha": alpha,
                "failures": list(self.failures),
                "fits_per_rep": list(self.fits_per_rep), "backends": list(self.backends),
                "tests": {row["test"]: {"rejection_rate": row["rejection_rate"],
                                        "mc_se": row["mc_se"],
                                        "ci_coverage": None if math.isnan(row["ci_coverage"])
                                        else row["ci_coverage"]}
                          for row in self.summary_rows(alpha)}}


def default_chunk(cfg: RunConfig, reps: int, jobs: int) -> int:
    """Repetitions per unit of work: the record's ``chunk``, else ~reps/jobs
    up to 500 for learner-free runs (fewer for large n: a chunk's per-record
    arrays within ``fold_tables.BATCH_VALUES``) and 1 for learner runs."""
    if cfg.experiment.chunk is not None:
        return cfg.experiment.chunk
    if cfg.learner_free:       # and a chunk's (R, n) losses within BATCH_VALUES whatever n
        return max(1, min(500, math.ceil(reps / max(jobs, 1)), BATCH_VALUES // max(cfg.n, 1)))
    return 1


def _positive_int(x, name):
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {x!r}")
    return int(x)


def simulate(config, reps: int = 1000, *, jobs: int = 1, out: Optional[str] = None,
             resume: bool = False, progress: bool = False, scheduler=None,
             chunk: Optional[int] = None, stop_after: Optional[int] = None,
             timeout: Optional[float] = None, **config_fields) -> SimulationResult:
    """Run ``reps`` repetitions of the experiment ``config``.

    ``config``: a :class:`RunConfig`, or a data set name with the RunConfig
    fields as keywords (``simulate("simple", reps=8, seed=5, backend="python")``).
    ``out``: folder for the durable store (``results.sqlite``) and
    ``summary.csv``; ``resume=True`` continues a stored run (refused when the
    configuration differs).  ``jobs`` > 1: joblib processes; ``scheduler``:
    a dask.distributed address (reached before anything is written,
    :func:`connect_scheduler`) or Client.  ``progress``: a tqdm bar on
    stderr.  ``chunk``: repetitions per unit of work; ``stop_after``: run at
    most this many repetitions in this call (the rest on ``resume``).
    ``timeout``: seconds one fit may take; a repetition with a longer fit is
    recorded as failed, naming the learner, design and fold (not part of the
    configuration: a resumed run may use another).

    >>> res = simulate("epsilon", reps=20, seed=1, tests=["mcnemar_5x2bcv"])
    >>> len(res.reps), res.config.n
    (20, 300)
    """
    if isinstance(config, RunConfig):
        if config_fields:
            raise TypeError(f"give either a RunConfig or keywords, not both: {sorted(config_fields)}")
        cfg = config
    else:
        config_fields.setdefault("tests", "table5")
        config_fields["data_params"] = dict(config_fields.get("data_params") or {})
        cfg = RunConfig(dataset=config, **config_fields)
    reps = _positive_int(reps, "reps")
    jobs = _positive_int(jobs, "jobs")
    timeout = check_timeout(timeout)
    with ExitStack() as own:
        if isinstance(scheduler, str):      # reached before anything is written
            scheduler = own.enter_context(connect_scheduler(scheduler))
        return _simulate(cfg, reps, jobs, out, resume, progress, scheduler, chunk, stop_after,
                         timeout)


def _simulate(cfg, reps, jobs, out, resume, progress, scheduler, chunk, stop_after, timeout):
    store = None
    done: set = set()
    finished: List[Repetition] = []
    if out is not None:
        if _curve_points(out):
            raise ConfigMismatch(f"{out} holds a power curve (its points in param=... folders): "
                                 f"choose another --out folder for a single run")
        os.makedirs(out, exist_ok=True)
        if not os.access(out, os.W_OK):
            raise PermissionError(f"output folder is not writable: {out}")
        store = Store(out)
        if resume and store.check_config(cfg.identity(), resume):
            _check_auto_backends(cfg, store)       # before anything is written
        store.init_config(cfg.identity(), resume, reps)
        done = store.settled()          # finished, or recorded as failed
    todo = [r for r in range(reps) if r not in done]
    if stop_after is not None:
        todo = todo[:stop_after]
    size = chunk or default_chunk(cfg, len(todo), jobs)
    chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
    bar = tqdm(total=reps, initial=len(done & set(range(reps))), disable=not progress,
               unit="rep", desc=cfg.dataset, file=sys.stderr, dynamic_ncols=True)
    cfg_dict = asdict(cfg)
    pending: List[dict] = []            # finished, not yet committed
    since = [0.0]                       # when the oldest pending repetition finished
    intervals_now: Dict[int, dict] = {}  # this call's intervals (not stored): not recomputed

    def commit():
        if pending:
            store.write(pending)
            pending.clear()

    def keep(records: List[Repetition]):
        if store is not None:
            if not pending:
                since[0] = time.monotonic()
            pending.extend(rec.as_row() for rec in records if rec.failure is None)
            failed = [rec for rec in records if rec.failure is not None]
            if failed or time.monotonic() - since[0] >= COMMIT_EVERY_S:
                commit()
            for rec in failed:
                f = rec.failure
                store.record_failure(rec.rep, f["message"], learner=f["learner"],
                                     design=f["design"], fold=f["fold"])
            intervals_now.update((rec.rep, rec.intervals) for rec in records
                                 if rec.failure is None and rec.intervals is not None)
        else:
            finished.extend(records)
        bar.update(len(records))

    try:
        if scheduler is not None:
            _run_dask(cfg_dict, chunks, keep, scheduler, timeout)
        elif jobs == 1 or len(chunks) <= 1:
            for c in chunks:
                keep(run_chunk(cfg, c, timeout))
        else:
            _run_joblib(cfg_dict, chunks, keep, jobs, timeout)
    except BaseException:
        if store is not None:
            try:
                commit()                # Ctrl-C or a failing worker: keep what finished
            except Exception:
                pass                    # the store itself failed: its error is the one raised
            store.close()
        raise
    finally:
        bar.close()
    if store is not None:
        commit()
        res = load_result(out, store=store, cfg=cfg, known_intervals=intervals_now)
        store.close()
        write_summary(res, out)
        return res
    finished.sort(key=lambda rec: rec.rep)
    ok = [rec for rec in finished if rec.failure is None]
    res = _result_from_parts(
        cfg, [rec.rep for rec in ok],
        {k: tuple([rec.results[k][j] for rec in ok] for j in (0, 1)) for k in cfg.keys()},
        [(rec.rep, rec.seconds, rec.fits_a, rec.fits_b, rec.backend) for rec in ok], None, None,
        None, known_intervals={rec.rep: rec.intervals or {} for rec in ok})
    res.failures = [{"rep": rec.rep, **rec.failure} for rec in finished if rec.failure is not None]
    return res


def _auto_backend(spec: Optional[dict]) -> Optional[str]:
    """Where a learner of ``spec`` runs under backend="auto" now: "r" where R
    and its packages are usable, else "python" (scikit-learn estimators and
    Python-only learners: "python"); None when unknown."""
    name = (spec or {}).get("name")
    if name not in LEARNERS:
        return "python" if isinstance(name, str) and "." in name else None
    entry = LEARNERS[name]
    return "r" if entry.has_r and r_problem(entry.r_packages, f"learner {name!r}") is None \
        else "python"


def _check_auto_backends(cfg: RunConfig, store: Store) -> None:
    """--resume of a backend="auto" run: refused when its stored repetitions
    ran their learners elsewhere (R, or the Python stand-ins) than this
    process would, so that one run never mixes the two (they give other
    numbers)."""
    if cfg.backend != "auto" or cfg.learner_free or cfg.learners:
        return
    now = [_auto_backend(cfg.learner_a), _auto_backend(cfg.learner_b)]
    if None in now:
        return
    stored = {row[4] for row in store.rep_info()} - {"", "none"}
    if stored and stored != {"/".join(now)}:
        raise ConfigMismatch(
            f"cannot resume {store.folder}: its repetitions ran the learners on "
            f"{', '.join(sorted(stored))} (A/B) and this process would run them on "
            f"{'/'.join(now)} (backend auto: R is {'' if 'r' in now else 'un'}available here); "
            f"resume where the stored backend is available, or give --backend and a new --out")


def _curve_points(out: str) -> List[str]:
    """The point folders (``param=<value>`` holding a store) under ``out``."""
    if not os.path.isdir(out):
        return []
    return sorted(f for f in os.listdir(out) if f.startswith("param=")
                  and os.path.exists(os.path.join(out, f, DB_NAME)))


def _check_curve_root(config: RunConfig, out: str) -> None:
    """A curve's root holds one curve: no single run, and every point stored
    there of this configuration (at its own value), so that ``report``
    reads one curve; ConfigMismatch otherwise, before any work."""
    if os.path.exists(os.path.join(out, DB_NAME)):
        raise ConfigMismatch(f"{out} holds a single run: choose another --out folder for a "
                             f"power curve")
    e = config.experiment
    for f in _curve_points(out):
        st = Store(os.path.join(out, f), readonly=True)
        try:
            stored = st.config() or {}
        finally:
            st.close()
        holder = stored.get("data_params") if e.varies == "data" else stored.get("learner_b")
        value = (holder or {}).get(e.varied)      # the exact value (the folder name rounds it)
        if not isinstance(value, (int, float)) or curve_folder(value) != f:
            raise ConfigMismatch(f"{out} holds a power curve of another configuration ({f}: no "
                                 f"{e.varied} of {e.name} stored): choose another --out folder")
        details = config_differences(stored, config.at(value).identity())
        if details:
            raise ConfigMismatch(f"{out} holds a power curve of another configuration ({f}: "
                                 f"{details}): choose another --out folder")


def check_curve_values(values: Sequence[float]) -> None:
    """ValueError when two values of a curve share a point folder
    (:func:`curve_folder`): each point once."""
    seen: Dict[str, float] = {}
    for v in values:
        if seen.setdefault(curve_folder(v), v) != v:
            raise ValueError(f"--param: {seen[curve_folder(v)]:g} and {v:g} are the same point "
                             f"(folder {curve_folder(v)}): give each value once")


def curve_folder(value: float) -> str:
    """The folder of a power curve's point ``value`` under the curve's root
    (values that print alike under ``%g`` share it)."""
    return f"param={value:g}"


def simulate_curve(config: RunConfig, values: Sequence[float], reps: int = 1000, *, out: str,
                   announce=None, **options) -> List[Tuple[float, SimulationResult]]:
    """The power curve of ``config``'s experiment: one run per value of its
    varied parameter (:meth:`RunConfig.at`), each stored in
    ``out/param=<value>`` with its ``summary.csv``, and ``out/power.csv``
    (every point's summary with ``param_name``, ``param_value``).  One value:
    one run stored in ``out`` itself.  ``announce(value, folder)`` is called
    before each point; ``options`` go to :func:`simulate`.

    >>> import tempfile
    >>> runs = simulate_curve(RunConfig("epsilon", ["mcnemar_ho"]), [0.1, 0.2], reps=3,
    ...                       out=tempfile.mkdtemp())
    >>> [(v, len(r.reps)) for v, r in runs]
    [(0.1, 3), (0.2, 3)]
    """
    check_curve_values(values)
    configs = [(v, config.at(v)) for v in values]          # every point checked first
    if len(configs) == 1 and not _curve_points(out):       # (one more point of a stored curve: below)
        return [(configs[0][0], simulate(configs[0][1], reps, out=out, **options))]
    _check_curve_root(config, out)
    for v, cfg in configs:          # stored points: each may start or resume, before any work
        db = os.path.join(out, curve_folder(v), DB_NAME)
        if os.path.exists(db):
            st = Store(os.path.dirname(db), readonly=True)
            try:
                if st.check_config(cfg.identity(), bool(options.get("resume"))):
                    _check_auto_backends(cfg, st)
            finally:
                st.close()
    runs = []
    for v, cfg in configs:
        folder = os.path.join(out, curve_folder(v))
        if announce is not None:
            announce(v, folder)
        runs.append((v, simulate(cfg, reps, out=folder, **options)))
    # power.csv: every point of the curve stored here, this call's and earlier ones
    ran = {curve_folder(v) for v, _ in runs}
    points = list(runs) + [(res.config.varied_value(), res) for res in
                           (load_result(os.path.join(out, f)) for f in _curve_points(out) if f not in ran)]
    write_rows([{"param_name": config.experiment.varied, "param_value": v, **row}
                for v, res in sorted(points, key=lambda p: p[0]) for row in res.summary_rows()],
               os.path.join(out, "power.csv"))
    return runs


def _started():
    """A task that only makes its worker process exist."""
    return None


def _run_joblib(cfg_dict, chunks, keep, jobs, timeout=None):
    from joblib import Parallel, delayed
    wave = jobs * 2
    with ExitStack() as stack:
        par = None
        try:
            with workers_deaf():    # the workers and their helpers, started here, ignore Ctrl-C
                par = stack.enter_context(Parallel(n_jobs=jobs, backend="loky"))
                par(delayed(_started)() for _ in range(jobs))
            for i in range(0, len(chunks), wave):
                for records in par(delayed(run_chunk)(cfg_dict, c, timeout)
                                   for c in chunks[i:i + wave]):
                    keep(records)
        except BaseException:
            backend = getattr(par, "_backend", None)     # the deaf workers: stopped now
            if backend is not None and getattr(backend, "_workers", None) is not None:
                backend.abort_everything(ensure_ready=False)
            raise


def check_scheduler(scheduler, name: str = "scheduler"):
    """A dask scheduler given as an address is reached before any work
    (:func:`connect_scheduler`, the client closed again); a
    ``distributed.Client`` or ``None`` passes as it is."""
    if isinstance(scheduler, str):
        connect_scheduler(scheduler, name).close()


def connect_scheduler(address: str, name: str = "scheduler"):
    """A ``distributed.Client`` of the dask scheduler at ``address``:
    ``tcp://host:port`` or ``tls://host:port`` (``host:port`` reads as tcp)
    must accept a connection and answer as a dask scheduler within
    :data:`SCHEDULER_TIMEOUT_S`, else ``ValueError`` (not an address) or
    ``ConnectionError``, naming ``name`` and the address.  ``inproc://``
    addresses (a cluster in this process) are left to dask."""
    from distributed import Client
    if not address.startswith("inproc://"):
        try:
            u = urlparse(address if "://" in address else "tcp://" + address)
            host, port = u.hostname, u.port
        except ValueError:
            host = port = None
        if u.scheme not in ("tcp", "tls") or not host or port is None:
            raise ValueError(f"{name}: give an address as tcp://host:port, got {address!r}")
        try:
            _socket.create_connection((host, port), timeout=SCHEDULER_TIMEOUT_S).close()
        except OSError as e:
            raise ConnectionError(f"{name}: cannot reach {address} within {SCHEDULER_TIMEOUT_S:g} s "
                                  f"({e.strerror or e or 'timed out'})") from None
    try:
        return Client(address, timeout=f"{SCHEDULER_TIMEOUT_S:g}s")
    except (OSError, TimeoutError) as e:     # something listens there, not a dask scheduler
        raise ConnectionError(f"{name}: no dask scheduler answered at {address} within "
                              f"{SCHEDULER_TIMEOUT_S:g} s ({e})") from None


def _run_dask(cfg_dict, chunks, keep, client, timeout=None):
    from distributed import as_completed
    futures = [client.submit(run_chunk, cfg_dict, c, timeout, pure=False) for c in chunks]
    for fut in as_completed(futures):
        try:
            recs = fut.result()
        except ModuleNotFoundError as e:     # its name may not survive the trip: the text
            name = e.name or "".join(re.findall(r"No module named '([^']+)'", str(e))[:1])
            if name.split(".")[0] != "pybcv":
                raise
            what = ("cannot import pybcv" if name == "pybcv" else
                    f"has another or an incomplete pybcv (no {name})")
            raise ModuleNotFoundError(
                f"a dask worker of the scheduler {what} ({e}): start the workers with a Python "
                f"that has this pybcv installed (python -m distributed.cli.dask_worker "
                f"<address>, with that python)", name=name) from None
        keep(recs)


def _run_facts(info):
    """(fits per repetition (A, B), seconds per repetition, backends) of the
    rows (rep, seconds, fits_a, fits_b, backend) of the repetitions."""
    mean = (lambda j: float(np.mean([i[j] for i in info])) if info else 0.0)
    return (mean(2), mean(3)), mean(1), tuple(sorted({i[4] for i in info}))


def is_stored_run(folder: str) -> bool:
    """True for a ``results.sqlite`` folder or a compact archive folder."""
    return os.path.exists(os.path.join(folder, DB_NAME)) or archive.is_run(folder)


def load_result(out: str, store: Optional[Store] = None, cfg: Optional[RunConfig] = None,
                profile: Optional[str] = None,
                known_intervals: Optional[Dict[int, dict]] = None) -> SimulationResult:
    """Read a stored run: a ``results.sqlite`` folder or a compact archive
    folder (``pybcv.engine.archive.read_run``).  ``profile`` other than the run's
    re-scores the tests from the stored fold tables (learner runs, and
    learner-free runs with ``keep_tables``) or redraws them (other
    learner-free runs)."""
    own = store is None
    if own:
        if os.path.exists(os.path.join(out, DB_NAME)):
            store = Store(out, readonly=True)   # reading a run never writes it
        elif archive.is_run(out):
            store = archive.ArchivedStore(out)
        else:
            raise FileNotFoundError(f"no simulation results in {out} ({DB_NAME} missing)")
    try:
        if cfg is None:
            c = store.config()
            if c is None:
                raise ValueError(f"{out}: no stored configuration")
            cfg = RunConfig(**c)
        reps, res = store.results()
        result = _result_from_parts(cfg, reps, res, store.rep_info(),
                                    lambda sel: store.tables(sel)[1], out, profile, known_intervals)
        result.failures = store.failures()
        return result
    finally:
        if own:
            store.close()


def _result_from_parts(cfg, reps, res, info, tables, out, profile,
                       known_intervals=None) -> SimulationResult:
    """A SimulationResult from a run's parts; ``tables(reps)`` gives the
    stored {unit: (r, F, 2, 2)} tables of repetitions ``reps`` (a
    ValueError when the run stored none); a learner-free run without them
    redraws them from the seed.  Both RESCORE_CHUNK repetitions at a time
    (memory bounded in the repetitions): the intervals, and the tests
    re-scored under another ``profile``.  ``known_intervals`` {rep: {test:
    (low, high)}}: those that need not be recomputed (this process's
    :func:`simulate` computed them)."""
    need_rescore = profile is not None and profile != cfg.profile
    if need_rescore:
        cfg = RunConfig(**{**asdict(cfg), "profile": profile})
    reps = [int(r) for r in reps]
    redraw = cfg.learner_free and not cfg.keep_tables
    known = {} if need_rescore else (known_intervals or {})
    rescored, ci = {}, {}

    def put(into, k, j, a, b):
        if k not in into:
            into[k] = (np.full(len(reps), np.nan), np.full(len(reps), np.nan))
        into[k][0][j], into[k][1][j] = a, b
    have = [j for j, r in enumerate(reps) if r in known]
    for k in dict.fromkeys(k for j in have for k in known[reps[j]]):
        lohi = np.array([known[reps[j]].get(k, (np.nan, np.nan)) for j in have], float)
        put(ci, k, have, lohi[:, 0], lohi[:, 1])
    todo = [j for j, r in enumerate(reps) if r not in known]
    for i in range(0, len(todo), RESCORE_CHUNK):
        idx = todo[i:i + RESCORE_CHUNK]
        sel = [reps[j] for j in idx]
        try:
            tabs = None if redraw else tables(sel)
        except ValueError:
            if need_rescore:
                raise                       # no stored tables: nothing to re-score
            ci = {}                         # no stored tables: no intervals
            break
        tabs = learner_free_batch(cfg, sel) if redraw else tabs
        r_, c_ = score(cfg, tabs)
        for into, part in ((rescored, r_), (ci, c_)):
            for k, (a, b) in part.items():
                put(into, k, idx, a, b)
    if need_rescore:
        res = rescored
    empty = (np.empty(0), np.empty(0))     # no finished repetition (every one failed)
    stat = {k: np.asarray(res.get(k, empty)[0], float) for k in cfg.keys()}
    pv = {k: np.asarray(res.get(k, empty)[1], float) for k in cfg.keys()}
    return SimulationResult(cfg, np.asarray(reps, np.int64), stat, pv,
                            *_run_facts([tuple(i) for i in info]), out, ci)


def write_rows(rows: List[dict], path: str) -> str:
    """``rows`` (dicts with the same keys) as a CSV file at ``path``, written
    as pandas' ``DataFrame(rows).to_csv(index=False)`` writes it (a NaN or
    None an empty cell, a float its shortest repr), replacing the file only
    once complete."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as fh:      # a handle: a path like file:x is no URL
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(list(rows[0]) if rows else [])
        w.writerows([["" if v is None or (isinstance(v, float) and math.isnan(v)) else v
                      for v in r.values()] for r in rows])
    os.replace(tmp, path)
    return path


def write_summary(res: SimulationResult, out: str, name: str = "summary.csv"):
    return write_rows(res.summary_rows(), os.path.join(out, name))
