"""The learner protocol, the registry by name, and wrappers.

Protocol: a learner is a scikit-learn classifier (``fit``, ``predict``,
``get_params``, ``set_params``; works with ``sklearn.base.clone``) that also has

    predict_splits(X, y, splits) -> list of numpy arrays

returning, for each ``(train_idx, test_idx)`` pair of integer index arrays,
the labels predicted for ``X[test_idx]`` by a model fitted on
``X[train_idx], y[train_idx]`` (same label values and dtype as ``y``).
After ``fit`` or ``predict_splits`` it exposes ``backend_`` ("r" or "python"),
the backend that actually ran.  A learner that can predict probabilities
(a scikit-learn classifier with ``predict_proba``) also has
``predict_proba_splits(X, y, splits)``: per split an array (test records x
the sorted labels of y), read by the log loss (docs/guide/losses.md).

The named learners of the paper (:data:`LEARNERS`) each take a ``backend``:
"r" (the paper's R implementation through :mod:`r_bridge`; an error naming
the missing piece when R or an R package is absent), "python" (the pure
Python fallback of the same name) or "auto" (R when available, otherwise the
fallback, with a warning once per learner).
"""
from __future__ import annotations

import difflib
import importlib
import inspect
import json
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

import numpy as np

from .._validate import keep_init_args
from . import fallbacks as _py
from ..experiments import BACKENDS
from . import cnn as _cnn
from ..errors import FitError, FitWarning, LearnerContext, LearnerInputError, TextColumnsError
from .fallbacks import BaseEstimator, ClassifierMixin, _not_fitted, take_rows
from .importpath import (check_import_params, estimator_from_path, is_import_path,
                         parse_import_spec, spec_params)
from .timelimit import FitTimeout, one_fit
from .noisy import VIEW_PARAMS, NoisyLearner
from .predictions import check_predictions
from .rlearners import RClassifier
from .spec import check_param, weka_options
from .._deferred import deferred

pd = deferred("pandas")     # imported on first use: 0.2 s of start-up (_deferred.py)

SETUP_COMMAND = "bash scripts/setup.sh"
_warned = set()


@dataclass(frozen=True)
class LearnerSpec:
    """A registry entry: what the learner is and how each backend runs it."""
    name: str
    description: str
    r_implementation: str
    python_fallback: type
    estimator: type                      # the named estimator class (has ``backend``)
    r_packages: tuple = ()
    init: dict = field(default_factory=dict)     # fixed constructor arguments

    @property
    def has_r(self) -> bool:
        """Whether an R implementation exists ("none: ..." says there is none)."""
        return not self.r_implementation.startswith("none")

    @property
    def params(self) -> dict:
        """The parameters and their defaults: the estimator's signature, less
        ``backend`` and the fixed ``init`` arguments."""
        sig = inspect.signature(self.estimator.__init__).parameters.values()
        return {p.name: p.default for p in sig
                if p.name not in ("self", "backend", *self.init) and p.default is not p.empty}


def _check_backend(backend):
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")


def r_problem(packages, what):
    """None when R and ``packages`` are usable, else the reason (a string)."""
    try:
        from r_bridge.session import JavaHeapError, RUnavailableError, require_r
    except ImportError as e:  # pragma: no cover - r_bridge ships with pybcv
        return f"r_bridge cannot be imported ({e})"
    try:
        require_r(packages, what=what)
    except JavaHeapError:
        raise                   # the user's setting is wrong: say so, never fall back quietly
    except RUnavailableError as e:
        return str(e)
    return None


