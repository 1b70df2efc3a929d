"""Any scikit-learn classifier named by its import path, with parameters:
``"sklearn.ensemble.RandomForestClassifier:n_estimators=200,max_depth=None"``.

The path is a dotted Python name (``package.module.Class``); its module is
imported the ordinary way (``importlib.import_module``: installed packages
only, no file paths) and the attribute must be a class with ``fit`` and
``predict`` that scikit-learn recognises as a classifier.  Parameter values
are read with ``ast.literal_eval`` (numbers, strings, tuples, lists, dicts,
True/False/None; nothing is evaluated), and a word that is no literal is
taken as a string (``criterion=entropy``).  Commas inside brackets or quotes
do not split parameters (``hidden_layer_sizes=(20, 10)``).  Every name and
value is checked before any fit: a module that does not import, a missing
class, an object that is not a classifier, an unknown parameter (the message
lists the class's parameters) and a value the estimator's own parameter
check refuses are each a ValueError naming the problem.

>>> est = estimator_from_path("sklearn.tree.DecisionTreeClassifier", {"max_depth": 3})
>>> type(est).__name__, est.max_depth
('DecisionTreeClassifier', 3)
>>> parse_import_spec("sklearn.neural_network.MLPClassifier:hidden_layer_sizes=(20, 10),solver=lbfgs")
{'name': 'sklearn.neural_network.MLPClassifier', 'hidden_layer_sizes': (20, 10), 'solver': 'lbfgs'}
>>> estimator_from_path("sklearn.tree.DecisionTreeClassifier", {"max_dept": 3})
Traceback (most recent call last):
...
ValueError: learner 'sklearn.tree.DecisionTreeClassifier' has no parameter 'max_dept' (did you mean 'max_depth'?); its parameters: ccp_alpha, class_weight, ...
"""
from __future__ import annotations

import ast
import difflib
import importlib
import importlib.util
import re
import types
from typing import Any, Dict, List

from .noisy import VIEW_PARAMS
from .spec import check_param

_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")


def is_import_path(name) -> bool:
    """True for a dotted name such as ``sklearn.svm.SVC`` (the registry's
    names have no dots)."""
    return isinstance(name, str) and _PATH.fullmatch(name.strip()) is not None


def split_params(text: str) -> List[str]:
    """``"a=1,b=(2, 3),c='x,y'"`` -> ``["a=1", "b=(2, 3)", "c='x,y'"]``: commas
    inside brackets or quotes do not split."""
    out, depth, quote, cur = [], 0, None, []
    for ch in text:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur))
    if quote or depth:
        raise ValueError(f"unbalanced {'quote' if quote else 'brackets'} in {text!r}")
    return [p.strip() for p in out if p.strip()]


def literal(text: str):
    """A parameter value: a Python literal (``ast.literal_eval``, nothing is
    run), else the text itself as a string."""
    t = text.strip()
    try:
        return ast.literal_eval(t)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return t


def parse_import_spec(spec: str) -> Dict[str, Any]:
    """``{"name": path, **params}`` from ``"path:param=value,..."``, every
    name and value checked (:func:`estimator_from_path`)."""
    path, _, rest = spec.partition(":")
    path = path.strip()
    try:
        pieces = split_params(rest)
    except ValueError as e:
        raise ValueError(f"learner {path!r}: {e}") from None
    params = spec_params(path, pieces, literal, "path")
    return {"name": path, **check_import_params(path, params)}


def spec_params(learner: str, pieces, value, what: str = "name") -> Dict[str, Any]:
    """{param: value(text)} of the pieces ``param=value`` of a learner spec."""
    params: Dict[str, Any] = {}
    for kv in pieces:
        k, eq, v = kv.partition("=")
        k = k.strip()
        if not eq or not k:
            raise ValueError(f"learner {learner!r}: parameter {kv!r}: write {what}:param=value")
        if k in params or k == "name":
            raise ValueError(f"learner {learner!r}: parameter {k} given twice")
        params[k] = value(v)
    return params


def check_import_params(path: str, params: Dict[str, Any]) -> Dict[str, Any]:
    """``params`` of the estimator ``path`` and the view parameters, checked."""
    estimator_from_path(path, {k: v for k, v in params.items() if k not in VIEW_PARAMS})
    return {k: check_param(path, k, v) if k in VIEW_PARAMS else v for k, v in params.items()}


def estimator_class(path: str):
    """The class named by ``path``, imported the ordinary way."""
    if not is_import_path(path):
        raise ValueError(f"learner {path!r}: not an import path such as "
                         f"sklearn.ensemble.RandomForestClassifier")
    module, _, attr = path.strip().rpartition(".")
    top = module.split(".")[0]
    if not _is_module(top):
        raise ValueError(f"learner {path!r}: no installed module {top!r}")
    try:
        mod = importlib.import_module(module)
    except Exception as e:        # ImportError, or the module's own failure on import
        raise ValueError(f"learner {path!r}: cannot import module {module!r} "
                         f"({type(e).__name__}: {e})") from None
    if isinstance(getattr(mod, attr, None), types.ModuleType) or (
            not hasattr(mod, attr) and _is_module(path.strip())):
        sub = importlib.import_module(path.strip())
        some = [n for n in dir(sub) if n.endswith(("Classifier", "Regressor"))][:3]
        raise ValueError(f"learner {path!r} is a module, not an estimator class: name a class in "
                         f"it" + (f", e.g. {path.strip()}.{some[0]} (also {', '.join(some[1:])})"
                                  if some else ""))
    if not hasattr(mod, attr):
        names = [n for n in dir(mod) if not n.startswith("_")]
        near = difflib.get_close_matches(attr, names, n=1)
        raise ValueError(f"learner {path!r}: module {module!r} has no {attr!r}"
                         + (f" (did you mean {module}.{near[0]}?)" if near else ""))
    cls = getattr(mod, attr)
    if not isinstance(cls, type) or not (hasattr(cls, "fit") and hasattr(cls, "predict")):
        raise ValueError(f"learner {path!r}: not an estimator class with fit and predict "
                         f"(got {type(cls).__name__})")
    return cls


def _is_module(path: str) -> bool:
    try:
        return importlib.util.find_spec(path) is not None
    except (ImportError, ValueError):
        return False


def estimator_from_path(path: str, params: Dict[str, Any]):
    """An instance of the classifier or regressor ``path`` with ``params``,
    checked (a regressor is compared under a real-valued loss:
    docs/guide/losses.md)."""
    from sklearn.base import is_classifier, is_regressor
    cls = estimator_class(path)
    try:
        names = sorted(cls._get_param_names()) if hasattr(cls, "_get_param_names") else None
    except Exception:
        names = None
    if names is not None:
        bad = [k for k in params if k not in names]
        if bad:
            near = difflib.get_close_matches(bad[0], names, n=1)
            raise ValueError(f"learner {path!r} has no parameter {bad[0]!r}"
                             + (f" (did you mean {near[0]!r}?)" if near else "")
                             + f"; its parameters: {', '.join(names) or 'none'}")
    try:
        est = cls(**params)
    except Exception as e:
        raise ValueError(f"learner {path!r}: {type(e).__name__}: {e}") from None
    if not (is_classifier(est) or is_regressor(est)):
        raise ValueError(f"learner {path!r} is neither a classifier nor a regressor "
                         f"(scikit-learn's is_classifier and is_regressor are False): the tests "
                         f"compare predicted labels (or numbers under a loss such as squared)")
    check = getattr(est, "_validate_params", None)
    if check is not None:
        try:
            check()
        except Exception as e:
            raise ValueError(f"learner {path!r}: {e}") from None
    return est
