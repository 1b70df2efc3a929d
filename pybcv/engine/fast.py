"""Kept for old imports: the vectorised fold tables live in :mod:`pybcv.fold_tables`."""
from ..fold_tables import tables_batch  # noqa: F401
from ..partitions import DESIGNS  # noqa: F401