class NamedLearner(ClassifierMixin, BaseEstimator):
    """Base of the paper's named learners: dispatches to the R implementation
    or the Python fallback according to ``backend``."""

    _registry_name = None    # overridden

    def __init__(self, backend="auto"):       # a learner without parameters
        self.backend = backend

    # -- what subclasses provide
    @property
    def name(self):
        return self._registry_name

    def _r_params(self):
        return {}

    def _validate(self):
        """Check every parameter (:data:`pybcv.learners.spec.PARAM_CHECKS`)
        and, for ``backend="python"``, that the fallback can honour them."""
        for k, v in self.get_params(deep=False).items():
            if k != "backend":
                check_param(self.name, k, v)
        if self.backend == "python":
            self._checked_fallback()

    def _checked_fallback(self):
        """The Python twin (:mod:`pybcv.learners.fallbacks`), which takes this
        learner's parameters by the same names, ``backend`` aside."""
        params = self.get_params(deep=False)
        del params["backend"]
        fb = LEARNERS[self.name].python_fallback(**params)
        if hasattr(fb, "check_options"):
            fb.check_options()       # a Weka option it cannot honour: ValueError naming it
        return fb

    # -- dispatch
    def _resolve(self):
        """(implementation estimator, backend name) for the configured backend."""
        _check_backend(self.backend)
        self._validate()
        spec = LEARNERS[self.name]
        if self.backend in ("r", "auto"):
            problem = r_problem(spec.r_packages, f"learner {self.name!r} with backend='r'")
            if problem is None:
                self._check_r_params()
                return (RClassifier(self._r_learner_name(), self._r_params(),
                                    spec.r_packages), "r")
            if self.backend == "r":
                from r_bridge.session import RUnavailableError
                msg = problem if SETUP_COMMAND in problem else f"{problem} (run: {SETUP_COMMAND})"
                raise RUnavailableError(msg)
            key = (self.name, problem)
            if key not in _warned:
                _warned.add(key)
                warnings.warn(
                    f"learner {self.name!r}: the R backend is unavailable ({problem}); "
                    f"backend='auto' uses the Python fallback "
                    f"{spec.python_fallback.__name__}, whose results differ from the "
                    f"paper's R learner. Check the learner's backend_ attribute.",
                    RuntimeWarning, stacklevel=3)
        return self._checked_fallback(), "python"

    def _r_learner_name(self):
        return self.name

    def _check_r_params(self):
        """Checks of the parameters that only the R side can make (before any fit)."""

    def fit(self, X, y):
        impl, backend = self._resolve()
        self.estimator_ = impl.fit(X, y)
        self.classes_ = impl.classes_
        self.backend_ = backend
        return self

    def predict(self, X):
        if not hasattr(self, "estimator_"):
            raise _not_fitted(self)
        return self.estimator_.predict(X)

    def predict_splits(self, X, y, splits):
        splits = list(splits)
        impl, backend = self._resolve()
        try:
            out = impl.predict_splits(X, y, splits)
        except FitTimeout as e:
            raise FitError(self.name, e.fold, len(splits), str(e)) from None
        except LearnerContext:
            raise
        except ValueError as e:       # a Python learner refusing the data: say it plainly
            if backend != "python":
                raise
            raise LearnerInputError(self.name, None, len(splits), str(e)) from e
        self.backend_ = backend
        return check_predictions(out, y, splits, learner=self.name)


# --------------------------------------------------------------------- the named learners
class _WekaLearner(NamedLearner):
    """A Weka classifier through RWeka; ``options``: Weka options."""

    def __init__(self, options=None, backend="auto"):
        keep_init_args(self, locals())

    def _r_params(self):
        return {"options": weka_options(self.options)}

    def _check_r_params(self):
        from r_bridge.bridge import check_weka_options
        check_weka_options(self._r_learner_name(), self._r_params()["options"],
                           LEARNERS[self.name].r_packages, name=self.name)


class J48(_WekaLearner):
    """C4.5 (Weka's J48 through RWeka); ``unpruned=True`` adds Weka's ``-U``
    (the EXP6 experiment's C4.5, registry name "J48-unpruned").  ``options``:
    further Weka options, e.g. ``["-M", "5"]``, passed as a character vector."""

    def __init__(self, unpruned=False, options=None, backend="auto"):
        keep_init_args(self, locals())

    _registry_name = "J48"

    @property
    def name(self):
        return "J48-unpruned" if self.unpruned else "J48"

    def _r_learner_name(self):
        return "J48"

    def _r_params(self):
        return {"options": (["-U"] if self.unpruned else []) + weka_options(self.options)}


class JRip(_WekaLearner):
    """RIPPER (Weka's JRip through RWeka), default options."""
    _registry_name = "JRip"


class SMO(_WekaLearner):
    """SVM by sequential minimal optimisation (Weka's SMO), default options."""
    _registry_name = "SMO"


class Logistic(_WekaLearner):
    """Multinomial logistic regression (Weka's Logistic), default options."""
    _registry_name = "Logistic"


