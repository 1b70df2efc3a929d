"""Data sets of the paper's type-I-error and power experiments, each drawn
from a seed (an int, a ``numpy.random.SeedSequence`` or a ``Generator``),
and :func:`load_csv` for users' own data.

=========  =====  ==========================================================
name       n      what
=========  =====  ==========================================================
epsilon    300    learner-free: per-record 0-1 losses of A and B drawn
                  directly (Dietterich); first half A ~ B(1, eps/2),
                  B ~ B(1, 3eps/2), second half the reverse (eps = 0.1)
exp6       300    6 classes on the 0.1 grid over [0, 15]^2 (22,801 points)
simple     1000   y ~ B(1, 0.5); x | y=0 ~ N(0, 1), x | y=1 ~ N(delta, 1)
letter     300    UCI letter, records drawn with replacement
=========  =====  ==========================================================

The same seed gives the same data from Python, the command line and R (R
calls these functions through reticulate).

EXP6 overlap rule.  The paper's six class rules overlap on 166 of the 22,801
grid points (Y1/Y5 and Y3/Y6, only where 2.93 < x1 < 5.07) and leave no point
unclassified.  A point gets the **first** matching rule in the paper's order
Y1, Y2, ..., Y6 (TESTS_SPEC §9.1; the choice moves true error rates by at
most 0.08 points).  Class Y2 has 67 grid points.
"""
from __future__ import annotations

import numbers
import os
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Dict, Optional

import numpy as np

LETTER_CSV = os.environ.get("PYBCV_LETTER_CSV", "/work/shared/data/uci/letter.csv.gz")
# UCI column order of the letter data (= mlbench LetterRecognition's order)
LETTER_COLUMNS = ("x_box", "y_box", "width", "high", "onpix", "x_bar", "y_bar", "x2bar",
                  "y2bar", "xybar", "x2ybr", "xy2br", "x_ege", "xegvy", "y_ege", "yegvx")


class DataError(ValueError):
    """Bad user data (missing file or column, NaN, too few records, one class)."""


@dataclass
class Dataset:
    """One data set.

    Either predictors ``X`` (2-d array or DataFrame) and labels ``y``
    (learner data sets), or fixed per-record 0-1 losses ``loss_a``,
    ``loss_b`` (learner-free: the losses do not depend on the training set).
    """
    name: str
    X: Any = None
    y: Any = None
    loss_a: Optional[np.ndarray] = None
    loss_b: Optional[np.ndarray] = None
    params: Dict[str, Any] = field(default_factory=dict)

    @property
    def learner_free(self) -> bool:
        return self.loss_a is not None

    @property
    def n(self) -> int:
        return int(len(self.loss_a) if self.learner_free else len(self.y))

    def __repr__(self):
        kind = "losses" if self.learner_free else f"X{tuple(np.shape(self.X))}"
        return f"Dataset({self.name!r}, n={self.n}, {kind}, params={self.params})"


def as_rng(seed) -> np.random.Generator:
    """A Generator from an int seed, a SeedSequence or a Generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(seed)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, a SeedSequence or a Generator, got {seed!r}")
    return np.random.default_rng(int(seed))


def _check_n(n, minimum=2):
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < minimum:
        raise ValueError(f"n must be an integer >= {minimum}, got {n!r}")
    return int(n)


# ------------------------------------------------------------------ epsilon
def epsilon(seed=0, n: int = 300, eps: float = 0.1) -> Dataset:
    """Dietterich's epsilon data: per-record losses, H0 true by construction."""
    n = _check_n(n)
    eps = float(eps)
    if not 0.0 <= 1.5 * eps <= 1.0:
        raise ValueError(f"eps must lie in [0, 2/3], got {eps}")
    g = as_rng(seed)
    h = n // 2
    first = np.arange(n) < h                                # the first half
    pa = np.where(first, eps / 2, 1.5 * eps)
    pb = np.where(first, 1.5 * eps, eps / 2)
    u = g.random((2, n))
    la = (u[0] < pa).astype(np.int8)
    lb = (u[1] < pb).astype(np.int8)
    return Dataset("epsilon", loss_a=la, loss_b=lb, params={"n": n, "eps": eps})


