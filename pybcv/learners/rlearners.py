"""R-backed learners: thin scikit-learn wrappers around :mod:`r_bridge`.

Nothing here imports rpy2 or starts R at import time; R starts (once per
process) at the first ``fit`` / ``predict_splits``.  The R code itself lives
in ``R/inst/batch.R``.
"""
from __future__ import annotations

import numpy as np

from .._validate import keep_init_args
from .fallbacks import BaseEstimator, ClassifierMixin, _not_fitted

BACKEND = "r"


class RClassifier(ClassifierMixin, BaseEstimator):
    """The R learner ``learner`` (a name known to ``batch.R``) with ``params``
    (a dict of R values; Weka options under ``"options"`` as a list of
    strings) that needs the R packages ``packages``.

    ``predict_splits`` runs every fit of a design in one call into R;
    ``fit``/``predict`` fit once and keep the model inside R.  Errors raised
    in R or Java come back as :class:`r_bridge.RLearnerError`; a missing R or
    R package as :class:`r_bridge.RUnavailableError`.
    """

    def __init__(self, learner, params=None, packages=()):
        keep_init_args(self, locals())

    def fit(self, X, y):
        import r_bridge
        self.model_ = r_bridge.fit_model(self.learner, X, y, self.params or {},
                                         tuple(self.packages))
        self.classes_ = self.model_.classes
        self.backend_ = BACKEND
        return self

    def predict(self, X):
        if not hasattr(self, "model_"):
            raise _not_fitted(self)
        import r_bridge
        return r_bridge.predict_model(self.model_, X)

    def predict_splits(self, X, y, splits):
        import r_bridge
        out = r_bridge.predict_splits(self.learner, X, y, splits, self.params or {},
                                      tuple(self.packages))
        self.backend_ = BACKEND
        dtype = np.asarray(y).dtype
        return [np.asarray(o, dtype=dtype) for o in out]