class KKNN(NamedLearner):
    """Weighted kNN (``kknn::kknn``), the paper's k = 5 and triangular kernel."""
    _registry_name = "kknn"

    def __init__(self, k=5, kernel="triangular", backend="auto"):
        keep_init_args(self, locals())

    def _checked_fallback(self):
        if self.kernel not in _py._KERNELS:
            raise ValueError(f"learner 'kknn': kernel {self.kernel!r} has no Python fallback "
                             f"(it has {', '.join(sorted(_py._KERNELS))}); use backend='r'")
        return super()._checked_fallback()

    def _r_params(self):
        return {"k": int(self.k), "kernel": str(self.kernel)}


class Tree(NamedLearner):
    """Classification tree (``tree::tree``, defaults), letter's TREE."""
    _registry_name = "tree"


class GLM(NamedLearner):
    """Logistic regression (``stats::glm``, binomial logit), the simple
    experiment's LR: the larger label when the probability > ``threshold``.
    2 classes only."""
    _registry_name = "glm"

    def __init__(self, threshold=0.5, backend="auto"):
        keep_init_args(self, locals())

    def _r_params(self):
        return {"threshold": float(self.threshold)}


class Majority(NamedLearner):
    """MAJ: the most frequent training class (ties → smallest label)."""
    _registry_name = "majority"


class Mean(NamedLearner):
    """Nearest class mean, Euclidean distance (ties → smallest label)."""
    _registry_name = "mean"


class _FNN(NamedLearner):
    """1-NN with one positive distance parameter (named by ``_param``)."""
    _param = ""

    def _r_params(self):
        return {self._param: float(getattr(self, self._param))}


class FNNWeighted(_FNN):
    """EXP6's FNN: 1-NN with d = ω(x1−x1')² + ω⁻¹(x2−x2')², ``omega`` > 0
    (ties → the first training row)."""
    _registry_name, _param = "fnn-weighted", "omega"

    def __init__(self, omega=1.0, backend="auto"):
        keep_init_args(self, locals())


class FNNDistorted(_FNN):
    """letter's FNN: 1-NN with the distorted distance of parameter
    ``upsilon`` > 0 (ties → the first training row)."""
    _registry_name, _param = "fnn-distorted", "upsilon"

    def __init__(self, upsilon=1.0, backend="auto"):
        keep_init_args(self, locals())


# --------------------------------------------------------------------- registry
LEARNERS = {s.name: s for s in [
    LearnerSpec("J48", "C4.5 decision tree (Weka J48), default options",
                "RWeka::J48(y ~ ., data)", _py.J48Fallback, J48, ("RWeka",),
                {"unpruned": False}),
    LearnerSpec("J48-unpruned", "C4.5 without pruning, the EXP6 experiment's C4.5",
                "RWeka::J48(y ~ ., data, control = c('-U'))", _py.J48Fallback, J48,
                ("RWeka",), {"unpruned": True}),
    LearnerSpec("JRip", "RIPPER rule learner (Weka JRip), default options",
                "RWeka::JRip(y ~ ., data)", _py.JRipFallback, JRip, ("RWeka",)),
    LearnerSpec("SMO", "support vector machine by SMO (Weka SMO), default options",
                "RWeka::SMO(y ~ ., data)", _py.SMOFallback, SMO, ("RWeka",)),
    LearnerSpec("Logistic", "multinomial logistic regression (Weka Logistic)",
                "RWeka::Logistic(y ~ ., data)", _py.LogisticFallback, Logistic, ("RWeka",)),
    LearnerSpec("kknn", "weighted k-nearest neighbours, k = 5, triangular kernel",
                "kknn::kknn(y ~ ., train, test, k = 5, kernel = 'triangular')",
                _py.KKNNFallback, KKNN, ("kknn",)),
    LearnerSpec("tree", "classification tree (R package tree), defaults; letter's TREE",
                "tree::tree(y ~ ., data)", _py.TreeFallback, Tree, ("tree",)),
    LearnerSpec("glm", "logistic regression, binomial logit, 0.5 threshold; "
                "2 classes only; the simple experiment's LR",
                "stats::glm.fit(model.matrix(~ ., X), y, family = binomial())",
                _py.GLMFallback, GLM),
    LearnerSpec("majority", "MAJ: the most frequent training class",
                "which.max(tabulate(y))", _py.MajorityFallback, Majority),
    LearnerSpec("mean", "nearest class mean, Euclidean distance",
                "colSums(X[y == c, ]) / n_c; nearest mean", _py.MeanFallback, Mean),
    LearnerSpec("fnn-weighted", "EXP6's FNN: 1-NN, d = w(x1-x1')^2 + (x2-x2')^2 / w",
                "1-NN in base R (batch.R)", _py.FNNWeightedFallback, FNNWeighted),
    LearnerSpec("fnn-distorted", "letter's FNN: 1-NN with the distorted distance "
                "sum_k u^(2-k) sum_{l in C_k} (x_l - x_l')^2",
                "1-NN in base R (batch.R)", _py.FNNDistortedFallback, FNNDistorted),
    LearnerSpec("cnn", "the MNIST CNN: conv32 5x5-pool-conv64 5x5-pool-dense500-softmax "
                "(PyTorch)", "none: PyTorch only", _cnn.CNN, _cnn.CNN),
    LearnerSpec("cnn-dropout", "the MNIST CNN with dropout rate gamma before the dense layer "
                "(PyTorch)", "none: PyTorch only", _cnn.CNNDropout, _cnn.CNNDropout),
]}


