"""A time limit per fit (``timeout=`` in Python, ``--timeout`` on the command
line, ``timeout`` in R).

``with fit_timeout(seconds):`` sets the limit for the learners that run
inside (a context variable, so nothing global is left behind).  Each fit of
a Python learner then runs under :func:`one_fit`, which arms a real-time
timer (``SIGALRM``; the main thread of a POSIX process) and raises
:class:`FitTimeout` in the fit when it runs longer; the learner turns that
into a failure naming the learner and the fold, which the engine records
like any other learner failure.  An R learner gets the limit as the R option
``pybcv.timeout``, which ``R/inst/batch.R`` applies to every fold with
``setTimeLimit``.  Code that does not return to Python (or to R's interrupt
checks) cannot be stopped before it does: a C loop of numpy ends its loop,
Weka's Java fit its fit.
"""
from __future__ import annotations

import contextvars
import math
import numbers
import signal
import threading
from contextlib import contextmanager
from typing import Optional

_LIMIT: contextvars.ContextVar = contextvars.ContextVar("pybcv_fit_timeout", default=None)


def check_timeout(seconds, name: str = "timeout") -> Optional[float]:
    """None, or a positive finite number of seconds."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real) \
            or not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"{name} must be a positive number of seconds (or None), got {seconds!r}")
    return float(seconds)


def current() -> Optional[float]:
    """The per-fit limit in force (seconds), or None."""
    return _LIMIT.get()


@contextmanager
def fit_timeout(seconds):
    """Every fit inside may take at most ``seconds`` (None: no limit)."""
    token = _LIMIT.set(check_timeout(seconds))
    try:
        yield
    finally:
        _LIMIT.reset(token)


class FitTimeout(Exception):
    """A fit ran longer than the time limit."""

    def __init__(self, seconds: float, fold: Optional[int] = None):
        self.seconds, self.fold = seconds, fold
        super().__init__(f"the fit took longer than the time limit of {seconds:g} s (timeout)")


@contextmanager
def one_fit(fold: Optional[int] = None):
    """Around one fit: raise :class:`FitTimeout` when it outlasts the limit."""
    limit = _LIMIT.get()
    if limit is None or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum, frame):
        raise FitTimeout(limit, fold)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
