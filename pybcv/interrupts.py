"""Ctrl-C on the command line while it starts and while it starts workers.

A terminal's Ctrl-C sends SIGINT to every process of the foreground group:
the ``pybcv`` process and the worker processes it started.  Two rules keep
that quiet (exit code 130, no traceback, finished work kept):

* while the ``pybcv`` command imports its modules (seconds on a busy
  machine), SIGINT ends it with ``pybcv: interrupted`` (:func:`quiet_start`,
  armed by ``pybcv/__init__.py`` only when the process is the command);
* worker processes are started with SIGINT blocked (:func:`workers_deaf`):
  the signal mask survives ``fork`` and ``exec``, so a worker never sees
  the terminal's Ctrl-C (no traceback from a worker caught in its imports,
  no worker dying under the pool); the parent receives the signal once the
  block is lifted, raises ``KeyboardInterrupt`` and stops its workers.
  Blocking it in the starting thread is not enough: the kernel hands a
  Ctrl-C to any thread that does not block it (tqdm's monitor, BLAS
  threads), and Python then raises ``KeyboardInterrupt`` in the main thread
  wherever it is, also between starting a worker and writing the worker
  its task (the worker then dies with ``EOFError: Ran out of input``).  So
  SIGINT's Python handler is held too: a Ctrl-C inside is raised again, to
  the handler it had, when the workers have started.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager

from ._deferred import deferred

#: imported when a pool first starts (multiprocessing: 5 ms of every command's start)
_resource_tracker = deferred("multiprocessing.resource_tracker")

EXIT_INTERRUPTED = 130


def is_command_start() -> bool:
    """True while this process starts as the ``pybcv`` command (the console
    script, or ``python -m pybcv``), False in a library user's process."""
    if sys.argv and os.path.basename(sys.argv[0]) == "pybcv":
        return True
    argv = list(getattr(sys, "orig_argv", []))
    return any(a == "-m" and b == "pybcv" for a, b in zip(argv, argv[1:]))


def _interrupted_while_starting(signum, frame):
    # nothing has run yet that needs cleaning up, and an exception could be
    # caught by whatever module is being imported: end here
    sys.stderr.write("pybcv: interrupted\n")
    sys.stderr.flush()
    os._exit(EXIT_INTERRUPTED)


def quiet_start() -> None:
    """Ctrl-C before ``pybcv.cli.main`` runs ends the command quietly (130)."""
    if threading.current_thread() is threading.main_thread() \
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupted_while_starting)


def end_quiet_start() -> None:
    """Back to Python's Ctrl-C (``KeyboardInterrupt``), which main() handles."""
    if threading.current_thread() is threading.main_thread() \
            and signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _start_resource_trackers():
    """The helper processes that multiprocessing and joblib's loky start with
    their first pool, started first: starting one lifts SIGINT's block in
    the calling thread (each blocks it around its own start, then unblocks
    it), so it is blocked again after each."""
    trackers = [_resource_tracker]
    try:
        from joblib.externals.loky.backend import resource_tracker as loky_tracker
        trackers.append(loky_tracker)
    except ImportError:          # pragma: no cover - joblib is a dependency
        pass
    for tracker in trackers:
        tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        _checkpoint()


def _checkpoint():
    """A Python call: Python runs a signal handler made due (a Ctrl-C that
    arrived before the block, or let through while a tracker started) here,
    before the next fork, not inside it."""


_NOT_SET = object()


@contextmanager
def workers_deaf():
    """Processes started inside inherit a blocked SIGINT (they never see
    Ctrl-C); a Ctrl-C that arrives meanwhile is delivered to this process
    when the block ends."""
    if not hasattr(signal, "pthread_sigmask") \
            or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = _NOT_SET
    caught = []
    try:
        # a Ctrl-C that came just before the block raises here, not halfway
        # through starting a worker (which would then find no task to read)
        _checkpoint()
        # one let through to another thread from now on is only noted
        handler = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
        # blocked before their fork too: a Ctrl-C during a fork would raise
        # KeyboardInterrupt inside an at-fork callback, where it is lost
        _start_resource_trackers()
        yield
    finally:
        if handler is not _NOT_SET:
            signal.signal(signal.SIGINT, signal.SIG_DFL if handler is None else handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        if caught:
            signal.raise_signal(signal.SIGINT)   # to the handler it had: KeyboardInterrupt
            _checkpoint()


def stop_pool(ex) -> None:
    """Cancel a ProcessPoolExecutor's queued work and terminate its workers
    (after Ctrl-C or an error; ``shutdown(wait=True)`` would run every queued
    task first, and workers started by :func:`workers_deaf` ignore SIGINT)."""
    procs = list((getattr(ex, "_processes", None) or {}).values())
    queue = getattr(ex, "_call_queue", None)
    if queue is not None:
        # its feeder thread may be blocked writing a large task into the pipe
        # that the terminated workers no longer read: do not wait for it at exit
        queue.cancel_join_thread()
    ex.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=5)
