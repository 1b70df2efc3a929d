"""The simulation engine (by concern):

* :mod:`~pybcv.engine.config`       -- :class:`RunConfig`, what defines a run;
* :mod:`~pybcv.engine.fitting`  -- designs -> predictions -> fold tables (the one place);
* :mod:`~pybcv.engine.repetition`   -- one repetition, a :class:`Repetition` record;
* :mod:`~pybcv.engine.simulation`   -- :func:`simulate`, :func:`load_result`, summaries;
* :mod:`~pybcv.engine.store`        -- the durable per-run store;
* :mod:`~pybcv.engine.truth`        -- true error rates and the FNN parameter.

One-off comparisons live in :mod:`pybcv.comparison` (re-exported here).
"""
from .config import RunConfig
from .fitting import parse_spec, spec_dict
from .repetition import Repetition, run_chunk
from .simulation import ALPHA, SimulationResult, load_result, simulate, write_summary
from .store import ConfigMismatch, Store
from . import truth


def __getattr__(name):   # the comparison API, imported lazily (pybcv.comparison imports the engine)
    if name in ("Comparison", "compare", "compare_losses", "compare_predictions",
                "compare_learners", "fit_counts"):
        from .. import comparison
        return getattr(comparison, name)
    raise AttributeError(f"module 'pybcv.engine' has no attribute {name!r}")


learner_spec = spec_dict   # the old name

__all__ = ["ALPHA", "Comparison", "RunConfig", "Repetition", "SimulationResult", "compare",
           "compare_losses", "fit_counts", "parse_spec", "spec_dict", "learner_spec", "load_result",
           "run_chunk", "simulate", "write_summary", "ConfigMismatch", "Store",
           "truth"]
