"""Input checks shared by the Python learners, the R bridge and the command
lines (numpy only)."""
from __future__ import annotations

import argparse

import numpy as np


def int_at_least(minimum: int, what: str = ""):
    """An argparse ``type``: an integer >= ``minimum``, else an error that
    says what was expected (``what``, default "an integer >= minimum")."""
    what = what or f"an integer >= {minimum}"

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}") from None
        if v < minimum:
            raise argparse.ArgumentTypeError(f"must be {what}, got {text}")
        return v
    return parse


def nonfinite_message(a, j) -> str:
    """The error for predictor column ``j`` (values ``a``) with NaN/inf."""
    bad = np.flatnonzero(~np.isfinite(a))
    return (f"X column {j} has {bad.size} missing or infinite value(s) (NaN/inf), first in row "
            f"{bad[0]}; remove or impute them before comparing learners")


def check_labels(y) -> np.ndarray:
    """y as a 1-d array; missing labels (NaN/None) are an error."""
    y = np.asarray(y)
    if y.ndim != 1:
        y = y.ravel()
    if y.dtype.kind == "f":
        miss = np.flatnonzero(np.isnan(y))
    elif y.dtype.kind == "O":
        miss = np.flatnonzero([v is None or (isinstance(v, float) and v != v) for v in y])
    else:
        miss = np.zeros(0, dtype=np.intp)
    if miss.size:
        raise ValueError(f"y has {miss.size} missing label(s) (NaN/None), first in row {miss[0]}")
    return y


class LearnerContext(Exception):
    """Mixin of the errors raised while a learner runs (R errors, predictions
    that are not labels): where it happened, for the message.

    Attributes ``learner``, ``fold`` (1-based within the splits of the call),
    ``n_folds``, and ``design`` and ``repetition``, which the code that knows
    them (the engine) fills with :meth:`set_context`; the message (``str``)
    always names what is known:

    >>> class E(LearnerContext, RuntimeError):
    ...     pass
    >>> e = E.with_place("kknn", 3, 10, "incorrect number of dimensions")
    >>> str(e)
    "learner 'kknn', fold 3 of 10: incorrect number of dimensions"
    >>> str(e.set_context(design="cv10", repetition=17))
    "learner 'kknn', fold 3 of 10, design 'cv10', repetition 17: incorrect number of dimensions"
    """

    learner = None
    fold = None
    n_folds = None
    design = None
    repetition = None
    detail = ""
    prefix = "learner"

    @classmethod
    def with_place(cls, learner, fold, n_folds, detail, **kw):
        e = cls.__new__(cls)
        Exception.__init__(e, detail)
        e._place(learner, fold, n_folds, detail)
        for k, v in kw.items():
            setattr(e, k, v)
        return e

    def _place(self, learner, fold, n_folds, detail):
        self.learner, self.fold, self.n_folds, self.detail = learner, fold, n_folds, detail
        self.args = (str(self),)

    def set_context(self, design=None, repetition=None):
        """Add the design and the repetition (the engine knows them); returns self."""
        if design is not None:
            self.design = design
        if repetition is not None:
            self.repetition = int(repetition)
        self.args = (str(self),)
        return self

    def where(self) -> str:
        parts = [f"{self.prefix} {self.learner!r}"]
        if self.fold:
            parts.append(f"fold {self.fold}" + (f" of {self.n_folds}" if self.n_folds else ""))
        if self.design is not None:
            parts.append(f"design {self.design!r}")
        if self.repetition is not None:
            parts.append(f"repetition {self.repetition}")
        return ", ".join(parts)

    def __str__(self):
        return f"{self.where()}: {self.detail}"


class FitError(LearnerContext, RuntimeError):
    """A Python learner's fit or predict raised (a scikit-learn estimator on
    data it cannot take, a time limit): the message names the learner and
    the fold, and the engine adds the design and the repetition."""

    def __init__(self, learner, fold, n_folds, message):
        RuntimeError.__init__(self, message)
        self._place(learner, fold, n_folds, message)


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
