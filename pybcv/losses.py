"""Per-record losses of a comparison (docs/guide/losses.md).

``loss`` in :func:`pybcv.compare`, :func:`pybcv.compare_predictions`,
:func:`pybcv.compare_many`, ``--loss`` on the command line and ``loss=`` in R:

* ``"zero_one"`` (the default for classifiers): 1 = misclassified; every
  test runs on the 2x2 fold tables;
* ``"squared"`` (the default for regressors), ``"absolute"``: (y - yhat)^2,
  |y - yhat| of a numeric target;
* a cost matrix (k x k, rows the true class, columns the predicted class, in
  the order of the sorted labels of y) for classifiers;
* a callable ``(y_true, y_pred) -> per-record losses``.

Under any loss but ``"zero_one"`` the t, F and z tests on differences read
the per-fold mean loss differences and the McNemar-family tests (and the
proportion z), which need 0/1 outcomes, do not run
(:func:`pybcv.comparison.loss_tests`).  ``"log_loss"`` needs predicted
probabilities, which pybcv's learners do not pass on: it is refused, naming
the alternative (a callable on your own probabilities via
:func:`pybcv.compare_losses`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

NAMES = ("zero_one", "squared", "absolute")


@dataclass(frozen=True)
class Loss:
    """A resolved loss: ``name`` (for messages and reports), ``zero_one``
    (True: the 2x2 tables path), ``per_record`` (y_true, y_pred) -> losses."""
    name: str
    zero_one: bool
    per_record: Optional[Callable] = None

    def __call__(self, y_true, y_pred) -> np.ndarray:
        y_true = np.asarray(y_true)
        y_pred = np.asarray(y_pred)
        out = np.asarray(self.per_record(y_true, y_pred), dtype=float)
        if out.shape != y_true.shape:
            raise ValueError(f"loss {self.name!r} returned shape {out.shape} for {y_true.size} "
                             f"record(s); a loss gives one number per record")
        bad = np.flatnonzero(~np.isfinite(out))
        if bad.size:
            raise ValueError(f"loss {self.name!r}: record {bad[0]} of a fold has loss "
                             f"{out[bad[0]]!r}; losses must be finite numbers")
        return out


def _numeric(y, what):
    try:
        return np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"loss {what!r} needs a numeric target and numeric predictions "
                         f"(a regression); got labels such as {np.asarray(y).ravel()[:1].tolist()}"
                         ) from None


def _cost(matrix, y):
    C = np.asarray(matrix, dtype=float)
    labels = np.unique(np.asarray(y))
    k = labels.size
    if C.shape != (k, k) or not np.all(np.isfinite(C)):
        raise ValueError(f"loss: a cost matrix must be {k} x {k} finite numbers (rows the true "
                         f"class, columns the predicted class, labels in the order "
                         f"{labels.tolist()}), got shape {C.shape}")

    def cost(y_true, y_pred):
        i = np.searchsorted(labels, y_true)
        j = np.searchsorted(labels, y_pred)
        if np.any(j >= k) or np.any(labels[np.minimum(j, k - 1)] != y_pred):
            raise ValueError("loss: a cost matrix needs predicted class labels of y")
        return C[i, j]
    return Loss("cost_matrix", False, cost)


def resolve_loss(loss, y, regressor: bool = False) -> Loss:
    """The :class:`Loss` of ``loss`` (a name, a cost matrix or a callable; None:
    ``"squared"`` for regressors, else ``"zero_one"``) for target ``y``."""
    if loss is None:
        loss = "squared" if regressor else "zero_one"
    if callable(loss):
        name = getattr(loss, "__name__", type(loss).__name__)
        return Loss(name, False, loss)
    if isinstance(loss, str):
        if loss == "log_loss":
            raise ValueError("loss 'log_loss' needs predicted probabilities, which pybcv's "
                             "learners do not pass on (they predict labels); compute the "
                             "per-record log losses yourself and use compare_losses, or give "
                             "loss='zero_one', 'squared', 'absolute', a cost matrix or a callable")
        if loss not in NAMES:
            raise ValueError(f"unknown loss {loss!r}; known: {', '.join(NAMES)}, a cost matrix "
                             f"(classifiers) or a callable (y_true, y_pred) -> per-record losses")
        if loss == "zero_one":
            if regressor:
                raise ValueError("loss 'zero_one' compares class labels, but a learner is a "
                                 "regressor (it predicts numbers): use loss='squared' or "
                                 "'absolute'")
            return Loss("zero_one", True)
        _numeric(y, loss)
        if loss == "squared":
            return Loss("squared", False, lambda t, p: (_numeric(t, loss) - _numeric(p, loss)) ** 2)
        return Loss("absolute", False, lambda t, p: np.abs(_numeric(t, loss) - _numeric(p, loss)))
    if isinstance(loss, (list, tuple, np.ndarray)):
        if regressor:
            raise ValueError("loss: a cost matrix is for classifiers; a learner is a regressor")
        return _cost(loss, y)
    raise ValueError(f"loss must be a name ({', '.join(NAMES)}), a cost matrix or a callable, "
                     f"got {type(loss).__name__}")


def is_regressor(learner) -> bool:
    """True when a learner (as :func:`pybcv.pipeline.as_learner` returns it)
    predicts numbers: a scikit-learn regressor."""
    return bool(getattr(learner, "is_regressor", False))
