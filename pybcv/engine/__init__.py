"""The simulation engine (by concern):

* :mod:`~pybcv.engine.config`       -- :class:`RunConfig`, what defines a run;
* :mod:`~pybcv.engine.repetition`   -- one repetition, a :class:`Repetition` record;
* :mod:`~pybcv.engine.simulation`   -- :func:`simulate`, :func:`load_result`, summaries;
* :mod:`~pybcv.engine.store`        -- the durable per-run store;
* :mod:`~pybcv.engine.archive`      -- the compact archive of a finished run (``run.npz``);
* :mod:`~pybcv.engine.truth`        -- true error rates and the FNN parameter.

Designs -> fits -> fold tables is :mod:`pybcv.pipeline`, shared with the
one-off comparisons of :mod:`pybcv.comparison`.
"""
from .config import RunConfig
from ..pipeline import parse_spec, spec_dict
from .repetition import Repetition, run_chunk
from .simulation import (ALPHA, SimulationResult, load_result, simulate, simulate_curve,
                         write_summary)
from ..errors import ConfigMismatch
from .store import Store
from . import archive, truth

__all__ = ["ALPHA", "RunConfig", "Repetition", "SimulationResult", "parse_spec", "spec_dict",
           "load_result", "run_chunk", "simulate", "simulate_curve", "write_summary",
           "ConfigMismatch", "Store", "truth", "archive"]
