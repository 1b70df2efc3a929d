"""Shared pytest fixtures: the project's own stand-in for pytest-rpy2.

* ``--runslow`` runs tests marked ``slow`` (long simulations).
* ``r_session`` gives the embedded R (``rpy2.robjects``), started once.
* ``requires_r(*pkgs)`` is a marker factory: the test is skipped with a reason
  that names what is missing (rpy2, R, or an R package).  Under CI
  (``CI=true``) a skip of an R test is turned into a failure, because CI has R.
"""
from __future__ import annotations

import functools
import os

import pytest

from pybcv.stats._common import admit_withdrawn
from r_bridge.session import r_available, missing_r_packages  # noqa: F401

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run tests marked slow (long simulations)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow simulation: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@functools.lru_cache(maxsize=None)
def _r_problem(pkgs: tuple) -> str | None:
    ok, why = r_available()
    if not ok:
        return why
    miss = missing_r_packages(list(pkgs))
    if miss:
        return ("R package(s) missing: " + ", ".join(miss)
                + " (run: bash scripts/setup.sh)")
    return None


def requires_r(*pkgs):
    """Marker: skip (locally) or fail (in CI) when R or an R package is missing."""
    problem = _r_problem(tuple(pkgs))
    if problem is None:
        return pytest.mark.r
    if IN_CI:
        def _fail(fn):
            @functools.wraps(fn)
            def wrapper(*a, **k):
                pytest.fail("CI must run every R test, but: " + problem)
            return pytest.mark.r(wrapper)
        return _fail
    return pytest.mark.skip(reason=problem)


@pytest.fixture(scope="session")
def r_session():
    problem = _r_problem(())
    if problem is not None:
        if IN_CI:
            pytest.fail("CI must run every R test, but: " + problem)
        pytest.skip(problem)
    from r_bridge.session import get_r
    return get_r()


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long simulation (--runslow)")
    config.addinivalue_line("markers", "r: needs embedded R")


def wait_for_stored_reps(proc, out: str, n: int, limit: float = 120) -> int:
    """Poll the store of the run folder ``out`` while ``proc`` runs, until it
    holds ``n`` repetitions (or ``limit`` seconds pass); the count seen last."""
    import sqlite3
    import time
    db = os.path.join(out, "results.sqlite")
    deadline, done = time.time() + limit, 0
    while time.time() < deadline and proc.poll() is None and done < n:
        time.sleep(0.2)
        if os.path.exists(db):
            try:
                con = sqlite3.connect(db, timeout=5)
                done = con.execute("SELECT COUNT(*) FROM reps").fetchone()[0]
                con.close()
            except sqlite3.Error:
                pass
    return done


def terminal_sigint():
    """``preexec_fn`` of a child that a test interrupts with SIGINT: the
    default disposition, as in a terminal.  A job started in the background
    of a non-interactive shell inherits SIGINT ignored, and Python keeps an
    inherited SIG_IGN, so without this the tests' Ctrl-C would depend on how
    the test run itself was started."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def withdrawn_admitted():
    """Inside the test the withdrawn option values are computed
    (pybcv.stats._common.WITHDRAWN_OPTIONS): checks that cover every option
    value the battery's kernels score use it."""
    with admit_withdrawn():
        yield