def make_learner(name, backend="auto", **params):
    """The paper's learner ``name`` (see :data:`LEARNERS`) with ``params``.

    >>> make_learner("fnn-weighted", omega=0.29)       # doctest: +SKIP
    FNNWeighted(omega=0.29)
    """
    _check_backend(backend)
    params = check_params(name, params)
    view = {k: params.pop(k) for k in VIEW_PARAMS if k in params}
    if is_import_path(name):          # any scikit-learn classifier or regressor; runs in Python
        est = SklearnLearner(estimator_from_path(name, params), name=name)
    else:
        spec = LEARNERS[name]
        est = spec.estimator(backend=backend, **spec.init, **params)
        est._validate()
    if view:         # the learner sees the data through a view (pybcv.learners.noisy)
        noisy = "noise" in view or "noise_stream" in view
        est = NoisyLearner(est, view.get("noise", 0.0) if noisy else None,
                           view.get("noise_stream", 0), bool(view.get("one_hot", False)))
    return est


def fallback_notes(made, who, ran) -> List[str]:
    """A note for each of the paper's learners (``made``: the learners as
    built, ``who``: their labels, ``ran``: the backend each ran on) that was
    asked for with backend="auto" and ran on its Python stand-in because R
    is unavailable: its numbers differ from the paper's R learner, which a
    result must say (the command line says it in its backend line)."""
    out = []
    for lrn, w, backend in zip(made, who, ran):
        lrn = getattr(lrn, "learner", lrn)   # seen through noise (NoisyLearner)
        if not isinstance(lrn, NamedLearner) or lrn.backend != "auto" or backend != "python":
            continue
        spec = LEARNERS[lrn.name]
        if not spec.has_r:
            continue                         # a Python-only learner
        problem = r_problem(spec.r_packages, f"learner {lrn.name!r}")
        out.append(f"{w} ran on its Python stand-in {spec.python_fallback.__name__}, as R is "
                   f"unavailable ({problem}); its results differ from the paper's R learner "
                   f"(backend='r' insists on R)")
    return out


def check_learner(name, backend="auto", **params):
    """Check a learner spec against the backend that will run it, before any
    fit (the command line and the R package call this).

    ``backend="python"``: every option must have a Python twin (a Weka
    option such as J48's ``-C 0.1`` or a kknn kernel such as ``gaussian``
    without one is refused, naming it).  ``backend="r"``: the options are R's
    (Weka's, kknn's) and only their form is checked here; R checks the rest
    when it starts.  ``backend="auto"``: the Python check, and when it fails,
    the options stand if R (which then runs the learner) is available."""
    _check_backend(backend)
    if backend == "python":
        return make_learner(name, backend=backend, **params)
    spec = LEARNERS.get(name)
    try:
        est = make_learner(name, backend="python" if backend == "auto" else backend, **params)
    except ValueError as e:
        if backend == "r":
            raise
        est = make_learner(name, backend="r", **params)
        problem = None if spec is None else r_problem(spec.r_packages, f"learner {name!r}")
        if problem is not None:
            raise ValueError(f"{e}; R, which would run it with backend='auto', is unavailable "
                             f"({problem})") from None
    weka = getattr(est, "learner", est)          # seen through noise (NoisyLearner)
    if isinstance(weka, _WekaLearner) and weka.options is not None and \
            r_problem(spec.r_packages, f"learner {name!r}") is None:
        weka.set_params(backend=backend)._check_r_params()    # Weka's own setOptions, before any fit
    return est


