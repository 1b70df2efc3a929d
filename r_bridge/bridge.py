"""Calls into the embedded R: data sent once, one R call per design.

* :func:`predict_splits` — all fits of a design in ONE call of ``run_batch``
  (``batch.R``); the loop over splits runs in R, which subsets the data set
  (registered once per data set, keyed by a content fingerprint) by index.
* :func:`fit_model` / :func:`predict_model` — one fit and its predictions, for
  a scikit-learn style ``fit`` / ``predict``.  They use the same R fitters as
  the batch loop, so one-by-one fits give the batch's predictions.

Parameters reach R as R vectors in a named list (Weka options as a character
vector), never as R source text.  An R or Java error becomes
:class:`RLearnerError` naming the learner, the fold and R's message; the R
session stays usable.  The fits' R warnings (glm's "fitted probabilities
numerically 0 or 1 occurred") come back as one
:class:`pybcv.errors.FitWarning` per message, naming the learner and the folds.
"""
from __future__ import annotations

import os
import re
import warnings

import numpy as np

from . import session
from .files import r_file
from .convert import Columns, class_codes, dataset_key, to_columns
from .session import RUnavailableError
from pybcv._validate import factor_columns_note
from pybcv.errors import FitWarning, LearnerContext
from pybcv.learners.timelimit import current as current_timeout

# keys: the data sets registered in R, oldest first (a dict used as an ordered
# set); it mirrors batch.R's FIFO of at most max_datasets data sets, so it stays
# bounded in a long-lived process (a simulation sends thousands of data sets).
_env = {"pid": None, "env": None, "fns": None, "keys": {}, "max": 8}

JAVA_PACKAGES = {"RWeka", "rJava", "RWekajars"}

# Names that are another learner of batch.R with fixed Weka options: the name
# table of the bridge.  "J48-unpruned" is C4.5 without pruning, Weka's -U
# (batch.R's own table maps it to a plain, pruned J48).
R_LEARNER_ALIASES = {"J48-unpruned": ("J48", ("-U",))}


def resolve_learner(learner, params):
    """(batch.R learner name, params) for a bridge learner name: an alias of
    :data:`R_LEARNER_ALIASES` becomes its learner with its fixed options
    put first (not repeated when already given)."""
    if learner not in R_LEARNER_ALIASES:
        return learner, params
    base, fixed = R_LEARNER_ALIASES[learner]
    params = dict(params or {})
    opts = params.get("options") or []
    opts = [opts] if isinstance(opts, str) else list(opts)
    params["options"] = [o for o in fixed if o not in opts] + opts
    return base, params


class RLearnerError(LearnerContext, RuntimeError):
    """An R learner failed inside R (an R or Java error).

    Attributes: ``learner`` (name), ``fold`` (1-based fold of the splits
    passed, or None for a single fit/predict), ``n_folds``, ``r_message``
    (R's text), ``stage``, ``java_out_of_memory`` (bool) and ``design`` /
    ``repetition``, which the engine fills with
    ``err.set_context(design=..., repetition=...)`` (the message then names
    them: "R learner 'kknn' failed on fold 3 of 10, design 'cv10',
    repetition 17: ...").
    """

    prefix = "R learner"

    def __init__(self, learner, fold, r_message, n_folds=None, stage=None,
                 java_out_of_memory=False):
        # R breaks a long message onto an indented second line: one line here
        r_message = re.sub(r"\n[ \t]+", " ", str(r_message))
        self.r_message, self.stage = r_message, stage
        self.java_out_of_memory = java_out_of_memory
        RuntimeError.__init__(self, r_message)
        self._place(learner, fold, n_folds, r_message)

    def where(self):
        if self.fold:
            at = f"failed on fold {self.fold}" + (f" of {self.n_folds}" if self.n_folds else "")
        else:
            at = f"failed in {self.stage}" if self.stage else "failed"
        parts = [f"R learner {self.learner!r} {at}"]
        if self.design is not None:
            parts.append(f"design {self.design!r}")
        if self.repetition is not None:
            parts.append(f"repetition {self.repetition}")
        return ", ".join(parts)


