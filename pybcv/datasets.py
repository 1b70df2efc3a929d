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
uci-sample 300    RQ1: records of the UCI file ``file`` drawn without
                  replacement (:func:`uci_sample`)
=========  =====  ==========================================================

The same seed gives the same data from Python, the command line and R (R
calls these functions through reticulate).

EXP6 overlap rule.  The paper's six class rules overlap on 166 of the 22,801
grid points (Y1/Y5 and Y3/Y6, only where 2.93 < x1 < 5.07) and leave no point
unclassified.  A point gets the **first** matching rule in the paper's order
Y1, Y2, ..., Y6 (``docs/conventions.md``, "The simulated data sets"; the
choice moves true error rates by at most 0.08 points).  Class Y2 has 67 grid points.
"""
from __future__ import annotations

import numbers
import os
import re
import warnings
import gzip
import csv
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Dict, Optional

import numpy as np

from ._deferred import deferred
from .errors import DataError
from .experiments import EXPERIMENTS
from ._validate import check_labels, listed, unmasked

pd = deferred("pandas")     # imported on first use: 0.2 s of start-up (_deferred.py)

def data_dir() -> str:
    """The folder of the offline data (``uci/``, ``mnist/``): the environment
    variable ``PYBCV_DATA``, else ``shared/data`` beside the checkout, else
    ``/work/shared/data``."""
    env = os.environ.get("PYBCV_DATA")
    if env:
        return env
    checkout = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    beside = os.path.join(os.path.dirname(checkout), "shared", "data")
    return beside if os.path.isdir(beside) else "/work/shared/data"


LETTER_CSV = os.environ.get("PYBCV_LETTER_CSV", os.path.join(data_dir(), "uci", "letter.csv.gz"))
# UCI column order of the letter data (= mlbench LetterRecognition's order)
LETTER_COLUMNS = ("x_box", "y_box", "width", "high", "onpix", "x_bar", "y_bar", "x2bar",
                  "y2bar", "xybar", "x2ybr", "xy2br", "x_ege", "xegvy", "y_ege", "yegvx")


@dataclass
class Dataset:
    """One data set.

    Either predictors ``X`` (2-d array or DataFrame) and labels ``y``
    (learner data sets), or fixed per-record 0-1 losses ``loss_a``,
    ``loss_b`` (learner-free: the losses do not depend on the training set),
    or a target ``y`` with fixed per-record predictions ``pred_a``,
    ``pred_b`` (learner-free under any loss: :data:`FIXED_PREDICTIONS`).
    """
    name: str
    X: Any = None
    y: Any = None
    loss_a: Optional[np.ndarray] = None
    loss_b: Optional[np.ndarray] = None
    params: Dict[str, Any] = field(default_factory=dict)
    groups: Optional[np.ndarray] = None     # one group per record (load_csv(groups=...))
    pred_a: Optional[np.ndarray] = None
    pred_b: Optional[np.ndarray] = None

    @property
    def learner_free(self) -> bool:
        return self.loss_a is not None or self.pred_a is not None

    @property
    def n(self) -> int:
        return int(len(self.loss_a) if self.loss_a is not None else len(self.y))

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


def _read_only(*arrays):
    """The arrays of a cached population, made read-only (callers share them)."""
    for a in arrays:
        a.setflags(write=False)
    return arrays


def _check_n(n, minimum=2):
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < minimum:
        raise ValueError(f"n must be an integer >= {minimum}, got {n!r}")
    return int(n)


def _number(v, name: str, what: str = "a finite number > 0", above=None) -> float:
    """``v`` as a finite float, greater than 0 (or at least ``above``), else
    the ValueError "<name> must be <what>, got <v>"."""
    v = float(v)
    if not (np.isfinite(v) and (v > 0 if above is None else v >= above)):
        raise ValueError(f"{name} must be {what}, got {v}")
    return v


# ------------------------------------------------------------------ epsilon
def epsilon(seed=0, n: int = 300, eps: float = 0.1, shift: float = 0.0) -> Dataset:
    """Dietterich's epsilon data: per-record losses, H0 true by construction.

    ``shift``: added to every record's loss probability of A (the validity
    battery's coverage families): the true difference mu_A - mu_B is then
    ``shift`` exactly for even n (the two halves cancel)."""
    n, eps, shift = _check_n(n), float(eps), float(shift)
    if not 0.0 <= 1.5 * eps <= 1.0:
        raise ValueError(f"eps must lie in [0, 2/3], got {eps}")
    if not (0.0 <= eps / 2 + shift and 1.5 * eps + shift <= 1.0):
        raise ValueError(f"shift must keep A's loss probabilities in [0, 1], got {shift} "
                         f"with eps = {eps}")
    g = as_rng(seed)
    h = n // 2
    first = np.arange(n) < h                                # the first half
    pa = np.where(first, eps / 2, 1.5 * eps) + shift
    pb = np.where(first, 1.5 * eps, eps / 2)
    u = g.random((2, n))
    la = (u[0] < pa).astype(np.int8)
    lb = (u[1] < pb).astype(np.int8)
    params = {"n": n, "eps": eps, **({"shift": shift} if shift else {})}
    return Dataset("epsilon", loss_a=la, loss_b=lb, params=params)


# ------------------------------------------------------------------ EXP6
def exp6_rules(x1, x2) -> np.ndarray:
    """Boolean (6, N) matrix: which of the paper's rules Y1..Y6 each point meets."""
    x1, x2 = np.asarray(x1, float), np.asarray(x2, float)
    a = x2 - (x1 * x1 - 4.0 * x1 + 6.0) >= 0                   # x2 >= f1(x1)
    b = x2 - (4.0 * np.sin(x1 / 2.0) + 8.0) >= 0               # x2 >= f2(x1)
    c = x2 - (-(x1 * x1 - 108.0 * x1 + 236.0) / 25.0) >= 0     # x2 >= f3(x1)
    return np.stack([a & b, ~a & b & c, a & ~b, ~a & ~b & c, b & ~c, ~b & ~c])


