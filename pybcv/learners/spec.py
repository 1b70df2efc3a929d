"""Learner specifications: ``"name:param=value,..."`` strings and the checks
every learner parameter passes before any fit.

A spec is a dict ``{"name": <registry name>, <param>: <value>, ...}``.
:func:`parse_spec` reads the command-line form ``"name:param=value,..."``
(values read as JSON where they parse, else as text: ``omega=0.29`` is a
number, ``kernel=triangular`` a string, ``k=null`` is None) and checks the
name and every parameter with :func:`check_params`, so a bad spec fails
before any data are drawn or any learner is fitted.

>>> parse_spec("fnn-weighted:omega=0.29")
{'name': 'fnn-weighted', 'omega': 0.29}
>>> parse_spec("kknn:k=abc")
Traceback (most recent call last):
...
ValueError: learner 'kknn': parameter k must be an integer >= 1, got 'abc' (str)
"""
from __future__ import annotations

import json
import math
import numbers
from typing import Any, Dict, Optional

# kernels of kknn::kknn (R); the Python fallback supports the first five
KKNN_KERNELS = ("triangular", "epanechnikov", "cos", "inv", "rectangular", "biweight",
                "triweight", "gaussian", "rank", "optimal")


def _got(v):
    return f"{v!r} ({type(v).__name__})"


def _positive_number(learner, name, v):
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v) or v <= 0:
        raise ValueError(f"learner {learner!r}: parameter {name} must be a finite number > 0, "
                         f"got {_got(v)}")
    return float(v)


def _integer_at_least_1(learner, name, v):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 1:
        raise ValueError(f"learner {learner!r}: parameter {name} must be an integer >= 1, "
                         f"got {_got(v)}")
    return int(v)


def _integer_at_least_0(learner, name, v):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
        raise ValueError(f"learner {learner!r}: parameter {name} must be an integer >= 0, "
                         f"got {_got(v)}")
    return int(v)


def _kernel(learner, name, v):
    if not isinstance(v, str) or v not in KKNN_KERNELS:
        raise ValueError(f"learner {learner!r}: parameter {name} must be one of "
                         f"{', '.join(KKNN_KERNELS)}, got {_got(v)}")
    return v


def _probability(learner, name, v):
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 < v < 1:
        raise ValueError(f"learner {learner!r}: parameter {name} must be a number in (0, 1), "
                         f"got {_got(v)}")
    return float(v)


def _flag(learner, name, v):
    if not isinstance(v, bool):
        raise ValueError(f"learner {learner!r}: parameter {name} must be true or false, "
                         f"got {_got(v)}")
    return v


def _weka_options(learner, name, v):
    if v is None:
        return None
    if isinstance(v, str):
        import shlex
        try:
            shlex.split(v)
        except ValueError as e:
            raise ValueError(f"learner {learner!r}: parameter {name} {v!r} cannot be split "
                             f"into Weka options: {e}") from None
        return v
    if isinstance(v, (list, tuple)) and all(isinstance(o, (str, numbers.Real)) and
                                            not isinstance(o, bool) for o in v):
        return list(v)
    raise ValueError(f"learner {learner!r}: parameter {name} must be Weka options as one "
                     f"string (\"-M 5\") or a list of strings, got {_got(v)}")


# One check per parameter name (the same name means the same thing in every learner).
PARAM_CHECKS = {
    "omega": _positive_number,
    "upsilon": _positive_number,
    "k": _integer_at_least_1,
    "kernel": _kernel,
    "threshold": _probability,
    "options": _weka_options,
    "unpruned": _flag,
    # generic: every learner takes them (pybcv.learners.noisy)
    "noise": _positive_number,
    "noise_stream": lambda learner, name, v: _integer_at_least_0(learner, name, v),
}


def check_param(learner: str, name: str, value):
    """The checked (normalised) value of parameter ``name`` of ``learner``;
    ValueError naming the learner, the parameter and what it expects."""
    check = PARAM_CHECKS.get(name)
    return value if check is None else check(learner, name, value)


def check_params(name, params: Dict[str, Any]) -> Dict[str, Any]:
    """Check a registry learner's name and parameters (all before any fit):
    an unknown name lists the known ones, an unknown parameter names the
    learner's parameters, a bad value names the parameter and its type."""
    from .base import LEARNERS
    if not isinstance(name, str) or name not in LEARNERS:
        raise ValueError(f"unknown learner {name!r}; known learners: "
                         + ", ".join(sorted(LEARNERS)))
    from .noisy import NOISE_PARAMS
    allowed = set(LEARNERS[name].params) | set(NOISE_PARAMS)
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ValueError(f"learner {name!r} has no parameter(s) {unknown}; "
                         f"its parameters: {sorted(LEARNERS[name].params) or 'none'} "
                         f"(and {', '.join(NOISE_PARAMS)}, which every learner takes)")
    return {k: check_param(name, k, v) for k, v in params.items()}


def _value(text: str):
    t = text.strip()
    try:
        return json.loads(t)
    except ValueError:
        return t


def parse_spec(spec) -> Optional[dict]:
    """A checked learner spec ``{"name": ..., **params}`` from
    ``"name:param=value,..."``, from a spec dict, or None (None: no learner
    given).  Values are read as JSON where they parse (numbers, true/false,
    null, "Infinity"), else as text; every parameter is then checked
    (:func:`check_params`), so ``omega=Infinity``, ``k=null`` or ``k=abc``
    fail here naming the parameter and the expected type.

    >>> parse_spec("J48-unpruned:options=-M 5")
    {'name': 'J48-unpruned', 'options': '-M 5'}
    >>> parse_spec({"name": "kknn", "k": 7})
    {'name': 'kknn', 'k': 7}
    >>> parse_spec("fnn-weighted:omega=Infinity")
    Traceback (most recent call last):
    ...
    ValueError: learner 'fnn-weighted': parameter omega must be a finite number > 0, got inf (float)
    """
    if spec is None:
        return None
    if isinstance(spec, dict):
        if "name" not in spec:
            raise ValueError(f"learner spec needs a 'name': {spec!r}")
        d = dict(spec)
    elif isinstance(spec, str):
        name, _, rest = spec.partition(":")
        d = {"name": name.strip()}
        for kv in filter(None, (s.strip() for s in rest.split(","))):
            k, eq, v = kv.partition("=")
            if not eq or not k.strip():
                raise ValueError(f"learner {d['name']!r}: parameter {kv!r}: write "
                                 f"name:param=value")
            if k.strip() in d:
                raise ValueError(f"learner {d['name']!r}: parameter {k.strip()} given twice")
            d[k.strip()] = _value(v)
    else:
        raise TypeError(f"learner must be a name, 'name:param=value,...' or a spec dict, "
                        f"got {type(spec).__name__}")
    params = check_params(d["name"], {k: v for k, v in d.items() if k != "name"})
    return {"name": d["name"], **{k: d[k] for k in params}}