# Marks of an exhausted Java heap in the text rJava gives back (after an
# OutOfMemoryError the JVM often cannot even build the exception's text).
_JAVA_OOM_MARKS = ("OutOfMemoryError", "Java heap space", "GC overhead limit",
                   "no description because toString() failed")


def java_out_of_memory(message: str) -> bool:
    """True when R's error text is that of a Java out-of-memory error."""
    return any(m in message for m in _JAVA_OOM_MARKS)


# RWeka's classifyInstances catches a Java error per test record (an
# out-of-memory one included), prints "N instances not classified" and
# returns NaN: batch.R then reports missing predictions.
_UNCLASSIFIED = "the learner returned missing predictions"


def _java_memory_trouble(message: str, packages) -> bool:
    return bool(JAVA_PACKAGES & set(packages)) and (java_out_of_memory(message)
                                                   or message == _UNCLASSIFIED)


def _oom_message(learner, message, heap_mb):
    heap = f"heap {heap_mb} MB" if heap_mb else "heap size unknown"
    if message == _UNCLASSIFIED:
        what = (f"Weka left test records unclassified with {learner} ({heap}); the usual "
                f"cause is that Java ran out of memory")
    else:
        what = f"Java ran out of memory ({heap}) while fitting {learner}"
    return (f"{what}; the bridge freed Java's memory and R stays usable. Give Java a larger "
            f"heap (the environment variable {session.JAVA_HEAP_ENV}=2g, set before Python "
            f"starts) or use smaller data")


def _set_timeout(limit):
    """The per-fit time limit of pybcv (``pybcv.learners.timelimit``) as the R
    option ``pybcv.timeout`` that ``run_batch`` reads (None: NULL, no limit)."""
    import rpy2.rinterface as ri
    ri.baseenv["options"](**{"pybcv.timeout": ri.NULL if limit is None
                             else ri.FloatSexpVector([limit])})


def _r_env():
    """batch.R's functions (rpy2 low-level closures), sourced once per process."""
    with session._lock:
        if _env["env"] is not None and _env["pid"] == os.getpid():
            return _env["fns"]
        session.get_r()
        import rpy2.rinterface as ri
        env = ri.baseenv["new.env"]()
        with session.deferred_sigint():
            ri.baseenv["sys.source"](ri.StrSexpVector([r_file("batch.R")]), envir=env,
                                     **{"keep.source": ri.BoolSexpVector([False])})
        fns = {name: env.find(name) for name in
               ("register_dataset", "run_batch", "fit_model", "predict_model",
                "has_dataset", "clear_datasets")}
        fns["env"] = env
        ri.baseenv["options"](**{"pybcv.stop_file": ri.StrSexpVector([session.stop_file_path()])})
        _env.update(pid=os.getpid(), env=env, fns=fns, keys={},
                    max=int(env.find("max_datasets")[0]))
        return fns


# --------------------------------------------------------------- conversions
def _vec(a):
    import rpy2.rinterface as ri
    a = np.ascontiguousarray(a)
    if a.dtype == np.float64:
        return ri.FloatSexpVector.from_memoryview(memoryview(a))
    if a.dtype == np.int32:
        return ri.IntSexpVector.from_memoryview(memoryview(a))
    raise TypeError(a.dtype)


def _columns_to_r(cols: Columns):
    """(data, is_factor, levels): the predictors as batch.R's functions take them."""
    import rpy2.rinterface as ri
    return (ri.ListSexpVector([_vec(a) for a in cols.data]),
            ri.BoolSexpVector([k == "fac" for k in cols.schema.kinds]),
            ri.ListSexpVector([ri.StrSexpVector(list(lv)) if lv is not None else ri.NULL
                               for lv in cols.schema.levels]))