def exp6_label(x1, x2) -> np.ndarray:
    """Class 1..6 of each point: the first matching rule in the paper's order."""
    M = exp6_rules(x1, x2)
    if not M.any(0).all():
        raise ValueError("a point matches none of the EXP6 rules")
    return np.argmax(M, axis=0).astype(np.int64) + 1


@lru_cache(maxsize=1)
def exp6_grid():
    """The full population: X (22801, 2) on the 0.1 grid of [0, 15]^2 and y."""
    i = np.arange(151)
    x1, x2 = np.meshgrid(i / 10.0, i / 10.0, indexing="ij")
    X = np.column_stack([x1.ravel(), x2.ravel()])
    y = exp6_label(X[:, 0], X[:, 1])
    return _read_only(X, y)


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
        df = pd.read_csv(path)
        missing = [c for c in LETTER_COLUMNS if c not in df.columns]
        if missing or "class" not in df.columns:
            raise DataError(f"{path}: expected the UCI letter columns and 'class', missing {missing}")
        X = df[list(LETTER_COLUMNS)].to_numpy(float)
        y = df["class"].astype(str).to_numpy()
    else:  # pragma: no cover - fallback when the offline copy is absent
        X, y = _letter_from_mlbench()
    return _read_only(X, y)


def _letter_from_mlbench():  # pragma: no cover
    """mlbench's LetterRecognition (same rows, different order: other data sets)."""
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


# ------------------------------------------------------------------ MNIST
# The 60,000 images of the Keras training split (PYBCV_MNIST_NPZ, default the
# project's mnist.npz: x_train (60000, 28, 28) uint8, y_train); a data set of
# size n is n images drawn without replacement, pixels scaled to [0, 1].
MNIST_NPZ = os.environ.get("PYBCV_MNIST_NPZ", os.path.join(data_dir(), "mnist", "mnist.npz"))
POPULATION_SIZE = 60000


@lru_cache(maxsize=1)
def population_raw(path: Optional[str] = None):
    """The 60,000 training images (uint8, (60000, 28, 28)) and labels (int64)."""
    path = path or MNIST_NPZ
    if not os.path.exists(path):
        raise FileNotFoundError(f"MNIST file not found: {path} (set PYBCV_DATA to a folder "
                                "holding mnist/mnist.npz, or PYBCV_MNIST_NPZ to a .npz "
                                "with arrays x_train (60000, 28, 28) and y_train)")
    with np.load(path) as d:
        if "x_train" not in d.files or "y_train" not in d.files:
            raise ValueError(f"{path}: expected arrays x_train and y_train, found {d.files}")
        X, y = d["x_train"], d["y_train"].astype(np.int64)
    if X.shape != (len(y), 28, 28):
        raise ValueError(f"{path}: x_train must have shape (n, 28, 28), got {X.shape}")
    return _read_only(X, y)


def scale(images) -> np.ndarray:
    """uint8 images -> float32 rows of 784 pixels in [0, 1] (x / 255).

    >>> scale(np.full((1, 28, 28), 255, np.uint8)).max()
    1.0
    """
    a = np.asarray(images)
    return (a.reshape(len(a), -1).astype(np.float32) / np.float32(255.0))


def mnist_population():
    """(X, y): all 60,000 images as float32 rows in [0, 1] and their digits."""
    X, y = population_raw()
    return scale(X), y


