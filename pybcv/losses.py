"""Per-record losses of a comparison (docs/guide/losses.md).

``loss`` in :func:`pybcv.compare`, :func:`pybcv.compare_predictions`,
:func:`pybcv.compare_many`, ``--loss`` on the command line and ``loss=`` in R:

* ``"zero_one"`` (the default for classifiers): 1 = misclassified; every
  test runs on the 2x2 fold tables;
* ``"squared"`` (the default for regressors), ``"absolute"``: (y - yhat)^2,
  |y - yhat| of a numeric target;
* a cost matrix (k x k, rows the true class, columns the predicted class, in
  the order of the sorted labels of y) for classifiers;
* a callable ``(y_true, y_pred) -> per-record losses``;
* ``"log"`` (also ``"log_loss"``), the log loss of classifiers with
  ``predict_proba``: -log p(true class), the probability clipped below at
  :data:`LOG_CLIP` (so one confidently wrong record costs at most
  -log(1e-15) = 34.5, not infinity).  The learners predict probabilities
  (``SklearnLearner.predict_proba_splits``; columns the sorted labels of y,
  0 for a class a training fold lacks); a learner without ``predict_proba``
  is refused before any fit, naming it.

Under any loss but ``"zero_one"`` the t, F and z tests on differences read
the per-fold mean loss differences and the McNemar-family tests (and the
proportion z), which need 0/1 outcomes, do not run
(:func:`pybcv.comparison.loss_tests`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

import numpy as np

from .errors import ArgumentError

NAMES = ("zero_one", "squared", "absolute", "log")

#: The log loss reads max(p, LOG_CLIP) for the probability p of the true
#: class: a record predicted with probability 0 costs -log(1e-15) = 34.5.
LOG_CLIP = 1e-15

#: How far a record's probabilities may sum from 1 (rounding) under "log".
PROBA_TOL = 1e-6


@dataclass(frozen=True)
class Loss:
    """A resolved loss: ``name`` (for messages and reports), ``zero_one``
    (True: the 2x2 tables path), ``per_record`` (y_true, y_pred) -> losses;
    ``proba``: y_pred are class probabilities (records x classes), not labels;
    ``note``: a caveat for the comparison's warnings; ``info``: what a
    reader of the result needs to know which loss it was (a cost matrix and
    the order of its labels), kept in the comparison and its JSON."""
    name: str
    zero_one: bool
    per_record: Optional[Callable] = None
    proba: bool = False
    note: str = ""
    info: Dict = field(default_factory=dict)

    def __call__(self, y_true, y_pred) -> np.ndarray:
        y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
        try:
            out = self.per_record(y_true, y_pred)
        except ValueError:
            raise                        # pybcv's own losses say what is wrong
        except Exception as e:           # a user's callable failing: named, in words
            raise ValueError(f"loss {self.name!r} failed: {type(e).__name__}: {e}") from e
        try:
            out = np.asarray(out, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"loss {self.name!r} returned {type(out).__name__} that is not "
                             f"numbers (e.g. {np.asarray(out, dtype=object).ravel()[:1].tolist()}); "
                             f"a loss gives one number per record") from None
        if out.shape != y_true.shape:
            raise ValueError(f"loss {self.name!r} returned shape {out.shape} for {y_true.size} "
                             f"record(s); a loss gives one number per record")
        bad = np.flatnonzero(~np.isfinite(out))
        if bad.size:
            raise ValueError(f"loss {self.name!r}: record {bad[0]} of the fold has loss "
                             f"{out[bad[0]]!r}; losses must be finite numbers")
        return out


def _numeric(y, what):
    try:
        return np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        pass
    a = np.asarray(y, dtype=object).ravel()
    for i, v in enumerate(a.tolist()):
        try:
            float(v)
        except (TypeError, ValueError):
            raise ArgumentError("loss", f"loss {what!r} needs a numeric target and numeric predictions "
                             f"(a regression); got {v!r} (position {i})") from None
    raise ArgumentError("loss", f"loss {what!r} needs a numeric target and numeric predictions")


def _shown(labels) -> str:
    """The first labels of a message (a numeric target can have hundreds)."""
    out = labels.tolist()[:8]
    return str(out)[:-1] + (", ...]" if labels.size > 8 else "]")


def _cost(matrix, y):
    labels = np.unique(np.asarray(y))
    k = labels.size
    need = (f"loss: a cost matrix must be {k} x {k} finite numbers (rows the true class, "
            f"columns the predicted class, labels in the order {_shown(labels)})")
    hint = ("; a numeric target with many values? a cost matrix is for classes: use "
            "loss='squared' or 'absolute'" if k > 8 and labels.dtype.kind in "iuf" else "")
    try:
        C = np.asarray(matrix, dtype=float)
    except (TypeError, ValueError):
        rows = [len(r) if hasattr(r, "__len__") else 1 for r in matrix]
        raise ArgumentError("loss", f"{need}; got rows of {rows} entries" if len(set(rows)) > 1 else
                         f"{need}; got entries that are not numbers") from None
    if C.shape != (k, k):
        raise ArgumentError("loss", f"{need}, got shape {C.shape}{hint}")
    if not np.all(np.isfinite(C)):
        i, j = np.argwhere(~np.isfinite(C))[0]
        raise ArgumentError("loss", f"{need}; entry [{i}, {j}] is {C[i, j]}")

    def cost(y_true, y_pred):
        i = np.searchsorted(labels, y_true)
        j = np.searchsorted(labels, y_pred)
        if np.any(j >= k) or np.any(labels[np.minimum(j, k - 1)] != y_pred):
            raise ArgumentError("loss", "loss: a cost matrix needs predicted class labels of y")
        return C[i, j]
    neg = ("the cost matrix has negative entries (gains): the tests compare mean costs all the "
           "same; a constant added to every entry changes no test" if np.any(C < 0) else "")
    return Loss("cost_matrix", False, cost, note=neg,
                info={"cost_matrix": C.tolist(), "labels": labels.tolist()})


def _log(y):
    labels = np.unique(np.asarray(y))
    k = labels.size

    def log_loss(y_true, proba):
        P = np.asarray(proba)
        if P.ndim != 2 or P.shape != (np.asarray(y_true).size, k):
            raise ArgumentError("loss", f"loss 'log' needs predicted probabilities, an array of shape "
                             f"(records, {k}) with one column per class of y in the order "
                             f"{_shown(labels)}; got shape {P.shape}"
                             + (" (class labels?)" if P.ndim == 1 else ""))
        try:
            P = P.astype(float)
        except (TypeError, ValueError):
            raise ArgumentError("loss", "loss 'log': the predicted probabilities must be numbers") from None
        bad = np.flatnonzero(~np.all(np.isfinite(P) & (P >= 0) & (P <= 1), axis=1)
                             | (np.abs(P.sum(axis=1) - 1) > PROBA_TOL))
        if bad.size:
            raise ArgumentError("loss", f"loss 'log': record {bad[0]} of the fold has class probabilities "
                             f"{np.round(P[bad[0]], 6).tolist()}; each record's probabilities must "
                             f"be numbers in [0, 1] summing to 1 ({bad.size} record(s) are not)")
        return -np.log(np.maximum(true_class_probability(labels, y_true, P), LOG_CLIP))
    return Loss("log", False, log_loss, proba=True)


def true_class_probability(labels, y_true, proba) -> np.ndarray:
    """Each record's predicted probability of its true class (columns of
    ``proba``: the sorted ``labels``)."""
    P = np.asarray(proba, dtype=float)
    return P[np.arange(P.shape[0]), np.searchsorted(labels, y_true)]


def clip_notes(y, preds, names, splits) -> List[str]:
    """A note per learner whose probabilities (``preds[i][design][fold]``) of
    the true class fell below :data:`LOG_CLIP`, where the log loss clips them."""
    y, out = np.asarray(y), []
    labels = np.unique(y)
    for name, pred in zip(names, preds):
        p = np.concatenate([true_class_probability(labels, y[te], P) for d, folds in splits.items()
                            for (_, te), P in zip(folds, pred[d])])
        hit = int(np.sum(p < LOG_CLIP))
        if hit:
            out.append(f"log loss: {name} gave the true class a probability below {LOG_CLIP:g} "
                       f"on {hit} of {p.size} test predictions, each scored -log({LOG_CLIP:g}) = "
                       f"{-np.log(LOG_CLIP):.1f}: such probabilities (exactly 0, e.g. a tree's) "
                       f"dominate the mean log loss")
    return out


def resolve_loss(loss, y, regressor: bool = False) -> Loss:
    """The :class:`Loss` of ``loss`` (a name, a cost matrix or a callable; None:
    ``"squared"`` for regressors, else ``"zero_one"``) for target ``y``."""
    if loss is None:
        loss = "squared" if regressor else "zero_one"
    if callable(loss):
        name = getattr(loss, "__name__", type(loss).__name__)
        return Loss(name, False, loss)
    if isinstance(loss, str):
        if loss in ("log", "log_loss", "zero_one") and regressor:
            what = ("'zero_one' compares class labels" if loss == "zero_one"
                    else "'log' needs predicted class probabilities")
            raise ArgumentError("loss", f"loss {what}, but a learner is a regressor (it predicts "
                                        f"numbers): use loss='squared' or 'absolute'")
        if loss in ("log", "log_loss"):
            return _log(y)
        if loss not in NAMES:
            raise ArgumentError("loss", f"unknown loss {loss!r}; known: {', '.join(NAMES)}, a cost matrix "
                             f"(classifiers) or a callable (y_true, y_pred) -> per-record losses")
        if loss == "zero_one":
            return Loss("zero_one", True)
        _numeric(y, loss)
        if loss == "squared":
            return Loss("squared", False, lambda t, p: (_numeric(t, loss) - _numeric(p, loss)) ** 2)
        return Loss("absolute", False, lambda t, p: np.abs(_numeric(t, loss) - _numeric(p, loss)))
    if isinstance(loss, (list, tuple, np.ndarray)):
        if regressor:
            raise ArgumentError("loss", "loss: a cost matrix is for classifiers; a learner is a regressor")
        return _cost(loss, y)
    raise ArgumentError("loss", f"loss must be a name ({', '.join(NAMES)}), a cost matrix or a callable, "
                     f"got {type(loss).__name__}")


def is_regressor(learner) -> bool:
    """True when a learner (as :func:`pybcv.pipeline.as_learner` returns it)
    predicts numbers: a scikit-learn regressor."""
    return bool(getattr(learner, "is_regressor", False))


def has_proba(learner) -> bool:
    """True when a learner (as :func:`pybcv.pipeline.as_learner` returns it)
    can predict class probabilities (``predict_proba_splits``): a
    scikit-learn classifier with ``predict_proba``."""
    est = getattr(learner, "estimator", None)
    return hasattr(learner, "predict_proba_splits") and (est is None
                                                         or hasattr(est, "predict_proba"))


def no_proba_message(label: str, learner) -> str:
    """Why ``learner`` cannot be compared under the log loss, naming it."""
    est = getattr(learner, "estimator", None)
    if est is not None and "probability" in getattr(est, "get_params", dict)():
        hint = f" (set probability=True, e.g. {label}:probability=True)"
    elif est is not None:
        hint = (" (wrap it in sklearn.calibration.CalibratedClassifierCV to get probabilities, "
                "or compare it under loss='zero_one')")
    # a registry learner (by its registry name), perhaps seen through noise (NoisyLearner)
    elif any(getattr(x, "_registry_name", None) is not None
             for x in (learner, getattr(learner, "learner", None))):
        hint = (" (pybcv's named learners predict labels only: use a scikit-learn classifier "
                "with predict_proba, e.g. sklearn.linear_model.LogisticRegression, or "
                "loss='zero_one')")
    else:
        hint = (" (a learner of your own gives probabilities through a method "
                "predict_proba_splits(X, y, splits) returning one array per split, test records "
                "x the sorted classes of y)")
    return (f"loss 'log' needs predicted probabilities, but learner {label} has no "
            f"predict_proba{hint}")
