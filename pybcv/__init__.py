"""pybcv: is classifier A really better than classifier B, or is the
difference noise?  The block-regularized 5x2 cross-validated McNemar's test
(Yang, Wang, Song & Li) and its rival tests (``pybcv.stats.TESTS``), with their partitions.

Pipeline: design (``pybcv.partitions``) -> outcomes (``pybcv.outcomes``) ->
statistic (``pybcv.stats``) -> experiment (``pybcv.engine``) -> report.
"""
__version__ = "0.1.0"

from . import partitions, outcomes, stats  # noqa: F401
from .stats import TESTS, TestResult, mcnemar_5x2bcv  # noqa: F401
from .partitions import BlockRegularizedMx2CV  # noqa: F401

_COMPARISON = ("compare", "compare_losses", "compare_predictions", "compare_learners", "Comparison")


def __getattr__(name):   # the one-off comparison API (imports the learners only when used)
    if name in _COMPARISON:
        from . import comparison
        return getattr(comparison, name)
    if name == "experiments":
        import importlib
        return importlib.import_module(".experiments", __name__)
    raise AttributeError(f"module 'pybcv' has no attribute {name!r}")