def mnist(seed=0, n: int = 1000) -> Dataset:
    """n images drawn without replacement from the 60,000 (seed: int,
    SeedSequence or Generator; the engine passes ``data_seq(seed, r)``)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 2 <= n <= POPULATION_SIZE:
        raise ValueError(f"n must be an integer in [2, {POPULATION_SIZE}] (draws without "
                         f"replacement from the MNIST population), got {n!r}")
    X, y = population_raw()
    idx = as_rng(seed).choice(len(y), size=int(n), replace=False)
    return Dataset("mnist", X=scale(X[idx]), y=y[idx].copy(), params={"n": int(n)})


# UCI sets of the validity battery (numeric predictors, two classes): records
# drawn with replacement from the whole file, as letter's
UCI_RESAMPLED = ("magic", "pima", "twonorm")


@lru_cache(maxsize=4)
def uci_population(name: str):
    """All records of ``<data_dir()>/uci/<name>.csv.gz``: X (float), y (str)."""
    path = os.path.join(uci_dir(), f"{name}.csv.gz")
    d = load_csv(path)
    if not isinstance(d.X, np.ndarray):
        raise DataError(f"{path}: the validity battery needs numeric predictors only")
    return _read_only(np.asarray(d.X, float), np.asarray(d.y).astype(str))


def _resampled(name, population, doc):
    """The generator of data set ``name``: n records drawn with replacement
    from ``population(name)``."""
    def draw(seed=0, n: int = 300) -> Dataset:
        return _resample(name, population(name), seed, n)
    draw.__name__ = name.replace("-", "_")
    draw.__doc__ = doc
    return draw


# ------------------------------------------------------------------ regression (losses)
def linear(seed=0, n: int = 300, p: int = 4, sigma: float = 1.0, df: float = 0.0) -> Dataset:
    """A linear regression (the validity battery's loss families): X ~ N(0, I_p),
    y = X beta + sigma e with beta_j = 2^-j (1, 1/2, 1/4, ...) and e standard
    normal (``df = 0``) or Student's t with ``df`` degrees of freedom (heavy
    tails: squared errors with infinite variance for df <= 4)."""
    n = _check_n(n)
    if isinstance(p, bool) or int(p) != p or int(p) < 1:
        raise ValueError(f"p must be an integer >= 1, got {p!r}")
    p, sigma = int(p), _number(sigma, "sigma")
    df = _number(df, "df", "0 (normal errors) or a number > 0", 0.0)
    g = as_rng(seed)
    X = g.standard_normal((n, p))
    e = g.standard_normal(n) if df == 0 else g.standard_t(df, n)
    y = X @ (0.5 ** np.arange(p)) + sigma * e
    return Dataset("linear", X=X, y=y, params={"n": n, "p": p, "sigma": sigma, "df": df})


# ------------------------------------------------------------------ fixed predictions
def twin_residuals(seed=0, n: int = 300, noise: float = 1.0, df: float = 0.0,
                   bias: float = 0.0) -> Dataset:
    """Learner-free regression twins: y ~ N(0, 1), a shared prediction
    s = y + e (e ~ N(0, 1), the error both predictors make), and two fixed
    predictions pred_a = s + noise u, pred_b = s + noise v with u, v
    independent standard normal (``df = 0``) or Student's t with ``df``
    degrees of freedom (heavy-tailed losses).  (pred_a, pred_b) is
    exchangeable given y, so E loss_A = E loss_B under any loss: H0 by
    construction, with losses of A and B positively correlated through s.
    ``bias`` is added to pred_a (the same draws): under the squared loss
    mu_A - mu_B = bias^2 (u, v have mean 0), a known true difference."""
    n = _check_n(n)
    noise, df = _number(noise, "noise"), _number(df, "df", "0 (normal) or a number > 0", 0.0)
    bias = _number(bias, "bias", "a finite number", -np.inf)
    g = as_rng(seed)
    y = g.standard_normal(n)
    s = y + g.standard_normal(n)
    u = g.standard_normal((2, n)) if df == 0 else g.standard_t(df, (2, n))
    return Dataset("twin-residuals", y=y, pred_a=s + noise * u[0] + bias, pred_b=s + noise * u[1],
                   params={"n": n, "noise": noise, "df": df, "bias": bias})


def twin_labels(seed=0, n: int = 300, eps: float = 0.2, classes: int = 3) -> Dataset:
    """Learner-free classifier twins: y uniform on ``classes`` labels; record
    i is hard (error probability 1.5 eps) or easy (0.5 eps) with probability
    1/2 each, for both A and B; each of A and B independently predicts y,
    or on an error a uniformly drawn other label.  Exchangeable: H0 under
    any cost matrix, with losses positively correlated through the
    records' difficulty."""
    n = _check_n(n)
    eps = float(eps)
    if isinstance(classes, bool) or int(classes) != classes or int(classes) < 2:
        raise ValueError(f"classes must be an integer >= 2, got {classes!r}")
    k = int(classes)
    if not 0.0 <= 1.5 * eps <= 1.0:
        raise ValueError(f"eps must lie in [0, 2/3], got {eps}")
    g = as_rng(seed)
    y = g.integers(0, k, n)
    p = np.where(g.random(n) < 0.5, 1.5 * eps, 0.5 * eps)
    wrong = g.random((2, n)) < p
    other = (y + g.integers(1, k, (2, n))) % k
    pred = np.where(wrong, other, y)
    return Dataset("twin-labels", y=y, pred_a=pred[0], pred_b=pred[1],
                   params={"n": n, "eps": eps, "classes": k})


def shift_twins(seed=0, n: int = 300) -> Dataset:
    """The validity battery's null with training variability: y uniform on
    {0, 1} and, for each of the twins k = A, B, a shift driver z_k ~ N(0, 1)
    and an error draw u_k ~ U(0, 1) per record; X = [y, z_A, u_A, z_B, u_B].
    :class:`pybcv.validity.ShiftTwin` k trained on rows S errs on a record
    iff u_k < 0.3 + c mean(z_k[S]): its error rate moves with the training
    set, and A and B are exchangeable (H0 exact)."""
    n = _check_n(n)
    g = as_rng(seed)
    y = g.integers(0, 2, n)
    z, u = g.normal(size=(2, n)), g.random((2, n))
    return Dataset("shift-twins", X=np.column_stack([y, z[0], u[0], z[1], u[1]]), y=y,
                   params={"n": n})


def twin_probs(seed=0, n: int = 300, noise: float = 1.0, signal: float = 1.0) -> Dataset:
    """Learner-free probability twins (the log loss): y ~ B(1, 1/2), a
    shared score s = signal (2y - 1) + e (e ~ N(0, 1)), and two fixed
    predictions of P(y = 1), sigmoid(s + noise u) and sigmoid(s + noise v)
    with u, v independent standard normal, as (records, 2) class
    probabilities.  Exchangeable given y: H0 under the log loss (any loss),
    with the losses of A and B positively correlated through s."""
    n = _check_n(n)
    noise, signal = _number(noise, "noise"), _number(signal, "signal", "a finite number", -np.inf)
    g = as_rng(seed)
    y = g.integers(0, 2, n)
    s = signal * (2 * y - 1) + g.standard_normal(n)
    p1 = 1.0 / (1.0 + np.exp(-(s + noise * g.standard_normal((2, n)))))
    pa, pb = (np.column_stack([1.0 - q, q]) for q in p1)
    return Dataset("twin-probs", y=y, pred_a=pa, pred_b=pb,
                   params={"n": n, "noise": noise, "signal": signal})


