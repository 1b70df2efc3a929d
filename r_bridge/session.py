"""Lifecycle of the embedded R: started once per process, packages loaded lazily.

Embedded R (rpy2) does not apply R's ``ldpaths``, so rJava (and RWeka) cannot
find ``libjvm.so``.  Before R starts we load ``libjvm.so`` ourselves with
``RTLD_GLOBAL`` from the JVM that R was configured with (``JAVA_HOME`` or the
Debian default), so that rJava's later ``dlopen`` succeeds (verified: without
the preload ``library(RWeka)`` fails in a fresh Python process with "unable to
load shared object ... libjvm.so").

Processes: nothing starts at import.  A spawned worker (joblib's loky,
multiprocessing "spawn") starts its own R on first use.  A forked child
inherits the parent's R, which keeps working for the base-R, tree, kknn and
glm learners; a JVM does not survive fork, so Weka learners in a child whose
parent had started the JVM raise :class:`RUnavailableError` instead of hanging.
"""
from __future__ import annotations

import ctypes
import glob
import os
import re
import shutil
import signal
import sys
import threading
import time
from contextlib import contextmanager, suppress

_lock = threading.RLock()
# r: rpy2.robjects once R runs; error: why R cannot start (cached);
# jvm: the libjvm.so preloaded;
# java_pid: the process that started the JVM (through rJava); pkgs: requireNamespace cache
_state = {"r": None, "error": None, "jvm": None, "java_pid": None, "pkgs": {}}

SETUP_HINT = "run: bash scripts/setup.sh"


class RUnavailableError(RuntimeError):
    """R, rpy2 or an R package needed by a learner is missing (names the set-up step)."""


class JavaHeapError(RUnavailableError, ValueError):
    """``PYBCV_JAVA_HEAP`` is malformed or too small for the JVM to start (the
    message names the variable; the command line prints it without a traceback)."""


def _jvm_candidates():
    homes = [os.environ["JAVA_HOME"]] if os.environ.get("JAVA_HOME") else []
    # R's own configuration (R CMD javareconf writes JAVA_HOME into Renviron/Makeconf)
    for f in glob.glob("/usr/lib/R/etc/javaconf") + glob.glob("/etc/R/javaconf") + \
            glob.glob("/usr/lib/R/etc/ldpaths") + glob.glob("/etc/R/ldpaths"):
        with suppress(OSError), open(f) as fh:
            for line in fh:
                if "JAVA_HOME" in line and "=" in line and "/" in line:
                    v = line.split("=", 1)[1].strip().strip("'\"")
                    v = v.split(":-")[-1].rstrip("}") if ":-" in v else v
                    if v.startswith("/"):
                        homes.append(v)
    homes += ["/usr/lib/jvm/default-java"] + sorted(glob.glob("/usr/lib/jvm/java-*-openjdk-*"))
    java = shutil.which("java")
    if java:
        homes.append(os.path.dirname(os.path.dirname(os.path.realpath(java))))
    seen = []
    for h in homes:
        for lib in (os.path.join(h, "lib", "server", "libjvm.so"),
                    os.path.join(h, "jre", "lib", "amd64", "server", "libjvm.so")):
            if os.path.exists(lib) and lib not in seen:
                seen.append(lib)
    return seen


def preload_libjvm():
    """Load libjvm.so globally (idempotent); returns its path or None."""
    if _state["jvm"]:
        return _state["jvm"]
    for lib in _jvm_candidates():
        try:
            ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL)
        except OSError:
            continue
        _state["jvm"] = lib
        return lib
    return None


def r_available():
    """(True, "") when rpy2 and an embedded R can be started, else (False, reason)."""
    with _lock:
        if _state["r"] is not None:
            return True, ""
        if _state["error"] is not None:
            return False, _state["error"]
        try:
            get_r()
            return True, ""
        except RuntimeError as e:
            return False, str(e)


