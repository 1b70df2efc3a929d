"""Kept for old imports: the random streams live in :mod:`pybcv.seeds`."""
from ..seeds import data_seq, design_seq, rep_seq, rng, stable_id, test_seq  # noqa: F401
