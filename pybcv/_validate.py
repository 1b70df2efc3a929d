"""Input checks shared by the Python learners, the R bridge and the command
lines (numpy only), and the parameter store of the estimators and splitters."""
from __future__ import annotations

import argparse
import inspect
from typing import Optional
from functools import lru_cache

import numpy as np


def keep_init_args(obj, args: dict) -> None:
    """Store ``__init__``'s arguments (its ``locals()``) as attributes of the
    same names: scikit-learn's convention, which ``get_params`` reads back."""
    for k, v in args.items():
        if k not in ("self", "__class__"):
            setattr(obj, k, v)


class Params:
    """scikit-learn's estimator protocol (clone, repr) without scikit-learn:
    ``get_params`` / ``set_params`` over the ``__init__`` parameters, which
    :func:`keep_init_args` stores (the splitters; the Python learners when
    scikit-learn is absent)."""

    @classmethod
    @lru_cache(maxsize=None)
    def _param_names(cls):
        """The names of ``__init__``'s parameters (once per class)."""
        return tuple(p for p in inspect.signature(cls.__init__).parameters if p != "self")

    def get_params(self, deep=True) -> dict:
        out = {k: getattr(self, k) for k in self._param_names()}
        if deep:    # a parameter that is an estimator: its parameters as "name__param"
            for k, v in list(out.items()):
                if hasattr(v, "get_params") and not isinstance(v, type):
                    out.update((f"{k}__{p}", w) for p, w in v.get_params(deep=True).items())
        return out

    def set_params(self, **params):
        names, nested = self._param_names(), {}
        for k, v in params.items():
            k, sep, sub = k.partition("__")
            if k not in names:
                raise ValueError(f"{type(self).__name__} has no parameter {k!r}; "
                                 f"it has {list(names)}")
            if sep:
                nested.setdefault(k, {})[sub] = v
            else:
                setattr(self, k, v)
        for k, sub in nested.items():
            getattr(self, k).set_params(**sub)
        return self

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"


def int_at_least(minimum: int, what: str = "", maximum: Optional[int] = None, why: str = ""):
    """An argparse ``type``: an integer >= ``minimum`` (and <= ``maximum``:
    ``why`` says why), else an error that says what was expected (``what``,
    default "an integer >= minimum")."""
    what = what or f"an integer >= {minimum}"

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}") from None
        if v < minimum:
            raise argparse.ArgumentTypeError(f"must be {what}, got {text}")
        if maximum is not None and v > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum:,}, got {text}{why}")
        return v
    return parse


def listed(values, limit: int = 10) -> str:
    """The first ``limit`` values, comma separated, and how many there are in all."""
    values = list(values)
    more = f", ... ({len(values)} in all)" if len(values) > limit else ""
    return ", ".join(map(str, values[:limit])) + more


def factor_columns_note(X, is_factor) -> str:
    """`` ('color', ...); choose a learner ...``: the text columns of X (its
    column names, or positions for an array) for a learner that needs
    numbers; ``is_factor`` per column (the R bridge and the Python
    stand-ins both say it)."""
    names = ([repr(c) for c in X.columns] if hasattr(X, "columns") else
             [f"column {j}" for j in range(len(is_factor))])
    return (" (" + ", ".join(c for c, f in zip(names, is_factor) if f)
            + "); choose a learner that takes factors or convert the columns")


def nonfinite_message(a, j) -> str:
    """The error for predictor column ``j`` (values ``a``) with NaN/inf."""
    bad = np.flatnonzero(~np.isfinite(a))
    return (f"X column {j} has {bad.size} missing or infinite value(s) (NaN/inf), first in row "
            f"{bad[0]}; remove or impute them before comparing learners")


def unmasked(x, name: str):
    """``x`` itself, or the data of a numpy masked array without masked
    entries; masked entries are a ValueError naming ``name`` (numpy computes
    on the values under the mask in some steps and skips them in others)."""
    if isinstance(x, np.ma.MaskedArray):
        if np.ma.getmaskarray(x).any():
            raise ValueError(f"{name} has {int(np.ma.getmaskarray(x).sum())} masked entries: pass "
                             f"the values to use, e.g. x.compressed() or x.filled(value)")
        return np.ma.getdata(x)
    return x


def missing_positions(a: np.ndarray) -> np.ndarray:
    """Positions of missing values (NaN, None) in a 1-d array of any dtype."""
    if a.dtype.kind == "f":
        return np.flatnonzero(np.isnan(a))
    if a.dtype.kind == "O":
        return np.flatnonzero([v is None or (isinstance(v, (float, np.floating)) and v != v) for v in a])
    return np.zeros(0, dtype=np.intp)


def check_labels(y) -> np.ndarray:
    """y as a 1-d array; missing labels (NaN/None, masked) are an error."""
    y = np.asarray(unmasked(y, "y"))
    if y.ndim == 2 and 1 in y.shape or y.ndim == 0:
        y = y.ravel()                    # a column or row vector (or one label)
    elif y.ndim != 1:
        hint = (" (one-hot rows? pass y.argmax(axis=1))" if y.ndim == 2 and y.dtype.kind in "biuf"
                and np.isin(y, (0, 1)).all() and (y.sum(axis=1) == 1).all() else "")
        raise ValueError(f"y must be 1-d, one label per record, got shape {y.shape}{hint}")
    miss = missing_positions(y)
    if miss.size:
        raise ValueError(f"y has {miss.size} missing label(s) (NaN/None), first in row {miss[0]}")
    return y


def csv_safe(df):
    """A copy of DataFrame ``df`` whose text cells cannot run as a formula in
    a spreadsheet: a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or
    a carriage return gets a leading ``'`` (numbers are left as they are).

    >>> import pandas as pd
    >>> csv_safe(pd.DataFrame({"a": ["=1+1", "ok"], "b": [-1.5, 2.0]})).values.tolist()
    [["'=1+1", -1.5], ['ok', 2.0]]
    """
    out = df.copy()
    for c in out.columns:
        if out[c].dtype == object:
            out[c] = [("'" + x) if isinstance(x, str) and x[:1] in ("=", "+", "-", "@", "\t", "\r")
                      else x for x in out[c]]
    return out