@contextmanager
def deferred_sigint():
    """Ctrl-C while R, its packages or the JVM start: remembered, and raised
    as KeyboardInterrupt once the start-up returns.

    rpy2 takes SIGINT over when R starts, with a handler that raises
    KeyboardInterrupt wherever Python runs next: during R's start-up that is
    one of R's callbacks into Python, where cffi prints "Exception ignored"
    and drops it, and the job ran to its end.  Here SIGINT is only recorded
    (no exception inside a callback); on leaving, the handler from before R
    started is back (rpy2's takeover undone) and a recorded Ctrl-C is raised
    in plain Python.  Outside the main thread this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    hits = []

    def record(signum, frame):
        hits.append(signum)
    old = signal.signal(signal.SIGINT, record)
    try:
        yield record
    finally:
        signal.signal(signal.SIGINT, _pre_r_handler(old))
    if hits:
        raise KeyboardInterrupt("interrupted (Ctrl-C) while R was starting")


def _pre_r_handler(handler):
    """``handler``, unless it is rpy2's own (then Python's default)."""
    rpy2s = getattr(handler, "__module__", "").startswith("rpy2")
    return signal.default_int_handler if rpy2s else handler


def get_r():
    """Start (once) and return ``rpy2.robjects``; RuntimeError naming the problem."""
    with _lock, deferred_sigint() as record:
        if _state["r"] is not None:
            return _state["r"]
        if _state["error"] is not None:
            raise RuntimeError(_state["error"])
        try:
            import rpy2  # noqa: F401
        except ImportError:
            _state["error"] = ("rpy2 is not installed, so R learners cannot run "
                               f"({SETUP_HINT})")
            raise RuntimeError(_state["error"])
        preload_libjvm()
        try:
            import rpy2.rinterface as ri
            if record is not None:           # the handler rpy2 installs as R starts (its
                ri._sigint_handler = record  # own raises inside R's callbacks): the recorder
            ri.initr_simple()
            if record is not None:           # (an rpy2 without that name: recorded again here,
                signal.signal(signal.SIGINT, record)   # before robjects' imports run R code)
            import rpy2.robjects as ro
            ro.r("invisible(1)")
        except Exception as e:  # R itself missing or broken
            _state["error"] = f"embedded R could not start: {e} ({SETUP_HINT})"
            raise RuntimeError(_state["error"])
        _state["r"] = ro
        apply_java_heap(ro)
        return ro


def note_java_started():
    """Record that this process has started the JVM (rJava) inside R."""
    if _state["java_pid"] is None:
        _state["java_pid"] = os.getpid()


def check_java_usable():
    """RUnavailableError when the JVM was started by a parent process before a fork.

    A forked child inherits R's memory but not the JVM's threads, so any
    Weka call would hang or crash.  Process pools that spawn fresh workers
    (joblib's default "loky", multiprocessing "spawn"/"forkserver") are fine:
    each worker starts its own R lazily.
    """
    jp = _state["java_pid"]
    if jp is not None and jp != os.getpid():
        raise RUnavailableError(
            "the JVM (RWeka) was started in process %d before this process was "
            "forked; a JVM does not survive fork. Use spawned workers (joblib's "
            "default loky backend, or multiprocessing 'spawn') or do not call "
            "Weka learners in the parent before forking." % jp)


def missing_r_packages(pkgs):
    """Names among ``pkgs`` that R cannot load (without attaching them)."""
    if not pkgs:
        return []
    ro = get_r()
    with _lock:
        todo = [p for p in pkgs if p not in _state["pkgs"]]
        if todo:
            from rpy2.robjects.vectors import StrVector
            with deferred_sigint():              # loading RWeka starts the JVM: seconds
                f = ro.r("function(p) vapply(p, function(q) suppressMessages(suppressWarnings("
                         "requireNamespace(q, quietly = TRUE))), TRUE)")
                loaded = list(f(StrVector(todo)))
            _state["pkgs"].update((p, bool(ok)) for p, ok in zip(todo, loaded))
        miss = [p for p in pkgs if not _state["pkgs"][p]]
        if {"RWeka", "rJava", "RWekajars"} & (set(pkgs) - set(miss)):
            note_java_started()       # loading RWeka's namespace starts the JVM
        return miss


def require_r(pkgs=(), what="this learner"):
    """Start R and check ``pkgs``; RUnavailableError naming what is missing and the fix."""
    if "RWeka" in pkgs:
        java_heap_setting()     # a bad PYBCV_JAVA_HEAP: JavaHeapError, before R starts
    try:
        get_r()
    except RuntimeError as e:
        raise RUnavailableError(f"{what} needs R: {e}") from None
    miss = missing_r_packages(list(pkgs))
    if miss:
        raise RUnavailableError(
            f"{what} needs the R package(s) {', '.join(miss)}, which R cannot load "
            f"({SETUP_HINT})")


# --------------------------------------------------------------- Ctrl-C
class interruptible:
    """Context manager around a call into the embedded R that makes Ctrl-C work.

    rpy2 runs R with R's own signal handlers off; Python's SIGINT handler
    then raises KeyboardInterrupt inside whichever R -> Python callback runs
    next, where cffi prints "Exception ignored from cffi callback" and R goes
    on.  Inside this context SIGINT instead (1) sets R's C-level flag
    ``R_interrupts_pending``, which R acts on at its next interrupt check
    (R_CheckUserInterrupt: its evaluator loops, between folds of a batch), so
    the R call ends early, and (2) is remembered, so that on leaving the
    context Python raises KeyboardInterrupt, whatever the R call returned.
    Ctrl-C also creates the stop file (stop_file_path()), on which a Weka
    design inside the JVM stops within 50 ms, during a fit too (the fit is
    abandoned: java/src/pybcv/WekaJob.java).  Outside the main thread this
    does nothing.
    """

    def __enter__(self):
        self.hit, self._old, self._old_fd = False, None, None
        if threading.current_thread() is not threading.main_thread():
            return self
        try:
            from rpy2.rinterface_lib import openrlib
            self._rlib = openrlib.rlib
        except Exception:   # pragma: no cover - rpy2 without its C library
            return self

        def on_sigint(signum, frame):
            self.hit = True
            with suppress(Exception):
                self._rlib.R_interrupts_pending = 1
            _ask_stop()

        if not _watch["inside"]:
            _clear_stop()          # a stale one would stop this call at once
        self._old = signal.signal(signal.SIGINT, on_sigint)
        self._old_fd = _watch_sigint(self._rlib)
        return self

    def __exit__(self, exc_type, exc, tb):
        if self._old is not None:
            _unwatch_sigint(self._old_fd)
            signal.signal(signal.SIGINT, self._old)
            if self.hit:
                with suppress(Exception):
                    self._rlib.R_interrupts_pending = 0   # not left for the next R call
            if not _watch["inside"]:
                _clear_stop()                             # nor the stop file
        if self.hit:
            raise KeyboardInterrupt("interrupted (Ctrl-C) while R was running") from None
        return False


# A Python-level SIGINT handler runs only when the main thread is back in
# Python, which a long C routine inside R (kknn's neighbour search, a Weka fit)
# may not be for minutes.  The C-level part of Python's handler writes the
# signal number to the wakeup fd at once, though: a watcher thread reading it
# sets R_interrupts_pending immediately (R stops at its next interrupt check)
# and, when a program asked for it (the command line: exit_on_stuck_interrupt),
# ends the process after a grace period if R still has not returned.
_watch = {"thread": None, "r": None, "w": None, "rlib": None, "inside": 0, "since": None}
#: (grace seconds, message, exit code) or None: what the watcher does when R
#: has not returned that long after Ctrl-C (set by pybcv's command line)
exit_on_stuck_interrupt = None

# Java code (a Weka design inside the JVM, weka_jvm.R) never checks R's
# interrupt flag, and nothing can call into the JVM while R waits for it; so
# Ctrl-C also creates this process's stop file, whose path R has as the option
# pybcv.stop_file (stop_file_path()); WekaJob.java stops the design (during a
# fit too) and batch.R's fold loop between folds once it exists.  It is removed when the R call returns.
_stop = {"pid": None, "path": None}


def stop_file_path():
    """This process's stop file: a path in a private temporary folder (the
    file itself exists only between a Ctrl-C and the end of the R call)."""
    if _stop["pid"] != os.getpid():
        import atexit
        import tempfile
        folder = tempfile.mkdtemp(prefix="pybcv-stop-")
        atexit.register(shutil.rmtree, folder, True)
        _stop.update(pid=os.getpid(), path=os.path.join(folder, "stop"))
    return _stop["path"]


def _ask_stop():
    with suppress(OSError), open(stop_file_path(), "w"):
        pass                 # (an OSError is ignored: the R interrupt flag still works)


def _clear_stop():
    if _stop["pid"] == os.getpid():
        with suppress(FileNotFoundError):
            os.remove(_stop["path"])


def _watcher():
    while True:
        try:
            data = os.read(_watch["r"], 64)
        except OSError:      # pragma: no cover
            return
        if signal.SIGINT not in data or not _watch["inside"]:
            continue
        with suppress(Exception):
            _watch["rlib"].R_interrupts_pending = 1
        _ask_stop()
        stuck = exit_on_stuck_interrupt
        if stuck is None:
            continue
        grace, message, code = stuck
        end = time.monotonic() + grace
        while _watch["inside"] and time.monotonic() < end:
            time.sleep(0.1)
        if _watch["inside"]:
            try:
                sys.stderr.write(message + "\n")
                sys.stderr.flush()
            finally:
                os._exit(code)


def _watch_sigint(rlib):
    """Route SIGINT to the watcher thread while the main thread is in R;
    returns the previous wakeup fd (to restore)."""
    if _watch["thread"] is None:
        r, w = os.pipe()
        os.set_blocking(w, False)
        _watch.update(r=r, w=w)
        _watch["thread"] = threading.Thread(target=_watcher, name="pybcv-sigint", daemon=True)
        _watch["thread"].start()
    _watch["rlib"] = rlib
    _watch["inside"] += 1
    try:
        return signal.set_wakeup_fd(_watch["w"], warn_on_full_buffer=False)
    except ValueError:       # pragma: no cover - not the main thread
        _watch["inside"] -= 1
        return None


def _unwatch_sigint(old_fd):
    if old_fd is None:
        return
    _watch["inside"] -= 1
    with suppress(ValueError):
        signal.set_wakeup_fd(old_fd)


# --------------------------------------------------------------- the JVM's heap
JAVA_HEAP_ENV = "PYBCV_JAVA_HEAP"
MIN_JAVA_HEAP = 8 * 2 ** 20       # the JVM refuses -Xmx below ~3 MB by ending the process


def java_heap_setting():
    """The heap size asked for in the environment (``PYBCV_JAVA_HEAP``, e.g.
    ``2g`` or ``512m``), or None; ValueError naming the variable when malformed."""
    v = os.environ.get(JAVA_HEAP_ENV, "").strip()
    if not v:
        return None
    if not re.fullmatch(r"[1-9][0-9]*[kKmMgG]?", v):
        raise JavaHeapError(f"{JAVA_HEAP_ENV}={v!r}: write a size such as 2g or 512m")
    size = int(v.rstrip("kKmMgG")) * {"k": 2 ** 10, "m": 2 ** 20, "g": 2 ** 30}.get(
        v[-1].lower(), 1)
    if size < MIN_JAVA_HEAP:      # the JVM would abort the whole process at start
        raise JavaHeapError(f"{JAVA_HEAP_ENV}={v!r} is {size:,} bytes, below the "
                         f"{MIN_JAVA_HEAP // 2 ** 20} MB the JVM needs to start (a number "
                         f"without a unit is bytes); write a size such as 2g or 512m")
    return v


def apply_java_heap(ro):
    """Before rJava starts the JVM: R's ``java.parameters`` get ``-Xmx`` from
    ``PYBCV_JAVA_HEAP`` when it is set (RWeka's own default is 512 MB)."""
    heap = java_heap_setting()
    if heap is not None:
        ro.r("function(h) { p <- getOption('java.parameters'); "
             "options(java.parameters = c(paste0('-Xmx', h), p[!grepl('^-Xmx', p)])) }")(heap)


def java_recover():
    """After a Java failure (out of memory): release what R holds in Java
    (R's garbage collector runs rJava's finalizers), clear a pending Java
    exception, run Java's garbage collector; returns the JVM's maximum heap
    in MB (None when the JVM cannot answer)."""
    ro = get_r()
    f = ro.r("""function() {
      invisible(gc(verbose = FALSE))
      try(rJava::.jcheck(silent = TRUE), silent = TRUE)
      h <- tryCatch({
        rt <- rJava::.jcall("java/lang/Runtime", "Ljava/lang/Runtime;", "getRuntime")
        rJava::.jcall(rt, "V", "gc")
        rJava::.jcall(rt, "J", "maxMemory") / 2^20
      }, error = function(e) NA_real_)
      try(rJava::.jcheck(silent = TRUE), silent = TRUE)
      h
    }""")
    try:
        v = float(f()[0])
    except Exception:
        return None
    return None if v != v else int(round(v))