def epsilon_losses_batch(seeds, n: int = 300, eps: float = 0.1):
    """(R, n) loss arrays of A and B for many seeds (same draws as :func:`epsilon`)."""
    R = len(seeds)
    la = np.empty((R, n), np.int8)
    lb = np.empty((R, n), np.int8)
    for r, s in enumerate(seeds):
        d = epsilon(s, n, eps)
        la[r], lb[r] = d.loss_a, d.loss_b
    return la, lb


# ------------------------------------------------------------------ EXP6
def _f1(x):
    return x * x - 4.0 * x + 6.0


def _f2(x):
    return 4.0 * np.sin(x / 2.0) + 8.0


def _f3(x):
    return -(x * x - 108.0 * x + 236.0) / 25.0


EXP6_CLASSES = np.array([1, 2, 3, 4, 5, 6])


def exp6_rules(x1, x2) -> np.ndarray:
    """Boolean (6, N) matrix: which of the paper's rules Y1..Y6 each point meets."""
    x1 = np.asarray(x1, float)
    x2 = np.asarray(x2, float)
    a = x2 - _f1(x1) >= 0
    b = x2 - _f2(x1) >= 0
    c = x2 - _f3(x1) >= 0
    return np.stack([a & b, ~a & b & c, a & ~b, ~a & ~b & c, b & ~c, ~b & ~c])


def exp6_label(x1, x2) -> np.ndarray:
    """Class 1..6 of each point: the first matching rule in the paper's order."""
    M = exp6_rules(x1, x2)
    if not M.any(0).all():
        raise ValueError("a point matches none of the EXP6 rules")
    return EXP6_CLASSES[np.argmax(M, axis=0)]


@lru_cache(maxsize=1)
def exp6_grid():
    """The full population: X (22801, 2) on the 0.1 grid of [0, 15]^2 and y."""
    i = np.arange(151)
    x1, x2 = np.meshgrid(i / 10.0, i / 10.0, indexing="ij")
    X = np.column_stack([x1.ravel(), x2.ravel()])
    y = exp6_label(X[:, 0], X[:, 1])
    X.setflags(write=False)
    y.setflags(write=False)
    return X, y


def _resample(name, population, seed, n) -> Dataset:
    """n records drawn uniformly with replacement from a population (X, y)."""
    n = _check_n(n)
    X, y = population
    idx = as_rng(seed).integers(0, len(y), n)
    return Dataset(name, X=X[idx].copy(), y=y[idx].copy(), params={"n": n})


def exp6(seed=0, n: int = 300) -> Dataset:
    """n points drawn uniformly (with replacement) from the 22,801 grid points."""
    return _resample("exp6", exp6_grid(), seed, n)


# ------------------------------------------------------------------ simple
def simple(seed=0, n: int = 1000, delta: float = 0.0) -> Dataset:
    """y ~ B(1, 0.5); x | y = 0 ~ N(0, 1), x | y = 1 ~ N(delta, 1).

    The same seed draws the same y and noise for every delta (common random
    numbers along a power curve)."""
    n = _check_n(n)
    delta = float(delta)
    g = as_rng(seed)
    y = (g.random(n) < 0.5).astype(np.int64)
    x = g.standard_normal(n) + delta * y
    return Dataset("simple", X=x.reshape(-1, 1), y=y, params={"n": n, "delta": delta})


# ------------------------------------------------------------------ letter
@lru_cache(maxsize=2)
def letter_population(path: Optional[str] = None):
    """All 20,000 letter records: X (20000, 16) float in UCI column order, y (str)."""
    path = path or LETTER_CSV
    if os.path.exists(path):
        import pandas as pd
        df = pd.read_csv(path)
        missing = [c for c in LETTER_COLUMNS if c not in df.columns]
        if missing or "class" not in df.columns:
            raise DataError(f"{path}: expected the UCI letter columns and 'class', missing {missing}")
        X = df[list(LETTER_COLUMNS)].to_numpy(float)
        y = df["class"].astype(str).to_numpy()
    else:  # pragma: no cover - fallback when the offline copy is absent
        X, y = _letter_from_mlbench()
    X.setflags(write=False)
    y.setflags(write=False)
    return X, y


