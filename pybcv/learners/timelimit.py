"""A time limit per fit (``timeout=`` in Python, ``--timeout`` on the command
line, ``timeout`` in R).

``with fit_timeout(seconds):`` sets the limit for the learners that run
inside (a context variable, so nothing global is left behind).  Each fit of
a Python learner then runs under :func:`one_fit`, which raises
:class:`FitTimeout` in the fit when it runs longer: in the main thread of a
POSIX process through a real-time timer (``SIGALRM``); in any other thread
(a dask worker's, a thread pool's) through a timer thread that raises the
exception asynchronously in the fitting thread
(``PyThreadState_SetAsyncExc``).  The learner turns that into a failure
naming the learner and the fold, which the engine records like any other
learner failure.  An R learner gets the limit as the R option
``pybcv.timeout``, which ``R/inst/batch.R`` applies to every fold with
``setTimeLimit``; a Weka learner inside the JVM (``R/inst/weka_jvm.R``) gets
it from the same option, and ``java/src/pybcv/WekaJob.java`` gives up on a
fit that outlasts it.  Python code that does not return to the interpreter
cannot be stopped before it does: a C loop of numpy ends its loop first.
"""
from __future__ import annotations

import contextvars
import ctypes
import math
import numbers
import signal
import threading
from contextlib import contextmanager
from typing import Optional

_LIMIT: contextvars.ContextVar = contextvars.ContextVar("pybcv_fit_timeout", default=None)


#: The shortest time limit: a real-time timer of less (1e-300 s) rounds to
#: zero microseconds, which switches the timer off instead of firing.
MIN_TIMEOUT_S = 0.001


def check_timeout(seconds, name: str = "timeout") -> Optional[float]:
    """None, or a finite number of seconds of at least :data:`MIN_TIMEOUT_S`."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real) \
            or not math.isfinite(seconds) or seconds < MIN_TIMEOUT_S:
        raise ValueError(f"{name} must be a positive number of seconds (at least "
                         f"{MIN_TIMEOUT_S:g}; or None), got {seconds!r}")
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
    if limit is None:
        yield
        return
    if threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        with _thread_timer(limit, fold):
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


def _set_async_exc(thread_id: int, exc) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exc) if exc is not None else None)


@contextmanager
def _thread_timer(limit: float, fold: Optional[int]):
    """The limit outside the main thread (no signals there): a timer thread
    raises :class:`FitTimeout` in this thread when ``limit`` seconds pass.
    Python raises it at the next bytecode the fitting thread runs; a lock
    keeps the timer from firing once the fit has ended, and an exception
    set but not yet raised is withdrawn then."""

    class Expired(FitTimeout):                # raised by class: no arguments
        def __init__(self):
            super().__init__(limit, fold)

    me = threading.get_ident()
    lock = threading.Lock()
    state = {"armed": True, "fired": False}

    def expire():
        with lock:
            if state["armed"]:
                state["fired"] = True
                _set_async_exc(me, Expired)

    timer = threading.Timer(limit, expire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["armed"] = False
            if state["fired"]:
                _set_async_exc(me, None)      # not yet raised: withdrawn
        timer.cancel()
