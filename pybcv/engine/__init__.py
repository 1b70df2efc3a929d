"""The simulation engine (by concern):

* :mod:`~pybcv.engine.config`       -- :class:`RunConfig`, what defines a run;
* :mod:`~pybcv.engine.fitting`  -- designs -> predictions -> fold tables (the one place);
* :mod:`~pybcv.engine.repetition`   -- one repetition, a :class:`Repetition` record;
* :mod:`~pybcv.engine.simulation`   -- :func:`simulate`, :func:`load_result`, summaries;
* :mod:`~pybcv.engine.store`        -- the durable per-run store;
* :mod:`~pybcv.engine.truth`        -- true error rates and the FNN parameter.

One-off comparisons live in :mod:`pybcv.comparison`.
"""
from .config import RunConfig
from .fitting import parse_spec, spec_dict
from .repetition import Repetition, run_chunk
from .simulation import ALPHA, SimulationResult, load_result, simulate, write_summary
from .store import ConfigMismatch, Store
from . import truth

__all__ = ["ALPHA", "RunConfig", "Repetition", "SimulationResult", "parse_spec", "spec_dict",
           "load_result",
           "run_chunk", "simulate", "write_summary", "ConfigMismatch", "Store",
           "truth"]
