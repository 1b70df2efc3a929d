"""The checks every learner parameter passes before any fit (one check per
parameter name, :data:`PARAM_CHECKS`).  The spec parser that reads
``"name:param=value,..."`` and checks a registry learner's parameters with
these is :func:`pybcv.learners.base.parse_spec`.

>>> check_param("kknn", "k", "abc")
Traceback (most recent call last):
...
ValueError: learner 'kknn': parameter k must be an integer >= 1, got 'abc' (str)
"""
from __future__ import annotations

import math
import numbers
import shlex

# kernels of kknn::kknn (R); the Python fallback supports the first five
KKNN_KERNELS = ("triangular", "epanechnikov", "cos", "inv", "rectangular", "biweight",
                "triweight", "gaussian", "rank", "optimal")


def _bad(learner, name, what, v):
    """The ValueError of a value ``v`` of parameter ``name`` that is not ``what``."""
    return ValueError(f"learner {learner!r}: parameter {name} must be {what}, "
                      f"got {v!r} ({type(v).__name__})")


def _positive_number(learner, name, v):
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v) or v <= 0:
        raise _bad(learner, name, "a finite number > 0", v)
    return float(v)


def _integer_at_least(minimum):
    def check(learner, name, v):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < minimum:
            raise _bad(learner, name, f"an integer >= {minimum}", v)
        return int(v)
    return check


def _kernel(learner, name, v):
    if not isinstance(v, str) or v not in KKNN_KERNELS:
        raise _bad(learner, name, "one of " + ", ".join(KKNN_KERNELS), v)
    return v


def _probability(learner, name, v):
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 < v < 1:
        raise _bad(learner, name, "a number in (0, 1)", v)
    return float(v)


def _flag(learner, name, v):
    if not isinstance(v, bool):
        raise _bad(learner, name, "true or false", v)
    return v


def weka_options(options, learner: str = "") -> list:
    """Weka options as a list of strings: a sequence, or one string split like
    a shell command line (``"-C 0.1 -M 5"``); ValueError naming ``learner``
    when the string cannot be split."""
    if options is None:
        return []
    if isinstance(options, str):
        try:
            return shlex.split(options)
        except ValueError as e:
            raise ValueError(f"learner {learner!r}: options {options!r} cannot be split into "
                             f"Weka options: {e}") from None
    return [str(o) for o in options]


def _weka_options(learner, name, v):
    if v is None:
        return None
    if isinstance(v, str):
        weka_options(v, learner)
        return v
    if isinstance(v, (list, tuple)) and all(isinstance(o, (str, numbers.Real)) and
                                            not isinstance(o, bool) for o in v):
        return list(v)
    raise _bad(learner, name, 'Weka options as one string ("-M 5") or a list of strings', v)


# One check per parameter name (the same name means the same thing in every learner).
PARAM_CHECKS = {
    "omega": _positive_number,
    "upsilon": _positive_number,
    "k": _integer_at_least(1),
    "kernel": _kernel,
    "threshold": _probability,
    "options": _weka_options,
    "unpruned": _flag,
    # generic: every learner takes them (pybcv.learners.noisy)
    "noise": _positive_number,
    "noise_stream": _integer_at_least(0),
    "one_hot": _flag,
}


def check_param(learner: str, name: str, value):
    """The checked (normalised) value of parameter ``name`` of ``learner``;
    ValueError naming the learner, the parameter and what it expects."""
    check = PARAM_CHECKS.get(name)
    return value if check is None else check(learner, name, value)