def _numeric_or_bool(dtype) -> bool:
    return pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype)


def _text_columns_hint(X, error) -> str:
    """A scikit-learn estimator that met a text (categorical) predictor: the
    columns named and what to do, appended to its error."""
    if "could not convert string to float" not in str(error) or not hasattr(X, "dtypes"):
        return ""
    cols = [str(c) for c, t in X.dtypes.items() if not _numeric_or_bool(t)]
    if not cols:
        return ""
    return (f" (predictor column(s) {', '.join(repr(c) for c in cols[:5])} hold text; scikit-learn "
            f"estimators take numbers only: encode them (e.g. one-hot) or drop them, or use a "
            f"learner that takes categories such as J48)")


class SklearnLearner(ClassifierMixin, BaseEstimator):
    """Any scikit-learn classifier with ``predict_splits`` added (a fresh
    ``clone`` fitted per split).  Runs in Python: ``backend_ = "python"``.

    ``random_state``: given to every clone whose own ``random_state``
    parameter is None (a comparison passes its seed, so one seed fixes the
    fits too); ``name`` labels the learner in messages (default: the class
    name).  A fit or predict that raises is a :class:`FitError` naming the
    learner and the fold."""

    def __init__(self, estimator, random_state=None, name=None):
        keep_init_args(self, locals())

    @property
    def label(self) -> str:
        return self.name or type(self.estimator).__name__

    def _fresh(self):
        from sklearn.base import clone
        est = clone(self.estimator)
        if self.random_state is not None and est.get_params().get("random_state", 0) is None:
            est.set_params(random_state=self.random_state)
        return est

    def fit(self, X, y):
        self.estimator_ = self._fresh().fit(X, y)
        self.classes_ = getattr(self.estimator_, "classes_", None)
        self.backend_ = "python"
        return self

    predict = NamedLearner.predict

    def _per_split(self, X, ya, splits, method):
        """[(fitted clone, its ``method`` on the test rows)] per split; a fit
        or prediction that raises is a :class:`FitError` naming the learner
        and the fold.  The fits' warnings (a ConvergenceWarning, ...) are
        given once per message after the last fit, as a :class:`FitWarning`
        naming the learner and the folds (numpy's RuntimeWarnings and
        deprecations pass as they are)."""
        out, warned = [], {}
        for f, (tr, te) in enumerate(splits, start=1):
            try:
                with one_fit(f), warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    est = self._fresh().fit(take_rows(X, tr), ya[tr])
                    out.append((est, getattr(est, method)(take_rows(X, te))))
                for w in caught:
                    if issubclass(w.category, (RuntimeWarning, DeprecationWarning)):
                        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
                    else:
                        text = f"{w.category.__name__}: {(str(w.message).splitlines() or [''])[0].rstrip(':')}"
                        warned.setdefault((w.category, text), set()).add(f)
            except (KeyboardInterrupt, MemoryError):
                raise
            except FitTimeout as e:
                raise FitError(self.label, f, len(splits), str(e)) from None
            except Exception as e:
                raise FitError(self.label, f, len(splits),
                               f"{type(e).__name__}: {e}".strip() + _text_columns_hint(X, e)) from e
        for (category, text), folds in warned.items():
            warnings.warn(FitWarning(self.label, folds, len(splits), text, category), stacklevel=3)
        self.backend_ = "python"
        return out

    def check_text_columns(self, X, y) -> None:
        """Before any fit: when X has text (categorical) columns, a trial
        fit on a few records (two of each class); an estimator that cannot
        take text (a plain one, not a Pipeline that encodes it) is refused
        with a :class:`TextColumnsError` (a LearnerInputError) naming the columns.  A trial, not a
        rule on the estimator's type: a Pipeline, a ColumnTransformer or any
        estimator that encodes text itself passes, whatever wraps it."""
        if not hasattr(X, "dtypes") or all(_numeric_or_bool(t) for t in X.dtypes):
            return
        ya = np.asarray(y)
        rows = (np.arange(min(20, ya.size)) if self.is_regressor else
                np.sort(np.concatenate([np.flatnonzero(ya == c)[:2] for c in np.unique(ya)])))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self._fresh().fit(take_rows(X, rows), ya[rows])
        except Exception as e:      # only text is refused here; anything else fails in its fit
            hint = _text_columns_hint(X, e)
            if hint:
                raise TextColumnsError(self.label, None, None, f"{e}{hint}") from None

    def predict_splits(self, X, y, splits):
        ya = np.asarray(y)
        splits = _py._check_splits(splits, len(ya))
        out = [np.asarray(p) for _, p in self._per_split(X, ya, splits, "predict")]
        # checked before any conversion to y's dtype (which would turn a
        # regressor's 0.2 into the label 0)
        return check_predictions(out, ya, splits, learner=self.label, numeric=self.is_regressor)

    def predict_proba_splits(self, X, y, splits):
        """Per split, the class probabilities of the test records, an array
        (records, k) whose columns are the sorted labels of y (a class that
        a training fold lacks gets probability 0): the log loss reads them
        (docs/guide/losses.md).  A fit or predict_proba that raises is a
        :class:`FitError` naming the learner and the fold."""
        ya = np.asarray(y)
        classes = np.unique(ya)
        splits = _py._check_splits(splits, len(ya))
        out = []
        for est, P in self._per_split(X, ya, splits, "predict_proba"):
            full = np.zeros((len(P), classes.size))
            full[:, np.searchsorted(classes, np.asarray(est.classes_))] = np.asarray(P, dtype=float)
            out.append(full)
        return out

    @property
    def is_regressor(self) -> bool:
        """True for a scikit-learn regressor: it predicts numbers, compared
        under a real-valued loss (docs/guide/losses.md)."""
        from sklearn.base import is_regressor
        return bool(is_regressor(self.estimator))


