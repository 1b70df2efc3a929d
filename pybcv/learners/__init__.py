"""Learners: the paper's classifiers by name, R-backed with Python fallbacks.

>>> from pybcv.learners import make_learner
>>> lr = make_learner("glm", backend="python")
>>> preds = lr.predict_splits(X, y, [(train_idx, test_idx), ...])   # doctest: +SKIP

* :func:`make_learner` — a named learner (:data:`LEARNERS`), backend "auto",
  "r" or "python";
* :func:`as_learner` — a name, a pybcv learner or any scikit-learn classifier,
  as an object with ``predict_splits``;
* every learner records the backend that ran in ``backend_``.

Nothing here starts R until a learner with an R backend is used.
"""
from .base import (BACKENDS, GLM, J48, KKNN, LEARNERS, FNNDistorted,  # noqa: F401
                   FNNWeighted, JRip, LearnerSpec, Logistic, Majority, Mean,
                   NamedLearner, SklearnLearner, SMO, Tree, as_learner, make_learner)
from .python import (DistortedFNN, GLMClassifier, J48Fallback, JRipFallback,  # noqa: F401
                     KKNNClassifier, LogisticFallback, MajorityClassifier,
                     MeanClassifier, SMOFallback, TreeFallback, WeightedFNN,
                     irls_logistic)
from .rlearners import RClassifier  # noqa: F401

__all__ = ["BACKENDS", "LEARNERS", "LearnerSpec", "NamedLearner", "SklearnLearner",
           "RClassifier", "as_learner", "make_learner",
           "J48", "JRip", "SMO", "Logistic", "KKNN", "Tree", "GLM", "Majority", "Mean",
           "FNNWeighted", "FNNDistorted",
           "J48Fallback", "JRipFallback", "SMOFallback", "LogisticFallback",
           "KKNNClassifier", "TreeFallback", "GLMClassifier", "MajorityClassifier",
           "MeanClassifier", "WeightedFNN", "DistortedFNN", "irls_logistic"]
