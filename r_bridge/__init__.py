"""r_bridge: the embedded R (rpy2) behind pybcv's R learners.

* :mod:`r_bridge.session` — starts R once per process (lazily), preloads
  ``libjvm.so`` for rJava/RWeka, checks R packages.
* :mod:`r_bridge.convert` — X / y to R-ready columns (factors for categorical data).
* :mod:`r_bridge.bridge` — one R call per design (``batch.R``), single fits.
* :mod:`r_bridge.files` — where ``batch.R``, ``weka_jvm.R`` and the Weka
  helper jar are (``R/inst`` of a checkout, ``r_bridge/R`` of a wheel).

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
  ``r_message``; ``set_context(design=..., repetition=...)`` for the engine);
  R stays usable; ``weka_jvm_runs()`` → ``{learner: designs run inside the
  JVM}`` (the Weka fast path); a Java out-of-memory error is said in words, the bridge
  frees Java's memory and retries once (heap: ``PYBCV_JAVA_HEAP``, e.g. 2g);
* Ctrl-C during an R call stops it: KeyboardInterrupt once R returns
  (:class:`r_bridge.session.interruptible`);
* the bridge's name table :data:`R_LEARNER_ALIASES`: "J48-unpruned" is J48
  with Weka's -U.

Importing this package does not start R.
"""
from .session import (RUnavailableError, SETUP_HINT, get_r, missing_r_packages,  # noqa: F401
                      preload_libjvm, r_available, require_r)
from .bridge import (R_LEARNER_ALIASES, RLearnerError, RModel, clear_cache,  # noqa: F401
                     fit_model, java_out_of_memory, predict_model, predict_splits,
                     resolve_learner, weka_jvm_runs)
from .files import r_dir, r_file, weka_jar  # noqa: F401

__all__ = ["R_LEARNER_ALIASES", "java_out_of_memory", "resolve_learner", "RLearnerError", "RUnavailableError", "RModel", "SETUP_HINT", "clear_cache",
           "fit_model", "get_r", "missing_r_packages", "predict_model",
           "predict_splits", "preload_libjvm", "r_available", "r_dir", "r_file", "require_r",
           "weka_jar", "weka_jvm_runs"]
