"""Glue between the R package pybcv and the Python core, loaded by reticulate.

Every entry point returns a dict ``{"ok": True, "value": ...}`` or
``{"ok": False, "type": <exception class>, "message": <str(exception)>}`` so
that R can raise its own error with the plain message (no traceback).
Results are plain Python values and numpy arrays, which reticulate turns
into R vectors, matrices and lists.
"""
from __future__ import annotations

import importlib
import sys
import zlib

import numpy as np


def setup(root=None):
    """Import pybcv; when it is not importable and ``root`` (a repository
    checkout holding ``pybcv/__init__.py``) is given, put root on sys.path."""
    try:
        import pybcv  # noqa: F401
    except ImportError:
        if root:
            sys.path.insert(0, root)
            sys.modules.pop("pybcv", None)
    try:
        import pybcv
        import pybcv.stats  # noqa: F401
        import pybcv.partitions  # noqa: F401
    except Exception as e:  # pragma: no cover - reported to R
        return {"ok": False, "type": type(e).__name__, "message": str(e)}
    return {"ok": True, "value": {"version": getattr(pybcv, "__version__", "?"),
                                  "file": pybcv.__file__, "python": sys.executable,
                                  "python_version": sys.version.split()[0]}}


def _fail(e):
    return {"ok": False, "type": type(e).__name__, "message": str(e)}


def _plain(x):
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (np.floating,)):
        return float(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.bool_,)):
        return bool(x)
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def result_dict(res, key=None):
    """A TestResult as plain values; the BCV tables as 2x2 float arrays."""
    d = res.to_dict()
    det = dict(d.get("details") or {})
    for k in ("averaged_table", "effective_table", "table"):
        if k in det and det[k] is not None:
            det[k] = np.asarray(det[k], dtype=float)
    if "terms" in det:
        det["terms"] = np.asarray(det["terms"], dtype=float)
    df = d["df"]
    if df is None:
        df = np.zeros(0)
    else:
        df = np.atleast_1d(np.asarray(df, dtype=float))
    return {"test": key or d.get("test"), "statistic": float(d["statistic"]),
            "pvalue": float(d["pvalue"]), "df": df,
            "estimate": None if d["estimate"] is None else float(d["estimate"]),
            "method": d.get("method") or "", "null_distribution": d.get("null_distribution") or "",
            "alternative": d.get("alternative") or "two-sided",
            "details": _plain(det), "warnings": [str(w) for w in d.get("warnings") or []]}


def run_test(fname, args, kwargs, key=None):
    """Call ``pybcv.stats.<fname>(*args, **kwargs)``."""
    try:
        from pybcv import stats
        fn = getattr(stats, fname)
        res = fn(*args, **dict(kwargs or {}))
        return {"ok": True, "value": result_dict(res, key)}
    except Exception as e:
        return _fail(e)


def run_from_tables(key, tables, n_train=None, n_test=None, options=None):
    """``TESTS[key].from_tables(tables, n_train, n_test, **options)``."""
    try:
        from pybcv.stats import registry
        spec = registry.get_test(key)
        res = spec.from_tables(tables, n_train, n_test, **dict(options or {}))
        return {"ok": True, "value": result_dict(res, key)}
    except Exception as e:
        return _fail(e)


def registry_table():
    try:
        from pybcv.stats import registry
        rows = [{"key": s.key, "name": s.name, "family": s.family, "design": s.design,
                 "n_folds": -1 if s.n_folds is None else int(s.n_folds),
                 "options": ",".join(s.options), "in_table5": bool(s.in_table5)}
                for s in registry.TESTS.values()]
        return {"ok": True, "value": rows}
    except Exception as e:
        return _fail(e)


def resolve(keys, profile="default"):
    """(test keys, designs in first-use order, options per key)."""
    try:
        from pybcv.stats import registry
        ks = registry.resolve_tests(keys)
        opts = registry.profile_options(profile)
        return {"ok": True, "value": {"keys": ks, "designs": registry.designs_for(ks),
                                      "options": {k: opts.get(k, {}) for k in ks}}}
    except Exception as e:
        return _fail(e)


def _splits_value(splits):
    return {"train": [np.asarray(tr, dtype=np.int64) + 1 for tr, _ in splits],
            "test": [np.asarray(te, dtype=np.int64) + 1 for _, te in splits]}


def bcv_splits(n, m=5, seed=None, extra_rule="balanced", shuffle=True):
    """``pybcv.partitions.bcv_mx2`` with 1-based indices."""
    try:
        from pybcv import partitions
        return {"ok": True, "value": _splits_value(
            partitions.bcv_mx2(n, rng=seed, m=m, extra_rule=extra_rule, shuffle=bool(shuffle)))}
    except Exception as e:
        return _fail(e)


def design_seed(seed, design):
    """The random stream of one design in compare_learners: the stream of
    ``pybcv.engine.compare`` (repetition 0 of the run with this seed,
    ``SeedSequence(seed, spawn_key=(0, 1, crc32(design)))``), so R and Python
    use the same partitions for the same seed, and a design's partition does
    not depend on which other tests were asked for.  The formula is repeated
    here for when the engine cannot be imported; a test checks both agree."""
    try:
        from pybcv import seeds
    except Exception:
        crc = zlib.crc32(design.encode("utf-8")) & 0x7FFFFFFF
        return np.random.Generator(np.random.PCG64(
            np.random.SeedSequence(int(seed), spawn_key=(0, 1, crc))))
    return seeds.rng(seeds.design_seq(int(seed), 0, design))


def design_seed_fallback(seed, design):
    crc = zlib.crc32(design.encode("utf-8")) & 0x7FFFFFFF
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(int(seed), spawn_key=(0, 1, crc))))


def design_splits(design, n, seed):
    """1-based splits of a named design (``pybcv.partitions.DESIGNS``)."""
    try:
        from pybcv import partitions
        if design not in partitions.DESIGNS:
            raise ValueError(f"unknown design {design!r}")
        splits = partitions.DESIGNS[design].splits(int(n), design_seed(seed, design))
        return {"ok": True, "value": _splits_value(splits)}
    except Exception as e:
        return _fail(e)


def has_engine():
    try:
        importlib.import_module("pybcv.engine")
        return True
    except Exception:
        return False