def r_params(params: dict):
    """A Python dict → a named R list of R values (None entries left out)."""
    import rpy2.rinterface as ri
    keys, vals = [], []
    for k, v in (params or {}).items():
        if v is None:
            continue
        if isinstance(v, (bool, np.bool_)):
            r = ri.BoolSexpVector([bool(v)])
        elif isinstance(v, (int, np.integer)):
            r = ri.IntSexpVector([int(v)])
        elif isinstance(v, (float, np.floating)):
            r = ri.FloatSexpVector([float(v)])
        elif isinstance(v, str):
            r = ri.StrSexpVector([v])
        elif isinstance(v, (list, tuple)) and all(isinstance(e, str) for e in v):
            r = ri.StrSexpVector(list(v))
        else:
            raise TypeError(f"parameter {k}={v!r} cannot be sent to R")
        keys.append(str(k))
        vals.append(r)
    lst = ri.ListSexpVector(vals)
    if keys:
        lst.do_slot_assign("names", ri.StrSexpVector(keys))
    return lst


def _check(learner, packages):
    session.require_r(packages, what=f"R learner {learner!r}")
    if JAVA_PACKAGES & set(packages):
        session.check_java_usable()


def _after(packages):
    if JAVA_PACKAGES & set(packages):
        session.note_java_started()


# --------------------------------------------------------------- entry points
def predict_splits(learner, X, y, splits, params=None, packages=()):
    """Predicted labels (y's values and dtype) for every (train, test) split.

    ``splits``: sequence of (train_idx, test_idx) integer index arrays
    (0-based).  All fits run in one R call.
    """
    _check(learner, packages)
    r_name, params = resolve_learner(learner, params)
    cols = to_columns(X)
    yc = class_codes(y)
    n = len(yc.codes)
    if cols.data and cols.n != n:
        raise ValueError(f"X has {cols.n} rows but y has {n}")
    parts, ntr, nte = [], [], []
    for f, (tr, te) in enumerate(splits):
        tr = np.asarray(tr, dtype=np.int64).ravel()
        te = np.asarray(te, dtype=np.int64).ravel()
        for a, what in ((tr, "train"), (te, "test")):
            if a.size and (a.min() < 0 or a.max() >= n):
                raise IndexError(f"split {f + 1}: {what} index out of range for {n} rows")
        if tr.size == 0:
            raise ValueError(f"split {f + 1}: empty training set")
        parts += [tr, te]
        ntr.append(tr.size)
        nte.append(te.size)
    if not ntr:
        return []
    idx = (np.concatenate(parts) + 1).astype(np.int32)
    key = dataset_key(cols, yc)
    with session._lock:
        fns = _r_env()
        args = (_str(r_name), _str(key), _vec(idx), _vec(np.asarray(ntr, np.int32)),
                _vec(np.asarray(nte, np.int32)), r_params(params))
        def batch():
            if key not in _env["keys"]:
                _register(fns, key, cols, yc)
            limit = current_timeout()      # batch.R applies it to every fold
            if limit is not None:
                _set_timeout(limit)
            try:
                res = _call(learner, fns["run_batch"], *args)
            finally:
                if limit is not None:
                    _set_timeout(None)
            ok, fold, msg = bool(res[0][0]), int(res[1][0]), str(res[2][0])
            if not ok and fold == 0 and msg == "missing dataset":   # evicted on the R side
                _register(fns, key, cols, yc)
                res = _call(learner, fns["run_batch"], *args)
                ok, fold, msg = bool(res[0][0]), int(res[1][0]), str(res[2][0])
            return res, ok, fold, msg

        res, ok, fold, msg = batch()
        _after(packages)
        if not ok and _java_memory_trouble(msg, packages):
            # free what R holds in Java (the cached data sets' Weka Instances),
            # then retry once: the data of earlier calls may have filled the heap
            clear_cache()
            heap = session.java_recover()
            res, ok, fold2, msg2 = batch()
            if ok:
                warnings.warn(f"R learner {learner!r}, fold {fold} of {len(ntr)}: "
                              + _oom_message(learner, msg, heap).split(";")[0]
                              + "; the bridge freed Java's memory and retried, which succeeded",
                              RuntimeWarning, stacklevel=2)
            else:
                if _java_memory_trouble(msg2, packages):
                    clear_cache()
                    heap = session.java_recover() or heap
                    raise RLearnerError(learner, fold2 or None, _oom_message(learner, msg2, heap),
                                        n_folds=len(ntr), java_out_of_memory=True)
                fold, msg = fold2, msg2
        if not ok:
            if "needs numeric predictors" in msg:       # R sees x1, x2, ...: name them here
                msg += factor_columns_note(X, [k == "fac" for k in cols.schema.kinds])
            if (params or {}).get("options") and msg.startswith("java."):
                # a Java exception (JRip's -F 0: "/ by zero"): say the Weka options it ran with
                msg += f" (with the Weka options {' '.join(map(str, params['options']))})"
            raise RLearnerError(learner, fold or None, msg, n_folds=len(ntr),
                                stage=None if fold else "the R batch call")
        codes = np.asarray(res[3].memoryview(), dtype=np.int64) - 1
        warned = {}                     # the fits' R warnings: {message: folds}
        for msg, f in (zip(res[4], res[5]) if len(res) > 5 else ()):
            warned.setdefault(str(msg), set()).add(int(f))
    if codes.size != sum(nte):
        raise RLearnerError(learner, None, f"R returned {codes.size} predictions, "
                            f"expected {sum(nte)}", stage="the R batch call")
    if codes.size and (codes.min() < 0 or codes.max() >= len(yc.classes)):
        raise RLearnerError(learner, None, f"R returned class codes outside 1..{len(yc.classes)}",
                            stage="the R batch call")
    for msg, folds in warned.items():     # once per message; a comparison says them per design
        warnings.warn(FitWarning(learner, folds, len(ntr), msg), stacklevel=2)
    labels = yc.classes[codes]
    return np.split(labels, np.cumsum(nte)[:-1])


