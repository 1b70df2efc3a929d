"""Where the R learners' files are.

One copy of each: ``R/inst/batch.R``, ``R/inst/weka_jvm.R`` and the Weka
helper ``R/inst/java/pybcv-weka.jar`` (built from ``java/src`` by
``scripts/build_java.sh``) belong to the R package; the bridge reads them
from there in a checkout (an editable install included).  A wheel carries
the same files as package data in ``r_bridge/R/`` (copied there by
``setup.py`` when the wheel is built).
"""
from __future__ import annotations

import os

_HERE = os.path.dirname(os.path.abspath(__file__))
# the wheel's copy first (it exists only in an installed package), then the checkout's
R_DIRS = (os.path.join(_HERE, "R"), os.path.join(os.path.dirname(_HERE), "R", "inst"))
WEKA_JAR = os.path.join("java", "pybcv-weka.jar")


def r_dir() -> str:
    """The folder holding ``batch.R`` (and ``weka_jvm.R``, ``java/``)."""
    for d in R_DIRS:
        if os.path.isfile(os.path.join(d, "batch.R")):
            return d
    raise FileNotFoundError(
        "pybcv's R learners (batch.R) are missing: looked in " + " and ".join(R_DIRS)
        + "; reinstall pybcv (pip install . in the repository) or use a checkout")


def r_file(name: str) -> str:
    """The path of one of the R learners' files, e.g. ``r_file("batch.R")``."""
    return os.path.join(r_dir(), name)


def weka_jar() -> str | None:
    """The Weka helper jar next to ``batch.R``, or None when it was not built."""
    try:
        path = r_file(WEKA_JAR)
    except FileNotFoundError:
        return None
    return path if os.path.isfile(path) else None