class CheckedLearner:
    """Any object with ``predict_splits`` (a user's own learner), its
    predictions checked by :func:`check_predictions`; every other attribute
    is the wrapped learner's."""

    def __init__(self, learner):
        self.learner = learner

    @property
    def name(self):
        return getattr(self.learner, "name", None) or type(self.learner).__name__

    def predict_splits(self, X, y, splits):
        splits = list(splits)
        out = self.learner.predict_splits(X, y, splits)
        return check_predictions(out, y, splits, learner=self.name)

    def __getattr__(self, attr):
        if attr == "learner":
            raise AttributeError(attr)
        return getattr(self.learner, attr)

    def __repr__(self):
        return f"CheckedLearner({self.learner!r})"


def seeded(learner, seed):
    """``learner`` with ``seed`` as the ``random_state`` of its scikit-learn
    fits (a copy; only for a :class:`SklearnLearner` without one)."""
    if isinstance(learner, SklearnLearner) and learner.random_state is None and seed is not None:
        from sklearn.base import clone
        return clone(learner).set_params(random_state=int(seed))
    return learner


def as_learner(obj_or_name, backend="auto", **params):
    """A learner with ``predict_splits`` from a registry name, a pybcv
    learner, or a plain scikit-learn classifier (wrapped in
    :class:`SklearnLearner`); any other object with ``predict_splits`` is
    wrapped in :class:`CheckedLearner`.  Whatever the path, the predictions
    are checked to be labels of y (:func:`check_predictions`).  ``params`` are set on the result (for a plain
    estimator: on a clone of it)."""
    if isinstance(obj_or_name, str):
        return make_learner(obj_or_name, backend=backend, **params)
    obj = obj_or_name
    if hasattr(obj, "predict_splits"):
        if params:
            obj.set_params(**params)
        if isinstance(obj, (NamedLearner, SklearnLearner, CheckedLearner)):
            return obj             # their predict_splits checks its predictions
        return CheckedLearner(obj)
    if hasattr(obj, "fit") and hasattr(obj, "predict"):
        if params:
            from sklearn.base import clone
            obj = clone(obj).set_params(**params)
        return SklearnLearner(obj)
    raise TypeError(f"expected a learner name or a classifier with fit/predict, "
                    f"got {type(obj).__name__}")


# ------------------------------------------------------------------ specs
def _did_you_mean(name) -> str:
    """`` (did you mean 'J48'?)`` for the registry name closest to ``name``
    (case-insensitive: 'J84' -> J48, 'knn' -> kknn), else ""."""
    if not isinstance(name, str):
        return ""
    lower = {k.lower(): k for k in LEARNERS}
    near = difflib.get_close_matches(name.lower(), list(lower), n=1)
    path = _sklearn_path(name)
    if path:
        return (f" (a scikit-learn estimator is given by its import path: {path!r}"
                + (f"; or did you mean {lower[near[0]]!r}?)" if near else ")"))
    return f" (did you mean {lower[near[0]]!r}?)" if near else ""


