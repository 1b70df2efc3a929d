"""The C allocator's thresholds for the ``pybcv`` command (glibc only).

A repetition of a simulation with learners allocates and frees arrays of a
few hundred KB at every fold batch (predictions, test indices of all 167
splits).  glibc's default rules give such memory back to the system as soon
as the top of the heap is free past a threshold (128 KB, raised only by
blocks it had mapped), so the next repetition faults the same pages in
again: ~500 page faults per repetition of the simple column, 10-12 % of the
command's time (issue 23, ``benchmarks/engine_results.md``).  The command
sets, unless the user set them through glibc's own environment variables:

* ``M_MMAP_THRESHOLD`` 8 MB: blocks up to 8 MB come from the heap;
* ``M_TRIM_THRESHOLD`` 64 MB: up to 64 MB of free heap are kept for reuse.

The process then keeps at most 64 MB more than it uses.  The same values
go to the environment, so that the worker processes the command starts
(``--jobs``) read them when they start.  Only the command line does this
(``pybcv.cli.main``); importing pybcv changes nothing in the importing
process.  Elsewhere than glibc (macOS, musl) nothing is set.
"""
from __future__ import annotations

import ctypes
import os
import sys

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3          # glibc's malloc.h
SETTINGS = ((M_MMAP_THRESHOLD, "MALLOC_MMAP_THRESHOLD_", 8 << 20),
            (M_TRIM_THRESHOLD, "MALLOC_TRIM_THRESHOLD_", 64 << 20))


def tune() -> bool:
    """Set the thresholds above; False where there is no glibc ``mallopt``."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    done = False
    for param, env, value in SETTINGS:
        if env not in os.environ:        # the user's own setting wins
            done = bool(mallopt(param, value)) or done
            os.environ[env] = str(value)     # for the workers this process starts
    return done
