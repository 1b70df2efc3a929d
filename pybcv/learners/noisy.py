"""A learner that sees the data through a view: the generic learner
parameters ``noise``, ``noise_stream`` and ``one_hot`` (every registry
learner takes them).

``one_hot = true``: every factor (string) column of the data passed to
``predict_splits`` becomes one 0/1 column per level present in those data
(levels sorted), numeric columns stay as they are (:func:`one_hot`): how
RQ1's mean classifier, which needs numbers, sees factors.

``noise = sigma > 0``: before any fit, every numeric predictor column j of
the data passed to ``predict_splits`` becomes ``x_j + sigma * sd_j * e``,
``sd_j`` the column's standard deviation in those data and ``e`` standard
normal, drawn once per call (so every fold of every design sees the same
noisy copy).  The noise comes from a generator seeded by ``noise_stream``
and by the data themselves (their bytes), so it is a function of the
repetition's seeded data stream: runs are reproducible, and two learners with
different ``noise_stream`` see independent noise.

Two copies of one learner with the same ``noise`` and different
``noise_stream`` have equal expected errors by symmetry (they are
exchangeable), so H0 holds exactly: the validity battery's symmetric null
families (``pybcv.validity``).

>>> import numpy as np
>>> from pybcv.learners import make_learner
>>> X = np.arange(20.0).reshape(-1, 1); y = np.arange(20) % 2
>>> a = make_learner("mean", backend="python", noise=0.5, noise_stream=1)
>>> p1 = a.predict_splits(X, y, [(np.arange(10), np.arange(10, 20))])
>>> p2 = a.predict_splits(X, y, [(np.arange(10), np.arange(10, 20))])
>>> bool(np.array_equal(p1[0], p2[0]))
True
"""
from __future__ import annotations

import hashlib

import numpy as np

from .._validate import keep_init_args
from .fallbacks import BaseEstimator, ClassifierMixin

VIEW_PARAMS = ("noise", "noise_stream", "one_hot")


def one_hot(X):
    """Numbers from predictors: numeric columns as they are, each factor as
    one 0/1 column per level present (sorted level order); an ndarray as it is.

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
            cols.append((a[:, None] == np.unique(a)[None, :]).astype(float))
    return np.hstack(cols)


def noise_seed(X, y, stream: int) -> np.random.SeedSequence:
    """The noise generator's seed: ``noise_stream`` and a digest of the data."""
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(X).tobytes())
    h.update(np.ascontiguousarray(np.asarray(y).astype(str)).tobytes())
    words = np.frombuffer(h.digest()[:16], dtype=np.uint32)
    return np.random.SeedSequence([int(stream), *map(int, words)])


def noisy_copy(X, y, sigma: float, stream: int) -> np.ndarray:
    """X with sigma * sd_j * N(0, 1) added to each column (see module doc)."""
    A = np.asarray(X, float)
    if A.ndim != 2:
        raise ValueError(f"noise: the predictors must be a 2-d numeric array, got shape {A.shape}")
    g = np.random.default_rng(noise_seed(A, y, stream))
    sd = A.std(axis=0)
    return A + sigma * sd[None, :] * g.standard_normal(A.shape)


class NoisyLearner(ClassifierMixin, BaseEstimator):
    """``learner`` fitted and evaluated on a noisy copy of the predictors."""

    def __init__(self, learner=None, noise=0.0, noise_stream=0, one_hot=False):
        keep_init_args(self, locals())

    def _noisy(self, X, y):
        if self.one_hot:
            X = one_hot(X)
        if self.noise is None:          # one_hot alone: no noise
            return X
        try:
            return noisy_copy(X, y, float(self.noise), int(self.noise_stream))
        except (TypeError, ValueError) as e:
            raise ValueError(f"learner parameter noise needs numeric predictors: {e}") from None

    def predict_splits(self, X, y, splits):
        out = self.learner.predict_splits(self._noisy(X, y), y, splits)
        self.backend_ = getattr(self.learner, "backend_", "python")
        return out

    def fit(self, X, y):
        self.learner.fit(self._noisy(X, y), y)
        self.backend_ = getattr(self.learner, "backend_", "python")
        return self

    def predict(self, X):
        if self.one_hot:        # the levels are those of the data given to one call
            raise ValueError("learner parameter one_hot works through predict_splits only "
                             "(fit and predict would code train and test levels apart)")
        return self.learner.predict(np.asarray(X, float))
