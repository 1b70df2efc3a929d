"""r_bridge: the embedded R (rpy2) behind pybcv's R learners.

* :mod:`r_bridge.session` — starts R once per process (lazily), preloads
  ``libjvm.so`` for rJava/RWeka, checks R packages.
* :mod:`r_bridge.convert` — X / y to R-ready columns (factors for categorical data).
* :mod:`r_bridge.bridge` — one R call per design (``batch.R``), single fits.

Importing this package does not start R.
"""
from .session import (RUnavailableError, SETUP_HINT, get_r, missing_r_packages,  # noqa: F401
                      preload_libjvm, r_available, require_r)
from .bridge import (RLearnerError, RModel, clear_cache, fit_model,  # noqa: F401
                     predict_model, predict_splits)

__all__ = ["RLearnerError", "RUnavailableError", "RModel", "SETUP_HINT", "clear_cache",
           "fit_model", "get_r", "missing_r_packages", "predict_model",
           "predict_splits", "preload_libjvm", "r_available", "require_r"]