def weka_jvm_runs() -> dict:
    """How many designs each Weka learner ran inside the JVM (the fast path
    of ``weka_jvm.R`` with the Weka helper jar) in this process's R, e.g.
    ``{"J48": 3}``; empty before R ran a Weka learner, or when the jar is
    missing (R then says so once and the learners use RWeka's interface).
    Does not start R."""
    with session._lock:
        if _env["env"] is None or _env["pid"] != os.getpid():
            return {}
        jvm = _env["fns"]["env"].find("weka_jvm")
    import rpy2.rinterface as ri
    if jvm is ri.NULL:
        return {}
    runs = jvm.find("jvm_state").find("runs")
    names = list(runs.names) if runs.names is not ri.NULL else []
    return {str(k): int(v) for k, v in zip(names, runs)}


def _call(learner, fn, *args):
    """``fn(*args)`` in R, interruptible by Ctrl-C (KeyboardInterrupt once R
    has returned); an R error escaping batch.R's own handlers (it should
    not) becomes RLearnerError."""
    from rpy2.rinterface_lib.embedded import RRuntimeError
    with session.interruptible():
        try:
            return fn(*args)
        except RRuntimeError as e:
            err = RLearnerError(learner, None, str(e).strip(), stage="R")
    raise err


def _str(s):
    import rpy2.rinterface as ri
    return ri.StrSexpVector([s])


def _register(fns, key, cols, yc):
    import rpy2.rinterface as ri
    fns["register_dataset"](_str(key), *_columns_to_r(cols), _vec(yc.codes),
                            ri.StrSexpVector(list(yc.levels)))
    keys = _env["keys"]
    keys.pop(key, None)           # register_dataset moves the key to the newest end
    keys[key] = None
    while len(keys) > _env["max"]:     # R evicted the oldest ones
        del keys[next(iter(keys))]


class RModel:
    """A model fitted in R (kept on the R side) with what predict() needs."""

    def __init__(self, learner, robj, schema, classes, packages):
        self.learner, self.robj, self.schema = learner, robj, schema
        self.classes, self.packages = classes, tuple(packages)
        self.pid = os.getpid()

    def __getstate__(self):
        d = dict(self.__dict__)
        d["robj"] = None          # R objects do not pickle; refit after unpickling
        return d


