"""r_bridge: the embedded R (rpy2) behind pybcv's R learners.

* :mod:`r_bridge.session` — starts R once per process (lazily), preloads
  ``libjvm.so`` for rJava/RWeka, checks R packages.
* :mod:`r_bridge.convert` — X / y to R-ready columns (factors for categorical data).
* :mod:`r_bridge.bridge` — one R call per design (``batch.R``), single fits.

Main entry points (learner = a name known to ``batch.R``: J48, J48-unpruned,
JRip, SMO, Logistic, kknn, tree, glm, majority, mean, fnn-weighted,
fnn-distorted):

* ``predict_splits(learner, X, y, splits, params=None, packages=())`` →
  list of label arrays, all fits in one R call;
* ``fit_model(learner, X, y, params=None, packages=())`` → :class:`RModel`,
  ``predict_model(model, X)`` → labels;
* ``require_r(pkgs, what)`` → raises :class:`RUnavailableError` naming what is
  missing and ``bash scripts/setup.sh``;
* errors inside R/Java → :class:`RLearnerError` (``learner``, ``fold``,
  ``r_message``); R stays usable.

Importing this package does not start R.
"""
from .session import (RUnavailableError, SETUP_HINT, get_r, missing_r_packages,  # noqa: F401
                      preload_libjvm, r_available, require_r)
from .bridge import (RLearnerError, RModel, clear_cache, fit_model,  # noqa: F401
                     predict_model, predict_splits)

__all__ = ["RLearnerError", "RUnavailableError", "RModel", "SETUP_HINT", "clear_cache",
           "fit_model", "get_r", "missing_r_packages", "predict_model",
           "predict_splits", "preload_libjvm", "r_available", "require_r"]
