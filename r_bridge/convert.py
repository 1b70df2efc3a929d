"""Python data → R-ready columns (no R needed here).

Predictors: numeric columns stay numeric (float64, R ``double``); categorical
columns (pandas ``category``, ``object`` or string columns, and numpy arrays
of strings/objects) become factors: 1-based ``int32`` codes plus their levels.
Booleans count as numeric 0/1.  The class becomes a factor whose levels are
the sorted distinct labels (``numpy.unique`` order), so level order = sorted
label order (this is what makes "majority ties → smallest label" the same in
R and Python).

A *schema* (kinds and levels of the predictor columns) taken from training
data is reused to convert prediction data, so factor codes line up.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from pybcv._validate import check_labels, nonfinite_message

R_NA_INT = np.iinfo(np.int32).min


@dataclass(frozen=True)
class Schema:
    kinds: tuple          # "num" or "fac" per column
    levels: tuple         # None (numeric) or tuple of level strings, per column
    values: tuple         # None or tuple of the original level values, per column


@dataclass
class Columns:
    schema: Schema
    data: list            # float64 arrays (num) or int32 1-based codes (fac)
    n: int


def _is_categorical_series(s):
    import pandas as pd
    return (isinstance(s.dtype, pd.CategoricalDtype) or s.dtype == object
            or pd.api.types.is_string_dtype(s.dtype))


def _sorted_levels(values):
    uniq = list(dict.fromkeys(v for v in values if v is not None and v == v))
    try:
        return sorted(uniq)
    except TypeError:
        return sorted(uniq, key=lambda v: (type(v).__name__, str(v)))


def _level_strings(level_values):
    """R's level strings: str() of each value, or L1, L2, ... when two distinct
    values have equal str()."""
    strs = tuple(str(v) for v in level_values)
    return strs if len(set(strs)) == len(strs) else tuple(f"L{i + 1}" for i in range(len(strs)))


def _factor(values, level_values):
    pos = {v: i + 1 for i, v in enumerate(level_values)}
    codes = np.fromiter((pos.get(v, R_NA_INT) for v in values), dtype=np.int32, count=len(values))
    return codes, _level_strings(level_values)


def to_columns(X, schema: Schema | None = None) -> Columns:
    """Convert a numpy array, a pandas DataFrame or a sequence of rows."""
    import pandas as pd
    cols = []            # list of (kind, raw values or pandas Series)
    if isinstance(X, pd.DataFrame):
        for name in X.columns:
            s = X[name]
            cols.append(("fac" if _is_categorical_series(s) else "num", s))
    else:
        A = np.asarray(X)
        if A.ndim == 1:
            A = A.reshape(-1, 1)
        if A.ndim != 2:
            raise ValueError(f"X must be 2-dimensional, got shape {A.shape}")
        kind = "num" if A.dtype.kind in "fiub" else "fac"
        for j in range(A.shape[1]):
            cols.append((kind, A[:, j]))
    n = len(cols[0][1]) if cols else (len(X) if hasattr(X, "__len__") else 0)
    if schema is not None and len(schema.kinds) != len(cols):
        raise ValueError(f"X has {len(cols)} columns, the learner was fitted on "
                         f"{len(schema.kinds)}")
    kinds, levels, values, data = [], [], [], []
    for j, (kind, col) in enumerate(cols):
        if schema is not None:
            kind = schema.kinds[j]
        if kind == "num":
            try:
                a = np.asarray(col, dtype=np.float64)
            except (TypeError, ValueError):
                raise ValueError(f"column {j} was numeric when fitted but cannot be "
                                 "converted to numbers now") from None
            if not np.isfinite(a).all():
                raise ValueError(nonfinite_message(a, j))
            data.append(np.ascontiguousarray(a))
            kinds.append("num"); levels.append(None); values.append(None)
            continue
        if schema is not None:
            lv_vals = list(schema.values[j])
        elif isinstance(getattr(col, "dtype", None), pd.CategoricalDtype):
            lv_vals = list(col.cat.categories)
        else:
            lv_vals = _sorted_levels(list(col))
        raw = list(col.astype(object)) if hasattr(col, "astype") else list(col)
        codes, strs = _factor(raw, lv_vals)
        if schema is not None:
            strs = schema.levels[j]
        data.append(codes)
        kinds.append("fac"); levels.append(tuple(strs)); values.append(tuple(lv_vals))
    return Columns(Schema(tuple(kinds), tuple(levels), tuple(values)), data, n)


@dataclass
class ClassCodes:
    classes: np.ndarray   # sorted distinct labels, y's dtype
    codes: np.ndarray     # int32, 1-based
    levels: tuple         # level strings for R


def class_codes(y) -> ClassCodes:
    y = check_labels(y)
    classes, inv = np.unique(y, return_inverse=True)
    return ClassCodes(classes, (inv.astype(np.int32) + 1), _level_strings(classes))


def dataset_key(cols: Columns, yc: ClassCodes) -> str:
    """A content fingerprint of the data set (predictors and class)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(repr((cols.n, cols.schema.kinds, cols.schema.levels)).encode())
    for a in cols.data:
        h.update(a.tobytes())
    h.update(repr(yc.levels).encode())
    h.update(yc.codes.tobytes())
    return "d" + h.hexdigest()