#: learner-free data sets of fixed predictions (compared under any loss):
#: {name: "regression" (numeric predictions), "classes" (labels) or
#: "proba" (class probabilities: the log loss)}
FIXED_PREDICTIONS = {"twin-residuals": "regression", "twin-labels": "classes",
                     "twin-probs": "proba"}


#: UCI sets with a numeric column as the target (records drawn with
#: replacement; the other numeric columns are the predictors, the class is
#: left out): {data set: (file, column)}
UCI_TARGETS = {"magic-length": ("magic", "fLength")}


@lru_cache(maxsize=2)
def uci_target_population(name: str):
    """(X, y) of :data:`UCI_TARGETS` ``name``: y the target column (float)."""
    file, column = UCI_TARGETS[name]
    X, _ = uci_population(file)
    with _open_text(os.path.join(uci_dir(), f"{file}.csv.gz")) as fh:
        header = [c.strip() for c in fh.readline().strip().split(",")]
    j = header.index(column)
    return _read_only(np.delete(X, j, axis=1), X[:, j].copy())


#: What a UCI file's name may look like: it becomes a file and folder name
#: (``<name>.csv.gz``, ``runs/<name>``), so no path separator, no leading dot or sign.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]{0,63}")


def check_name(name, where: str = "data set") -> str:
    """``name`` when it is a safe data-set name (:data:`NAME_PATTERN`), else
    ValueError naming it and ``where`` it came from.

    >>> check_name("tic_tac_toe")
    'tic_tac_toe'
    >>> check_name("../x", "--datasets")
    Traceback (most recent call last):
    ...
    ValueError: --datasets: data-set name '../x' is not a plain name (letters, digits and _, at most 64)
    """
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"{where}: data-set name {name!r} is not a plain name (letters, "
                         f"digits and _, at most 64)")
    return name


def uci_dir() -> str:
    """The folder of the UCI files: ``uci/`` under :func:`data_dir`."""
    return os.path.join(data_dir(), "uci")


@lru_cache(maxsize=8)
def read_uci(path: str):
    """(X, y, n_dropped) of one UCI file as RQ1 reads it, by :func:`load_csv`:
    predictors (float ndarray when all numeric, else a DataFrame with string
    factor columns and float numeric ones), labels as strings, records with a
    missing value dropped and counted ("the record that contains missing
    values is omitted", [YWSL])."""
    with warnings.catch_warnings():         # the notes on categorical and dropped records
        warnings.simplefilter("ignore", UserWarning)
        d = load_csv(path, drop_missing=True, min_records=1)
    X = d.X
    if not isinstance(X, np.ndarray):
        X = X.astype({c: float if X[c].dtype.kind in "iuf" else str for c in X.columns})
    return X, pd.Series(d.y).astype(str).to_numpy(), len(d.params["dropped_lines"])


def drop_single_level(X):
    """The sample without its factor columns that hold a single level (no
    information for any learner; kknn's contrasts refuse them).

    >>> import pandas as pd
    >>> list(drop_single_level(pd.DataFrame({"a": ["x", "x"], "b": ["u", "v"], "c": [1.0, 1.0]})).columns)
    ['b', 'c']
    """
    keep = [c for c in X.columns if X[c].dtype.kind in "fiub" or X[c].nunique() >= 2]
    return X[keep].reset_index(drop=True)


def uci_sample(seed=0, n: int = 300, file: Optional[str] = None,
               folder: Optional[str] = None) -> Dataset:
    """RQ1's data: n records drawn without replacement from the UCI file
    ``<folder>/<file>.csv.gz`` (default folder :func:`uci_dir`; :func:`read_uci`),
    factor columns with a single level in the sample dropped
    (:func:`drop_single_level`)."""
    n = _check_n(n)
    name = check_name(file, "uci-sample: parameter file")
    X, y, _ = read_uci(os.path.join(folder or uci_dir(), name + ".csv.gz"))
    if n > len(y):
        raise ValueError(f"data set {name!r}: n={n} exceeds its {len(y)} records")
    idx = as_rng(seed).choice(len(y), size=n, replace=False)
    Xs = X[idx] if isinstance(X, np.ndarray) else drop_single_level(X.iloc[idx])
    return Dataset(name, X=Xs, y=y[idx], params={"n": n, "file": name})


GENERATORS = {"epsilon": epsilon, "exp6": exp6, "simple": simple, "letter": letter, "mnist": mnist,
              **{k: _resampled(k, uci_population, f"n records drawn with replacement from UCI "
                                                  f"{k} (the validity battery).")
                 for k in UCI_RESAMPLED}, "linear": linear,
              **{k: _resampled(k, uci_target_population, f"n records drawn with replacement "
                               f"from UCI {v[0]}, target {v[1]} (numeric).")
                 for k, v in UCI_TARGETS.items()},
              "twin-residuals": twin_residuals, "twin-labels": twin_labels,
              "twin-probs": twin_probs, "shift-twins": shift_twins, "uci-sample": uci_sample}
# read from the experiments' records: the default size, and the data set's own
# parameter (CLI --param: simple's delta, epsilon's eps)
DEFAULT_N: Dict[str, int] = {}
DATA_PARAM: Dict[str, str] = {}
for _e in EXPERIMENTS.values():         # the first record of a data set gives its defaults
    DEFAULT_N.setdefault(_e.dataset, _e.n)
    if _e.varies == "data":
        DATA_PARAM.setdefault(_e.dataset, _e.varied)


