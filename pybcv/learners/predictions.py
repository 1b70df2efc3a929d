"""The check that predictions are labels of the training classes.

Every path that scores predictions passes through :func:`check_predictions`:
the registry learners (:class:`~pybcv.learners.base.NamedLearner`, R or
Python), scikit-learn estimators wrapped by
:class:`~pybcv.learners.base.SklearnLearner`, and any other object with
``predict_splits`` given to :func:`~pybcv.learners.as_learner` (wrapped in
:class:`~pybcv.learners.base.CheckedLearner`).  A regressor's numbers, a
custom learner's probabilities, R's codes: anything that is not one of y's
labels, or a list of the wrong length, is a :class:`PredictionError` naming
the learner and the fold -- never a score.

>>> import numpy as np
>>> y = np.array([0, 1, 0, 1])
>>> splits = [(np.array([0, 1]), np.array([2, 3]))]
>>> check_predictions([np.array([0.2, 0.9])], y, splits, learner="LinearRegression")
Traceback (most recent call last):
...
pybcv.errors.PredictionError: learner 'LinearRegression', fold 1 of 1: predicted 0.2, which is not a label of y (labels: 0, 1); a learner must predict class labels, not scores or probabilities
"""
from __future__ import annotations

import numpy as np

from .._validate import listed
from ..errors import PredictionError


def _are_labels(a, y, classes):
    """Boolean mask: which entries of ``a`` equal one of ``classes`` (sorted)."""
    ka, ky = a.dtype.kind, y.dtype.kind
    if (ka in "iub" and ky in "iub") or (ka == ky and ka in "fUS"):
        pos = np.minimum(np.searchsorted(classes, a), classes.size - 1)
        return classes[pos] == a
    if ka in "biufc" and ky in "biufc":
        return np.isin(a, classes)
    cl = set(classes.tolist())
    return np.fromiter((v in cl for v in a.tolist()), bool, count=a.size)


def check_predictions(predictions, y, splits, learner="learner", numeric=False):
    """``predictions`` as a list of 1-d arrays with y's dtype, after checking
    that there is one array per split, each as long as the split's test set,
    holding only labels of ``y`` (compared by value, before any conversion:
    0.2 is not the label 0).  Raises :class:`PredictionError` naming the
    learner and the first bad fold."""
    y = np.asarray(y)
    splits = list(splits)
    F = len(splits)
    try:
        preds = list(predictions)
    except TypeError:
        raise PredictionError(learner, None, F, f"predict_splits returned "
                              f"{type(predictions).__name__}, not a list of arrays") from None
    if len(preds) != F:
        raise PredictionError(learner, None, F, f"predict_splits returned {len(preds)} "
                              f"prediction array(s) for {F} split(s)")
    classes = np.unique(y)
    arrays = []
    for f, (p, (_, te)) in enumerate(zip(preds, splits), start=1):
        a = p if isinstance(p, np.ndarray) else np.asarray(p)
        if a.ndim != 1 or a.shape[0] != len(te):
            raise PredictionError(learner, f, F, f"predicted an array of shape {a.shape} for "
                                  f"{len(te)} test record(s); expected shape ({len(te)},)")
        arrays.append(a)
    if not arrays:
        return arrays
    if numeric:                          # a regressor: finite numbers, not labels
        for f, a in enumerate(arrays, start=1):
            v = np.asarray(a, dtype=float) if a.dtype.kind in "biuf" else None
            if v is None or not np.all(np.isfinite(v)):
                raise PredictionError(learner, f, F, "a regressor must predict finite numbers; "
                                      f"got {a[:3].tolist()!r}...")
        return [np.asarray(a, dtype=float) for a in arrays]
    # one pass over all folds when they share a dtype (the usual case)
    same = all(a.dtype == arrays[0].dtype for a in arrays)
    groups = [(0, np.concatenate(arrays))] if same else list(enumerate(arrays))
    for start, a in groups:
        ok = _are_labels(a, y, classes)
        if not ok.all():
            first = int(np.flatnonzero(~ok)[0])
            if same:
                ends = np.cumsum([x.size for x in arrays])
                f = int(np.searchsorted(ends, first, side="right")) + 1
            else:
                f = start + 1
            raise PredictionError(learner, f, F, f"predicted {a[first]!r}, which is not a label "
                                  f"of y (labels: {listed(classes.tolist(), 8)}); a learner must "
                                  f"predict class labels, not scores or probabilities")
    return [a if a.dtype == y.dtype else a.astype(y.dtype) for a in arrays]