def fit_model(learner, X, y, params=None, packages=()):
    """Fit once in R on (X, y); returns an :class:`RModel`."""
    _check(learner, packages)
    r_name, params = resolve_learner(learner, params)
    cols = to_columns(X)
    yc = class_codes(y)
    if cols.data and cols.n != len(yc.codes):
        raise ValueError(f"X has {cols.n} rows but y has {len(yc.codes)}")
    import rpy2.rinterface as ri
    with session._lock:
        fns = _r_env()
        res = _call(learner, fns["fit_model"], _str(r_name), *_columns_to_r(cols),
                    _vec(yc.codes), ri.StrSexpVector(list(yc.levels)), r_params(params))
        _after(packages)
        if not bool(res[0][0]):
            msg = str(res[1][0])
            if _java_memory_trouble(msg, packages):
                clear_cache()
                heap = session.java_recover()
                raise RLearnerError(learner, None, _oom_message(learner, msg, heap),
                                    stage="fit", java_out_of_memory=True)
            raise RLearnerError(learner, None, msg, stage="fit")
        return RModel(learner, res[2], cols.schema, yc.classes, packages)


def predict_model(model: RModel, X):
    """Labels predicted by an :class:`RModel` for X."""
    if model.robj is None or model.pid != os.getpid():
        raise RuntimeError(f"the R model of {model.learner!r} lives in another process "
                           "(pickled or forked); fit it again in this process")
    _check(model.learner, model.packages)
    cols = to_columns(X, schema=model.schema)
    with session._lock:
        fns = _r_env()
        res = _call(model.learner, fns["predict_model"], model.robj, *_columns_to_r(cols))
        if not bool(res[0][0]):
            raise RLearnerError(model.learner, None, str(res[1][0]), stage="predict")
        codes = np.asarray(res[2].memoryview(), dtype=np.int64) - 1
    return model.classes[codes]


_weka_checked: dict = {}


def check_weka_options(learner, options, packages=("RWeka",), name=None):
    """Check Weka ``options`` (a list of strings) of Weka learner ``learner``
    (J48, JRip, SMO, Logistic, or a bridge alias such as J48-unpruned)
    before any fit: Weka's own ``setOptions`` on a fresh classifier.
    ValueError naming the learner, the options and Weka's reason
    ("Illegal options: -Z", a NumberFormatException, ...).  Cached per
    process.  ``name``: the learner's name in the message (default ``learner``)."""
    r_name, params = resolve_learner(learner, {"options": list(options or [])})
    opts = tuple(str(o) for o in params.get("options") or ())
    key = (r_name, opts)
    if key in _weka_checked:
        problem = _weka_checked[key]
    else:
        _check(learner, packages)
        import rpy2.rinterface as ri
        with session._lock:
            ro = session.get_r()
            f = ro.r("""function(fname, opts) tryCatch({
              cls <- RWeka:::Weka_object_for_name(RWeka:::get_Java_class(fname), NULL)
              rJava::.jcall(cls, "V", "setOptions", rJava::.jarray(opts), check = FALSE)
              ex <- rJava::.jgetEx(clear = TRUE)
              if (is.null(ex)) "" else rJava::.jcall(ex, "S", "toString")
            }, error = function(e) conditionMessage(e))""")
            with session.interruptible():
                problem = str(f(ri.StrSexpVector([r_name]), ri.StrSexpVector(list(opts)))[0])
            _after(packages)
        _weka_checked[key] = problem
    if problem:
        problem = problem.replace("java.lang.Exception: ", "")
        raise ValueError(f"learner {name or learner!r}: Weka rejects the options {list(opts)}: "
                         f"{problem}")


def clear_cache():
    """Forget the data sets held in R (they are re-sent on demand)."""
    with session._lock:
        if _env["env"] is not None and _env["pid"] == os.getpid():
            _env["fns"]["clear_datasets"]()
        _env["keys"] = {}