#: where scikit-learn keeps its classifiers and regressors (a bare class name is looked up there)
_SKLEARN_MODULES = ("ensemble", "linear_model", "tree", "neighbors", "svm", "naive_bayes",
                    "neural_network", "discriminant_analysis", "gaussian_process", "dummy")


def _sklearn_path(name: str):
    """``sklearn.ensemble.RandomForestClassifier`` for ``RandomForestClassifier``
    (a classifier or regressor of one of scikit-learn's estimator modules),
    else None; only an error message asks, so scikit-learn is imported only
    then."""
    if not name.isidentifier() or not name[:1].isupper():
        return None
    try:
        from sklearn.base import ClassifierMixin, RegressorMixin  # optional: absent, no hint
    except ImportError:
        return None
    for mod in _SKLEARN_MODULES:
        try:
            m = importlib.import_module(f"sklearn.{mod}")
        except Exception:                   # a broken scikit-learn: no hint, the message stands
            continue
        c = getattr(m, name, None)
        if isinstance(c, type) and issubclass(c, (ClassifierMixin, RegressorMixin)):
            return f"sklearn.{mod}.{name}"
    return None


def check_params(name, params: Dict[str, Any]) -> Dict[str, Any]:
    """Check a registry learner's name and parameters (all before any fit):
    an unknown name lists the known ones, an unknown parameter names the
    learner's parameters, a bad value names the parameter and its type.
    A dotted name is a scikit-learn classifier's import path
    (:mod:`pybcv.learners.importpath`)."""
    if is_import_path(name):
        return check_import_params(name, params)
    if not isinstance(name, str) or name not in LEARNERS:
        raise ValueError(f"unknown learner {name!r}{_did_you_mean(name)}; known learners: "
                         + ", ".join(sorted(LEARNERS)))
    allowed = set(LEARNERS[name].params) | set(VIEW_PARAMS)
    unknown = sorted(set(params) - allowed)
    if unknown:
        raise ValueError(f"learner {name!r} has no parameter(s) {unknown}; "
                         f"its parameters: {sorted(LEARNERS[name].params) or 'none'} "
                         f"(and {', '.join(VIEW_PARAMS)}, which every learner takes)")
    return {k: check_param(name, k, v) for k, v in params.items()}


def _value(text: str):
    t = text.strip()
    try:
        return json.loads(t)
    except ValueError:
        return t


def parse_spec(spec) -> Optional[dict]:
    """A checked learner spec ``{"name": ..., **params}`` from
    ``"name:param=value,..."``, from a spec dict, or None (None: no learner
    given).  Values are read as JSON where they parse (numbers, true/false,
    null, "Infinity"), else as text; every parameter is then checked
    (:func:`check_params`), so ``omega=Infinity``, ``k=null`` or ``k=abc``
    fail here naming the parameter and the expected type.

    >>> parse_spec("J48-unpruned:options=-M 5")
    {'name': 'J48-unpruned', 'options': '-M 5'}
    >>> parse_spec("sklearn.ensemble.RandomForestClassifier:n_estimators=200")
    {'name': 'sklearn.ensemble.RandomForestClassifier', 'n_estimators': 200}
    >>> parse_spec({"name": "kknn", "k": 7})
    {'name': 'kknn', 'k': 7}
    >>> parse_spec("fnn-weighted:omega=Infinity")
    Traceback (most recent call last):
    ...
    ValueError: learner 'fnn-weighted': parameter omega must be a finite number > 0, got inf (float)
    """
    if spec is None:
        return None
    if isinstance(spec, dict):
        if "name" not in spec:
            raise ValueError(f"learner spec needs a 'name': {spec!r}")
        d = dict(spec)
    elif isinstance(spec, str):
        if is_import_path(spec.partition(":")[0]):
            return parse_import_spec(spec)      # values by ast.literal_eval
        name, _, rest = spec.partition(":")
        d = {"name": name.strip(), **spec_params(name.strip(), filter(None, (
            s.strip() for s in rest.split(","))), _value)}
    else:
        raise TypeError(f"learner must be a name, 'name:param=value,...' or a spec dict, "
                        f"got {type(spec).__name__}")
    params = check_params(d["name"], {k: v for k, v in d.items() if k != "name"})
    return {"name": d["name"], **{k: d[k] for k in params}}
