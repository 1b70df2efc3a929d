"""The simulation engine (by concern):

* :mod:`~pybcv.engine.config`       -- :class:`RunConfig`, what defines a run;
* :mod:`~pybcv.engine.repetition`   -- one repetition, a :class:`Repetition` record;
* :mod:`~pybcv.engine.simulation`   -- :func:`simulate`, :func:`load_result`, summaries;
* :mod:`~pybcv.engine.store`        -- the durable per-run store;
* :mod:`~pybcv.engine.archive`      -- the compact archive of a finished run (``run.npz``);
* :mod:`~pybcv.engine.truth`        -- true error rates and the FNN parameter.

Designs -> fits -> fold tables is :mod:`pybcv.pipeline`, shared with the
one-off comparisons of :mod:`pybcv.comparison` (re-exported here).
"""
from ..comparison import (Comparison, compare, compare_learners, compare_losses,
                          compare_predictions, fit_counts)
from .config import RunConfig
from ..pipeline import parse_spec, spec_dict
from .repetition import Repetition, run_chunk
from .simulation import ALPHA, SimulationResult, load_result, simulate, write_summary
from .store import ConfigMismatch, Store
from . import archive, truth


learner_spec = spec_dict   # the old name

__all__ = ["ALPHA", "Comparison", "RunConfig", "Repetition", "SimulationResult", "compare",
           "compare_losses", "fit_counts", "parse_spec", "spec_dict", "learner_spec", "load_result",
           "run_chunk", "simulate", "write_summary", "ConfigMismatch", "Store",
           "truth", "archive", "compare_learners", "compare_predictions"]
