"""pybcv: is classifier A really better than classifier B, or is the
difference noise?  The block-regularized 5x2 cross-validated McNemar's test
(Yang, Wang, Song & Li) and its rival tests (``pybcv.stats.TESTS``), with their partitions.

Pipeline: design (``pybcv.partitions``) -> outcomes (``pybcv.outcomes``) ->
statistic (``pybcv.stats``) -> experiment (``pybcv.engine``) -> report.
"""
__version__ = "0.1.0"

from . import interrupts as _interrupts

if _interrupts.is_command_start():        # Ctrl-C during the command's imports: exit 130
    _interrupts.quiet_start()

from . import partitions, outcomes, stats  # noqa: F401
from .stats import TESTS, TestResult, mcnemar_5x2bcv  # noqa: F401
from .partitions import BlockRegularizedMx2CV  # noqa: F401
from . import experiments  # noqa: F401
from .comparison import (Comparison, compare, compare_many, compare_losses,  # noqa: F401
                         compare_predictions)
