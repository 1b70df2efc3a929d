"""Learners: the paper's classifiers by name, R-backed with Python fallbacks.

>>> from pybcv.learners import make_learner
>>> lr = make_learner("glm", backend="python")
>>> preds = lr.predict_splits(X, y, [(train_idx, test_idx), ...])   # doctest: +SKIP

* :func:`make_learner` — a named learner (:data:`LEARNERS`), backend "auto",
  "r" or "python"; every parameter is checked before any fit;
* :func:`parse_spec` — ``"name:param=value,..."`` (the command line's form)
  to a checked spec dict;
* :func:`as_learner` — a name, a pybcv learner or any scikit-learn classifier,
  as an object with ``predict_splits`` whose predictions are checked to be
  labels of the training classes (:func:`check_predictions`);
* every learner records the backend that ran in ``backend_``.

Where things are: :mod:`.base` the registry learners (``J48``, ``KKNN``,
``FNNWeighted``, ...: R or Python by ``backend``); :mod:`.fallbacks` their
Python backends (``J48Fallback``, ``KKNNFallback``, ``FNNWeightedFallback``,
...); :mod:`.rlearners` the R backend; :mod:`.spec` spec parsing and
parameter checks; :mod:`.predictions` the check of predicted labels.

Nothing here starts R until a learner with an R backend is used.
"""
from .base import (BACKENDS, GLM, J48, KKNN, LEARNERS, FNNDistorted,  # noqa: F401
                   FNNWeighted, JRip, LearnerSpec, Logistic, Majority, Mean,
                   NamedLearner, SklearnLearner, SMO, Tree, as_learner, check_learner,
                   check_params, make_learner, parse_spec, seeded)
from .fallbacks import (FNNDistortedFallback, FNNWeightedFallback, GLMFallback,  # noqa: F401
                        J48Fallback, JRipFallback, KKNNFallback, LogisticFallback,
                        MajorityFallback, MeanFallback, SMOFallback, TreeFallback,
                        irls_logistic)
from .predictions import PredictionError, check_predictions  # noqa: F401
from .rlearners import RClassifier  # noqa: F401

__all__ = ["BACKENDS", "LEARNERS", "LearnerSpec", "NamedLearner", "SklearnLearner",
           "RClassifier", "as_learner", "make_learner", "parse_spec", "check_params",
           "check_predictions", "PredictionError",
           "J48", "JRip", "SMO", "Logistic", "KKNN", "Tree", "GLM", "Majority", "Mean",
           "FNNWeighted", "FNNDistorted",
           "J48Fallback", "JRipFallback", "SMOFallback", "LogisticFallback",
           "KKNNFallback", "TreeFallback", "GLMFallback", "MajorityFallback",
           "MeanFallback", "FNNWeightedFallback", "FNNDistortedFallback", "irls_logistic"]