def _letter_from_mlbench():  # pragma: no cover
    """mlbench's LetterRecognition (same rows, different order: other data sets)."""
    import warnings
    import rpy2.robjects as ro
    from rpy2.robjects import pandas2ri
    from rpy2.robjects.conversion import localconverter
    ro.r("data(LetterRecognition, package = 'mlbench')")
    with localconverter(ro.default_converter + pandas2ri.converter):
        df = ro.conversion.rpy2py(ro.r("LetterRecognition"))
    warnings.warn("letter: offline copy not found, using mlbench LetterRecognition "
                  "(row order differs, so a seed gives other data sets)")
    X = df.iloc[:, 1:17].to_numpy(float)
    y = df.iloc[:, 0].astype(str).to_numpy()
    return X, y


def letter(seed=0, n: int = 300) -> Dataset:
    """n records drawn with replacement from the 20,000 letter records."""
    return _resample("letter", letter_population(), seed, n)


# ------------------------------------------------------------------ registry
GENERATORS = {"epsilon": epsilon, "exp6": exp6, "simple": simple, "letter": letter}
DEFAULT_N = {"epsilon": 300, "exp6": 300, "simple": 1000, "letter": 300}
# the data set's own parameter (CLI --param): simple's delta, epsilon's eps
DATA_PARAM = {"simple": "delta", "epsilon": "eps"}


def make_dataset(name: str, seed=0, n: Optional[int] = None, **params) -> Dataset:
    """Draw data set ``name`` (epsilon, exp6, simple, letter) from ``seed``."""
    key = str(name).lower()
    if key not in GENERATORS:
        raise ValueError(f"unknown data set {name!r}; known: {', '.join(GENERATORS)}")
    return GENERATORS[key](seed, n=DEFAULT_N[key] if n is None else n, **params)


def population(name: str):
    """The full population of a finite data set (exp6 grid, letter records)."""
    key = str(name).lower()
    if key == "exp6":
        return exp6_grid()
    if key == "letter":
        return letter_population()
    raise ValueError(f"data set {name!r} has no finite population")


# ------------------------------------------------------------------ user data
def load_csv(path, target: str = "class", min_records: int = 20) -> Dataset:
    """Read a CSV file (also .csv.gz) with one record per row.

    ``target`` names the class column; the other columns are predictors
    (numeric, or strings for categorical predictors).  Raises
    :class:`DataError` with a clear message for a missing file, a missing
    target column, missing values, fewer than ``min_records`` records, or a
    single class."""
    import pandas as pd
    path = os.fspath(path)
    if not os.path.exists(path):
        raise DataError(f"data file not found: {path}")
    if os.path.isdir(path):
        raise DataError(f"data file is a directory: {path}")
    try:
        df = pd.read_csv(path)
    except Exception as e:  # parse errors, empty file
        raise DataError(f"cannot read {path} as CSV: {e}") from None
    if target not in df.columns:
        raise DataError(f"{path}: no target column {target!r}; columns are: "
                        f"{', '.join(map(str, df.columns))}")
    if df.shape[1] < 2:
        raise DataError(f"{path}: no predictor columns besides {target!r}")
    bad = df.columns[df.isna().any()].tolist()
    if bad:
        raise DataError(f"{path}: missing values (NaN) in column(s) {', '.join(map(str, bad))}; "
                        f"drop or impute them first")
    if len(df) < min_records:
        raise DataError(f"{path}: too few records ({len(df)}); need at least {min_records}")
    y = df[target].to_numpy()
    if len(np.unique(y.astype(str))) < 2:
        raise DataError(f"{path}: the target column {target!r} has a single class")
    X = df.drop(columns=[target])
    if all(pd.api.types.is_numeric_dtype(t) for t in X.dtypes):
        X = X.to_numpy(float)
    return Dataset(os.path.basename(path), X=X, y=y, params={"path": path, "target": target})


def from_arrays(X, y, name="data") -> Dataset:
    X_ = X if hasattr(X, "iloc") else np.asarray(X)
    if getattr(X_, "ndim", 2) == 1:
        X_ = X_.reshape(-1, 1)
    y_ = np.asarray(y)
    if len(y_) != X_.shape[0]:
        raise ValueError(f"X has {X_.shape[0]} records but y has {len(y_)}")
    return Dataset(name, X=X_, y=y_)
