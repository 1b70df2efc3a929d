"""Simulation engine and one-off comparisons (see :mod:`pybcv.engine.core`)."""
from .core import (ALPHA, PAPER_LEARNERS, Comparison, RunConfig, SimulationResult, compare,
                   compare_losses, fit_counts, learner_spec, load_result, run_chunk, simulate,
                   write_summary)
from .store import ConfigMismatch, Store
from . import fast, seeds, truth

__all__ = ["ALPHA", "PAPER_LEARNERS", "Comparison", "RunConfig", "SimulationResult", "compare",
           "compare_losses", "fit_counts", "learner_spec", "load_result", "run_chunk", "simulate",
           "write_summary", "ConfigMismatch", "Store", "fast", "seeds", "truth"]