def make_dataset(name: str, seed=0, n: Optional[int] = None, **params) -> Dataset:
    """Draw data set ``name`` (epsilon, exp6, simple, letter) from ``seed``."""
    key = str(name).lower()
    if key not in GENERATORS:
        raise ValueError(f"unknown data set {name!r}; known: {', '.join(GENERATORS)}")
    return GENERATORS[key](seed, n=DEFAULT_N[key] if n is None else n, **params)


def population(name: str):
    """The full population of a finite data set (exp6 grid, letter records)."""
    key = str(name).lower()
    if key in UCI_RESAMPLED:
        return uci_population(key)
    if key not in ("exp6", "letter", "mnist"):
        raise ValueError(f"data set {name!r} has no finite population")
    return {"exp6": exp6_grid, "letter": letter_population, "mnist": mnist_population}[key]()


# ------------------------------------------------------------------ user data
# Cells read as a missing value whatever the column (UCI writes "?", R "NA",
# pandas "NaN"; an empty cell is missing too).  Compared after stripping
# surrounding blanks.
MISSING_MARKERS = ("", "?", "NA", "N/A", "NaN", "nan", "NULL", "null", "None")


def _open_text(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", newline="", encoding="utf-8-sig")
    return open(path, "r", newline="", encoding="utf-8-sig")


def _read_rows(path, sep):
    """(header, rows, lines): the raw cells of a delimited text file and the
    1-based file line on which each record starts (header = line 1; a quoted
    cell may span lines, so the line is taken from the reader)."""
    try:
        with _open_text(path) as fh:
            reader = csv.reader(fh, delimiter=sep, strict=True)
            header, rows, lines = None, [], []
            start = 1
            for rec in reader:
                if header is None:
                    header = rec
                elif rec and (len(rec) > 1 or rec[0].strip()):   # blank lines are skipped
                    rows.append(rec)
                    lines.append(start)
                start = reader.line_num + 1
    except UnicodeDecodeError as e:
        raise DataError(f"cannot read {path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except (csv.Error, OSError, EOFError) as e:
        raise DataError(f"cannot read {path} as CSV: {e}") from None
    if header is None:
        raise DataError(f"{path}: the file is empty (no header line)")
    return header, rows, lines


#: a decimal literal, which float() reads even beyond the float range ("1e999")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _plain_ascii(cells) -> bool:
    """No cell with a character outside ASCII or an underscore, which
    Python's float() would read ("1_000", non-Latin digits) but pandas, and
    so this module, reads as text."""
    text = "".join(cells.tolist())
    return text.isascii() and "_" not in text


def _as_numbers(cells):
    """float values of string cells; NaN where a cell is not a number.  A
    decimal literal beyond the float range ("1e999") becomes +-inf (pandas
    alone would make it NaN, i.e. "not a number")."""
    cells = np.asarray(cells, dtype=object)
    if _plain_ascii(cells):
        try:        # fast path: every cell a number (Python's float(), as numpy converts)
            return cells.astype(np.float64)
        except (TypeError, ValueError):
            pass
    num = pd.to_numeric(pd.Series(cells, dtype=object), errors="coerce").to_numpy(float)
    for i in np.flatnonzero(np.isnan(num)):
        c = cells[i]
        if isinstance(c, str) and _DECIMAL.fullmatch(c):
            num[i] = float(c)
    return num


def _classify_column(cells, missing):
    """("num" | "cat", numbers, bad) for one column of stripped string cells:
    numeric-looking when more than half of its non-missing cells are numbers
    (finite or not); ``bad`` marks the non-missing cells of a numeric-looking
    column that are not finite numbers (text such as "abc", or "1e999",
    which overflows to infinity)."""
    with np.errstate(over="ignore"):
        num = _as_numbers(cells)
    present = ~missing
    parsed = present & ~np.isnan(num)
    if parsed.sum() * 2 > present.sum() and present.any():
        return "num", num, present & ~np.isfinite(num)
    return "cat", num, np.zeros(len(cells), bool)


#: The fewest records :func:`load_csv` (the command line's data) and R's
#: compare_learners accept before any fit.
MIN_RECORDS = 20


def check_records(y, where: str, target, min_records: int = MIN_RECORDS) -> None:
    """The data checks before any fit: at least ``min_records`` records and
    two classes (values) or more in the target ``y``; a :class:`DataError`
    starting with ``where`` (the file, or R's data frame) otherwise.  The one
    home of the rule for :func:`load_csv` and R's ``compare_learners``."""
    check_record_count(len(y), where, min_records)
    if len(np.unique(np.asarray(y).astype(str))) < 2:
        raise DataError(f"{where}: the target column {target!r} has a single class")


def label_variants_note(y, where: str, target) -> Optional[str]:
    """A note when text class labels differ only in case or surrounding
    spaces ('Yes' beside 'yes'): they are compared as classes of their own,
    which a stray spelling rarely means.  None otherwise (numbers, or no
    such labels).  The one home of the rule for load_csv, from_arrays and
    R's compare_learners."""
    a = np.asarray(y)
    if a.dtype.kind not in "OUS":
        return None
    values, counts = np.unique(a.astype(str), return_counts=True)
    same: Dict[str, list] = {}
    for v, c in zip(values.tolist(), counts.tolist()):
        same.setdefault(v.strip().casefold(), []).append(f"{v!r} ({c} record{'s' * (c != 1)})")
    clash = [v for v in same.values() if len(v) > 1]
    if not clash:
        return None
    return (f"{where}: the target column {target!r} has labels that differ only in case or "
            f"spaces: {'; '.join(', '.join(v) for v in clash[:3])}"
            f"{f' (and {len(clash) - 3} more such groups)' if len(clash) > 3 else ''}; each is a class of "
            f"its own: correct them if they are one class")


def check_record_count(n: int, where: str, min_records: int = MIN_RECORDS) -> None:
    """The record count part of :func:`check_records`."""
    if n < min_records:
        raise DataError(f"{where}: too few records ({n}); need at least {min_records}")


def load_csv(path, target: str = "class", min_records: int = MIN_RECORDS, sep: str = ",",
             na_values=(), drop_missing: bool = False, groups: Optional[str] = None,
             decimal: str = ".") -> Dataset:
    """Read a delimited text file (also .gz) with a header line and one
    record per line.

    ``target`` names the class column; the other columns are predictors.  A
    column is numeric when more than half of its non-missing cells are
    numbers; otherwise it is categorical (its values are labels).

    The input contract (every violation is a :class:`DataError` that names
    the column and the 1-based file line, the header being line 1):

    * a missing value (a cell equal to one of :data:`MISSING_MARKERS` such as
      ``?``, ``NA`` or an empty cell, or to one of ``na_values``) in any
      column is an error, unless ``drop_missing=True``: then the records
      holding one are dropped and listed in ``params["dropped_lines"]`` (a
      warning says how many);
    * in a numeric column, a cell that is not a finite number (``abc``,
      ``inf``, ``1e999`` which overflows) is an error;
    * duplicate column names are an error (read from the raw header: pandas
      would silently rename the copy ``class.1`` and keep it as a predictor),
      and so is an empty column name;
    * a record with more or fewer cells than the header is an error;
    * the class column must exist, hold two classes or more, and the file
      at least ``min_records`` records.

    ``sep``: the delimiter (one character, e.g. ``";"`` or ``"\\t"``).
    ``groups``: a column naming each record's group (for a grouped BCV); it
    is not a predictor and is returned as ``Dataset.groups``.
    ``decimal``: the decimal mark of numbers, ``"."`` or ``","`` (``"1,5"``
    is 1.5; the separator must then be another character, e.g. ``";"``).

    After reading, a warning lists the predictors read as categorical (with
    their numbers of levels), and another one names a categorical column
    with many levels whose values look like numbers (decimal commas read
    with ``decimal="."``, or numbers with units), which is how a numeric
    column read wrongly shows itself.

    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "d.csv")
    >>> _ = open(p, "w").write("a,b,class\\n1,2,x\\n3,?,y\\n" + "5,6,x\\n7,8,y\\n" * 10)
    >>> load_csv(p)                            # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pybcv.errors.DataError: ...d.csv: column 'b', line 3: missing value '?' ...
    >>> d = load_csv(p, drop_missing=True)     # doctest: +SKIP
    >>> d.n, d.params["dropped_lines"]         # doctest: +SKIP
    (21, [3])
    """
    path = os.fspath(path)
    if not isinstance(sep, str) or len(sep) != 1:
        raise ValueError(f"sep must be a single character, got {sep!r}")
    if decimal not in (".", ","):
        raise ValueError(f"decimal must be '.' or ',', got {decimal!r}")
    if decimal == sep:
        raise ValueError(f"decimal {decimal!r} is also the field separator; numbers with decimal "
                         f"commas need another separator, such as sep=';'")
    if isinstance(na_values, str):
        na_values = (na_values,)
    markers = set(MISSING_MARKERS) | {str(v).strip() for v in (na_values or ())}
    if not os.path.exists(path):
        raise DataError(f"data file not found: {path}")
    if os.path.isdir(path):
        raise DataError(f"data file is a directory: {path}")
    header, rows, lines = _read_rows(path, sep)
    names = [h.strip() for h in header]
    seen: Dict[str, int] = {}
    for j, h in enumerate(names):
        if not h:
            raise DataError(f"{path}: column {j + 1} of the header (line 1) has no name")
        if h in seen:
            raise DataError(f"{path}: duplicate column name {h!r} in the header (line 1), "
                            f"columns {seen[h] + 1} and {j + 1}; every column needs its own name")
        seen[h] = j
    if target not in seen:
        same = [h for h in names if h.lower() == str(target).lower()]
        other = [c for c in ",;\t| " if c != sep and c in header[0]] if len(names) == 1 else []
        hint = (f" (did you mean {same[0]!r}? column names are case-sensitive)" if same else
                f" (the header is one column: is the separator {other[0]!r} rather than "
                f"{sep!r}? give sep={other[0]!r})" if other else
                "; name the target column with target='<column>'")
        raise DataError(f"{path}: no target column {target!r}; columns are: "
                        f"{', '.join(names)}{hint}")
    if groups is not None:
        if groups not in seen:
            raise DataError(f"{path}: no groups column {groups!r}; columns are: {', '.join(names)}")
        if groups == target:
            raise DataError(f"{path}: the groups column {groups!r} is the target column; "
                            f"name a column that says which group each record belongs to")
    if len(names) < 2 + (groups is not None):
        raise DataError(f"{path}: no predictor columns besides "
                        + (f"{target!r}" if groups is None else f"{target!r} and {groups!r}"))
    p = len(names)
    for rec, line in zip(rows, lines):
        if len(rec) != p:
            raise DataError(f"{path}: line {line} has {len(rec)} cells, the header has {p} "
                            f"(check the separator: sep={sep!r})")
    n = len(rows)
    line_arr = np.asarray(lines, dtype=np.int64)
    cells = np.array(rows, dtype=object).reshape(n, p) if n else np.empty((0, p), object)
    cells = np.vectorize(str.strip, otypes=[object])(cells) if n else cells
    missing = pd.DataFrame(cells, dtype=object).isin(markers).to_numpy(bool).reshape(n, p)
    # the cells as numbers are read: decimal commas turned into points
    num_cells = cells if decimal == "." or not n else \
        np.vectorize(lambda c: c.replace(",", "."), otypes=[object])(cells)
    kinds, numbers = [], []
    for j in range(p):
        kind, num, bad = _classify_column(num_cells[:, j], missing[:, j])
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            v = cells[i, j]
            what = ("overflows to infinity" if np.isinf(num[i]) and "inf" not in v.lower()
                    else "is not a finite number")
            raise DataError(f"{path}: column {names[j]!r}, line {line_arr[i]}: {v!r} {what}, "
                            f"but the column is numeric ({int(bad.sum())} such cell(s) in it, "
                            f"on line(s) {listed(line_arr[bad])}); correct the file, or "
                            f"if the cell marks a missing value pass it in na_values with "
                            f"drop_missing=True")
        kinds.append(kind)
        numbers.append(num)
    dropped: list = []
    if missing.any():
        rows_bad = missing.any(axis=1)
        if not drop_missing:
            i, j = map(int, np.argwhere(missing)[0])
            cols = [names[c] for c in np.flatnonzero(missing.any(axis=0))]
            raise DataError(f"{path}: column {names[j]!r}, line {line_arr[i]}: missing value "
                            f"{cells[i, j]!r} ({int(rows_bad.sum())} record(s) with missing "
                            f"values, in column(s) {', '.join(map(repr, cols))}, on line(s) "
                            f"{listed(line_arr[rows_bad])}); impute them, or pass "
                            f"drop_missing=True to drop those records")
        dropped = line_arr[rows_bad].tolist()
        warnings.warn(f"{path}: dropped {len(dropped)} record(s) with missing values, on "
                      f"line(s) {listed(dropped)}", UserWarning, stacklevel=2)
        keep = ~rows_bad
        cells, num_cells, line_arr = cells[keep], num_cells[keep], line_arr[keep]
        numbers = [num[keep] for num in numbers]
    cols = {}
    for j, h in enumerate(names):
        if kinds[j] == "num":
            # pandas' own reading of the validated cells: int64 when every
            # cell is an integer literal, float64 otherwise (as read_csv)
            try:
                cols[h] = num_cells[:, j].astype(np.int64) if _plain_ascii(num_cells[:, j]) \
                    else pd.to_numeric(pd.Series(num_cells[:, j], dtype=object)).to_numpy()
            except (TypeError, ValueError, OverflowError):
                cols[h] = numbers[j]
        else:
            cols[h] = cells[:, j].astype(str).astype(object)
    df = pd.DataFrame(cols)
    y = df[target].to_numpy()
    check_records(y, path, target, min_records)
    note = label_variants_note(y, path, target)
    if note:
        warnings.warn(note, UserWarning, stacklevel=2)
    not_X = [target] + ([] if groups is None else [groups])
    _note_categorical(path, [(h, cells[:, j]) for j, h in enumerate(names)
                             if kinds[j] == "cat" and h not in not_X], decimal)
    X = df.drop(columns=not_X)
    if all(k == "num" for h, k in zip(names, kinds) if h not in not_X):
        X = X.to_numpy(float)
    return Dataset(os.path.basename(path), X=X, y=y,
                   params={"path": path, "target": target, "sep": sep,
                           "dropped_lines": dropped},
                   groups=None if groups is None else df[groups].to_numpy())


#: a categorical column with more levels than this whose values look like
#: numbers gets a warning (a numeric column read wrongly)
MANY_LEVELS = 20


#: a cell that begins as a number ("3 kg", "-0.5", ".5%")
_NUMBER_START = re.compile(r"\s*[-+]?\.?\d")


def decimal_comma_example(values) -> Optional[str]:
    """A value of ``values`` (text cells) that is a number with a decimal
    comma ('-0,25') when more than half of them are numbers once commas are
    read as points, else None: a column written with decimal commas."""
    values = [str(v) for v in values]
    if not any("," in v for v in values):
        return None
    as_num = _as_numbers(np.array([v.replace(",", ".") for v in values], dtype=object))
    if np.isfinite(as_num).mean() <= 0.5:
        return None
    return next((v for v, x in zip(values, as_num) if "," in v and np.isfinite(x)), None)


def comma_numbers_message(where: str, column: str, values, fix: str) -> Optional[str]:
    """The error for a text column with more than MANY_LEVELS distinct
    values, every one a number once its comma is read as a point ('0,25',
    '-1,3', '12'; some with a comma): numbers written with decimal commas
    (or thousands separators), which as text would be a predictor of one
    level per value.  None for any other column.  ``fix``: what to do, in
    the caller's words (load_csv, from_arrays, R)."""
    values = [str(v) for v in values]
    distinct = set(values)
    if len(distinct) <= MANY_LEVELS or not any("," in v for v in distinct):
        return None
    as_num = _as_numbers(np.array([v.replace(",", ".") for v in distinct], dtype=object))
    if not np.isfinite(as_num).all():
        return None
    example = next(v for v in values if "," in v)
    return (f"{where}: column {column!r} holds numbers written with a comma (e.g. {example!r}), "
            f"which would be read as text with {len(distinct)} levels: {fix} (for decimal "
            f"commas), or remove the thousands separators")


def _note_categorical(path, columns, decimal, listed=True, fix="read them with decimal=','"):
    """Warnings after reading: which predictors are categorical (``listed``),
    which of them look numeric (decimal commas, or digits in most cells) and
    which look like identifiers (one distinct value per record)."""
    if not columns:
        return
    levels = {h: len(set(c.tolist())) for h, c in columns}
    if listed:
        warnings.warn(f"{path}: read as categorical (not numbers): "
                      + ", ".join(f"{h!r} ({levels[h]} levels)" for h, _ in columns[:10])
                      + (f", ... ({len(columns)} columns in all)" if len(columns) > 10 else ""),
                      UserWarning, stacklevel=3)
    for h, c in columns:
        if levels[h] <= MANY_LEVELS:
            continue
        if decimal == ".":
            error = comma_numbers_message(path, h, c.tolist(), fix)
            if error is not None:
                raise DataError(error)
            example = decimal_comma_example(c.tolist())
            if example is not None:
                warnings.warn(f"{path}: column {h!r} has {levels[h]} levels and looks numeric: its "
                              f"values are numbers with decimal commas (e.g. {example!r}); {fix}",
                              UserWarning, stacklevel=3)
                continue
        # one value per record that does not begin as a number ('P0000', not '3 kg'): a name
        if levels[h] == len(c) and not any(_NUMBER_START.match(str(v)) for v in c.tolist()):
            warnings.warn(f"{path}: column {h!r} looks like an identifier (all {len(c)} values "
                          f"distinct, e.g. {str(c[0])!r}): drop it from the data (it is used as "
                          f"a predictor)", UserWarning, stacklevel=3)
            continue
        digits = np.mean([any(ch.isdigit() for ch in v) for v in c.tolist()])
        if digits > 0.5:
            example = next(v for v in c.tolist() if any(ch.isdigit() for ch in v))
            warnings.warn(f"{path}: column {h!r} has {levels[h]} levels and looks numeric (most "
                          f"values hold digits, e.g. {example!r}) but is read as categorical; "
                          f"if it is a number, correct those cells", UserWarning, stacklevel=3)


def _check_column_values(values, where: str):
    """Raise DataError when a predictor column (1-d array) holds missing or
    non-finite values, or (for an object column that is mostly numbers) a
    cell that is not a number; ``where`` names the column."""
    a = np.asarray(values)
    if a.dtype.kind in "fc":
        bad = ~np.isfinite(a)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise DataError(f"{where}, row {i}: {a[i]!r} is not a finite number "
                            f"({int(bad.sum())} such value(s)); remove or impute them")
        return
    if a.dtype.kind in "iub":
        return
    strs = np.array([("" if v is None else str(v)).strip() for v in a.tolist()], dtype=object)
    missing = np.array([v is None or (isinstance(v, float) and v != v) for v in a.tolist()]) \
        | np.isin(strs, list(MISSING_MARKERS))
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        raise DataError(f"{where}, row {i}: missing value {a[i]!r} ({int(missing.sum())} "
                        f"missing value(s)); remove or impute them")
    kind, num, bad = _classify_column(strs, missing)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(f"{where}, row {i}: {a[i]!r} is not a finite number, but the column "
                        f"is numeric ({int(bad.sum())} such value(s))")


def from_arrays(X, y, name="data") -> Dataset:
    """A :class:`Dataset` from predictors ``X`` (2-d array, DataFrame, or a
    1-d array for one predictor) and labels ``y``, under load_csv's input
    contract: missing values (NaN, None, the :data:`MISSING_MARKERS`),
    infinities, and non-numbers in a mostly numeric object column are an
    error naming the column and the 0-based row; so are duplicate column
    names of a DataFrame, missing labels, and X and y of different lengths.

    >>> from_arrays([[1.0], [float("nan")]], [0, 1])
    Traceback (most recent call last):
    ...
    pybcv.errors.DataError: X column 0, row 1: nan is not a finite number (1 such value(s)); remove or impute them
    """
    X_ = X if hasattr(X, "iloc") else np.asarray(unmasked(X, "X"))
    if getattr(X_, "ndim", 2) == 1:
        X_ = X_.reshape(-1, 1)
    if getattr(X_, "ndim", 2) != 2:
        raise ValueError(f"X must be 2-dimensional, got shape {np.shape(X_)}")
    try:
        y_ = check_labels(y)
    except ValueError as e:
        raise DataError(str(e)) from None
    note = label_variants_note(y_, name, getattr(y, "name", None) or "y")
    if note:
        warnings.warn(note, UserWarning, stacklevel=2)
    if len(y_) != X_.shape[0]:
        raise ValueError(f"X has {X_.shape[0]} records but y has {len(y_)}")
    if hasattr(X_, "columns"):
        cols = [str(c) for c in X_.columns]
        dup = sorted({c for c in cols if cols.count(c) > 1})
        if dup:
            raise DataError(f"X has duplicate column name(s) {dup}; every column needs its own name")
        for j, c in enumerate(X_.columns):
            _check_column_values(X_.iloc[:, j].to_numpy(), f"X column {c!r}")
        # text columns that hold numbers with decimal commas: said, as load_csv says it
        _note_categorical(name, [(str(c), X_[c].to_numpy()) for c in X_.columns
                                 if X_[c].dtype == object and all(isinstance(v, str) for v in X_[c])],
                          ".", listed=False, fix="convert them, e.g. pd.to_numeric(col.str.replace("
                                                 "',', '.'))")
    elif X_.dtype.kind not in "iub":
        for j in range(X_.shape[1]):
            _check_column_values(X_[:, j], f"X column {j}")
    return Dataset(name, X=X_, y=y_)
