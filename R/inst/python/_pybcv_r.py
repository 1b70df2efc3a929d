"""Glue between the R package pybcv and the Python core, loaded by reticulate.

Every entry point returns a dict ``{"ok": True, "value": ...}`` or
``{"ok": False, "type": <exception class>, "message": <str(exception)>}`` so
that R can raise its own error with the plain message (no traceback).
Results are plain Python values and numpy arrays, which reticulate turns
into R vectors, matrices and lists.
"""
from __future__ import annotations

import functools
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


#: Python's words in a message -> R's (the loss argument takes an R function)
_R_WORDS = ((" or a callable (y_true, y_pred) -> per-record losses",
             " or an R function(truth, pred) returning one loss per record"),)


def _fail(e):
    """A failure for R: pybcv's input errors (ValueError and its subclasses,
    ArgumentError, DataError, ...; TypeError, a value of the wrong type) as
    "ValueError", whose message R gives alone; any other exception keeps its
    class name in front."""
    msg = str(e)
    for py, r in _R_WORDS:
        msg = msg.replace(py, r)
    return {"ok": False, "type": "ValueError" if isinstance(e, (ValueError, TypeError)) else type(e).__name__,
            "message": msg}


def _entry(fn):
    """An entry point for R: its return value as ``{"ok": True, "value": ...}``,
    any exception as :func:`_fail`'s dict."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return {"ok": True, "value": fn(*args, **kwargs)}
        except Exception as e:
            return _fail(e)
    return call


def _plain(x):
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (np.floating, np.integer, np.bool_)):
        return x.item()
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _interval(res, d, level):
    """(low, high) of the result's confidence interval at ``level``, or
    None: from ``confidence_interval(level)`` when the result has it (the
    agreed interface), else from ``ci_low``/``ci_high`` of ``to_dict()``."""
    ci = None
    if hasattr(res, "confidence_interval"):
        ci = res.confidence_interval(level)
    elif "ci_low" in d and "ci_high" in d:
        ci = (d["ci_low"], d["ci_high"])
    if ci is None:
        return None
    lo, hi = (float("nan") if v is None else float(v) for v in ci)
    if lo != lo and hi != hi:
        return None
    return [lo, hi]


_COMMON = ("test", "statistic", "pvalue", "df", "estimate", "method", "null_distribution",
           "alternative", "warnings", "ci_low", "ci_high", "ci_level")


def result_dict(res, key=None, level=0.95):
    """A TestResult as plain values (its ``to_dict()``): the common fields,
    ``conf_int`` = [low, high] at ``level`` where the result has one, and
    the test's own fields under ``extra`` (2x2 tables as float matrices)."""
    d = res.to_dict(level)
    extra = {}
    for k, v in d.items():
        if k in _COMMON:
            continue
        if k in ("averaged_table", "effective_table", "table", "terms") and v is not None:
            v = np.asarray(v, dtype=float)
        extra[k] = _plain(v)
    df = d["df"]
    df = np.zeros(0) if df is None else np.atleast_1d(np.asarray(df, dtype=float))
    return {"test": key or d["test"], "statistic": float(d["statistic"]),
            "pvalue": float(d["pvalue"]), "df": df,
            "estimate": None if d["estimate"] is None else float(d["estimate"]),
            "method": d["method"], "null_distribution": d["null_distribution"],
            "alternative": d["alternative"], "extra": extra,
            "warnings": [str(w) for w in d["warnings"]],
            "conf_int": _interval(res, d, float(level)), "conf_level": float(level)}


@_entry
def run_test(key, args, kwargs, level=0.95):
    """Call test ``key``'s public function ``TESTS[key].function(*args, **kwargs)``."""
    from pybcv.stats import registry
    res = registry.get_test(key).function(*args, **dict(kwargs or {}))
    return result_dict(res, key, level)


@_entry
def run_from_tables(key, tables, n_train=None, n_test=None, options=None, level=0.95):
    """``TESTS[key].from_tables(tables, n_train, n_test, **options)``."""
    from pybcv.stats import registry
    spec = registry.get_test(key)
    res = spec.from_tables(tables, n_train, n_test, **dict(options or {}))
    return result_dict(res, key, level)


@_entry
def run_battery(keys, tables, n_train, n_test, options, level=0.95, zero_one=True, loss=None):
    """Every test of ``keys`` from its design's fold tables in ONE call:
    ``tables[design]`` is a (F, 4) array (n00, n01, n10, n11 per fold; with
    ``zero_one`` False the per-fold loss sums of :func:`design_loss_sums`,
    under the loss named ``loss``: it decides, as in Python's ``compare``,
    whether the battery's liberal-test warning applies),
    ``n_train[design]``/``n_test[design]`` the fold sizes, ``options[key]``
    the test's options.  Returns {key: result dict} (as R's ``compare_learners`` does)."""
    from pybcv.stats import TESTS
    out = {}
    for k in keys:
        spec = TESTS[k]
        d = spec.design
        tab = np.asarray(tables[d], dtype=float)
        tab = tab.reshape(-1, 2, 2) if zero_one else tab.reshape(-1, 4)
        ntr, nte = n_train.get(d), n_test.get(d)
        sizes = (None if ntr is None else np.asarray(ntr, dtype=float),
                 None if nte is None else np.asarray(nte, dtype=float))
        opts = dict((options or {}).get(k) or {})
        res = (spec.from_tables(tab, *sizes, **opts) if zero_one else
               spec.from_loss_sums(tab, *sizes, loss=loss, **opts))
        out[k] = result_dict(res, k, level)
        out[k]["design"] = d
    return out


def _labels(y):
    """R's target as numpy: numbers stay float, labels become str."""
    y = np.asarray(y)
    return y.astype(float) if y.dtype.kind in "biuf" else y.astype(str)


def data_checks(y, target, shown, classifiers, remedy, compared_as=""):
    """R's ``compare_learners`` before any fit, the checks of the command
    line: enough records and two classes or more
    (``pybcv.datasets.check_records``, as ``load_csv``), and no regression
    target for learners that predict labels (``classifiers``, their names;
    ``pybcv.comparison.check_class_target``; ``compared_as``: why, for R's
    own models compared as classifiers under the default loss).  ``shown``: the target's name
    as R prints it; ``remedy``: what to do, in R's words.  Its value: the
    notes on the labels (``pybcv.datasets.label_variants_note``), which R
    gives as warnings."""
    try:
        from pybcv.comparison import check_class_target
        from pybcv.datasets import check_records, label_variants_note
        y = _labels(y)
        check_records(y, "data", str(target))
        if classifiers:
            check_class_target(y, [str(c) for c in classifiers], f"the target column {shown}",
                               str(remedy), str(compared_as))
        note = label_variants_note(y, "data", str(target))
        return {"ok": True, "value": [note] if note else []}
    except Exception as e:
        return _fail(ValueError(str(e)))


@_entry
def comma_numbers(names, levels):
    """R's text (character or factor) predictors, their names and distinct
    values: a column whose values are all numbers written with a comma is an
    error (``pybcv.datasets.comma_numbers_message``, as load_csv and
    from_arrays refuse it)."""
    from pybcv.datasets import comma_numbers_message
    if isinstance(names, str):                  # reticulate: one column arrives unwrapped
        names, levels = [names], [levels]
    for name, values in zip(names, levels):
        values = [values] if isinstance(values, str) else list(values)
        msg = comma_numbers_message("data", str(name), values,
                                    'read the file with read.csv2() or dec = ","')
        if msg is not None:
            raise ValueError(msg)
    return True


@_entry
def loss_selection(tests, loss, y, stratify=False, function_name=None):
    """R's ``compare_learners(loss = )``: the resolved loss's name and the
    tests it keeps (``pybcv.comparison.loss_tests``: the tests that need 0/1
    outcomes dropped from a selection with a note, refused when named).
    ``function_name``: the loss is an R function (real-valued losses that R
    computes), so named."""
    from pybcv.comparison import loss_tests
    from pybcv.losses import Loss, resolve_loss
    if function_name is not None:
        lossobj = Loss(str(function_name), False)
    else:
        lossobj = resolve_loss(loss, _labels(y))
    if stratify and lossobj.name in ("squared", "absolute"):
        raise ValueError(f"stratify = TRUE forms the blocks within the classes of the target, "
                         f"but under loss {lossobj.name!r} the target is numeric with no "
                         f"classes; leave stratify FALSE")
    keys, notes = loss_tests(tests, lossobj)
    return {"loss": lossobj.name, "zero_one": bool(lossobj.zero_one),
            "proba": bool(lossobj.proba), "keys": list(keys), "notes": list(notes)}


@_entry
def fold_loss_sums(loss_a, loss_b, n_test):
    """(F, 4) loss sums (``pybcv.outcomes.loss_sums``) of per-record losses
    whose folds are consecutive runs of ``n_test`` records (R's function loss)."""
    from pybcv.outcomes import loss_sums
    ends = np.cumsum(np.atleast_1d(np.asarray(n_test, dtype=np.int64)))
    folds = [np.arange(e - m, e) for e, m in zip(ends, np.atleast_1d(n_test))]
    return loss_sums(np.atleast_1d(loss_a), np.atleast_1d(loss_b), folds)


@_entry
def design_loss_sums(y, pred_a, pred_b, test_sets, loss, names=("A", "B")):
    """Per-fold loss sums ``{design: (F, 4)}`` of two learners' predictions
    (``pybcv.pipeline.loss_sums_from_design_predictions``, as Python's
    ``compare(loss = )``): ``pred_a[design][f]`` predicts the records of the
    0-based ``test_sets[design][f]``."""
    from pybcv.losses import resolve_loss
    from pybcv.pipeline import loss_sums_from_design_predictions
    y = _labels(y)
    lossobj = resolve_loss(loss, y)
    splits = {d: [(None, np.atleast_1d(np.asarray(t, dtype=np.int64))) for t in ts]
              for d, ts in dict(test_sets).items()}
    pa = {d: [np.atleast_1d(_labels(p)) for p in ps] for d, ps in dict(pred_a).items()}
    pb = {d: [np.atleast_1d(_labels(p)) for p in ps] for d, ps in dict(pred_b).items()}
    out = loss_sums_from_design_predictions(y, pa, pb, splits, lossobj, list(names))
    return {d: np.asarray(v, dtype=float) for d, v in out.items()}


@_entry
def run_own_predictions_loss(y, pred_a, pred_b, test_sets, design, tests, profile, options,
                             alternative, loss, level=0.95):
    """R's ``pybcv_test_predictions(loss = ...)``: Python's
    ``compare_predictions`` under a real-valued loss (docs/guide/losses.md)
    on 0-based ``test_sets``.  Returns {"results": {key: result dict},
    "notes": [...], "loss_sums": (F, 4), "means": [A, B]}."""
    from pybcv.comparison import compare_predictions
    cmp = compare_predictions(np.asarray(y, dtype=float),
                              [np.asarray(p, dtype=float) for p in pred_a],
                              [np.asarray(p, dtype=float) for p in pred_b],
                              test_sets=[np.asarray(t, dtype=np.int64) for t in test_sets],
                              design=design, tests=tests, profile=profile,
                              options=options or None, alternative=alternative, loss=loss)
    res = {k: dict(result_dict(r, k, level), design=design) for k, r in cmp.results.items()}
    return {"results": res, "notes": list(cmp.warnings),
            "loss_sums": np.asarray(cmp.tables[design], dtype=float),
            "means": [cmp.error_a, cmp.error_b]}


@_entry
def registry_table():
    import inspect
    from pybcv.stats import registry
    rows = []
    for s in registry.TESTS.values():
        params = inspect.signature(s.function).parameters.values()
        rows.append({"key": s.key, "name": s.name, "family": s.family, "design": s.design,
                     "n_folds": -1 if s.n_folds is None else int(s.n_folds),
                     "options": ",".join(s.options), "in_table5": bool(s.in_table5),
                     "arguments": {p.name: (None if p.default is p.empty else _plain(p.default))
                                   for p in params}})
    return rows


@_entry
def resolve(keys, profile="default", options=None, alternative=None):
    """(test keys, designs in first-use order, options per key): the options
    of ``pybcv.comparison.test_options`` (the profile's, ``alternative`` for
    every test that has one, then ``options``; checked against the registry)."""
    from pybcv.comparison import alternative_note_groups, test_options
    from pybcv.stats import registry
    ks = registry.resolve_tests(keys)
    opts = test_options(ks, profile, {str(k): dict(v) for k, v in dict(options or {}).items()},
                        alternative)
    groups = alternative_note_groups(ks, alternative)   # the tests that stay two-sided, as Python says
    return {"keys": ks, "designs": registry.designs_for(ks),
            "options": {k: _plain(opts.get(k, {})) for k in ks},
            "key_notes": {k: [note for named, note in groups if k in named] for k in ks}}


@_entry
def adjust(pvalues, k):
    """Holm's and Shaffer's adjusted p-values of the k(k-1)/2 pairs of one
    test (``pybcv.comparison.holm`` / ``shaffer``, what ``compare --learners`` uses)."""
    from pybcv.comparison import ADJUSTMENTS, holm, shaffer
    p = np.atleast_1d(np.asarray(pvalues, dtype=float))
    return {"holm": holm(p), "shaffer": shaffer(p, int(k)), "methods": list(ADJUSTMENTS)}


def _splits_value(splits):
    return {"train": [np.asarray(tr, dtype=np.int64) + 1 for tr, _ in splits],
            "test": [np.asarray(te, dtype=np.int64) + 1 for _, te in splits]}


@_entry
def bcv_splits(n, m=5, seed=None, extra_rule="balanced", shuffle=True):
    """``BlockRegularizedMx2CV(m, extra_rule, shuffle, random_state=seed).splits(n)``
    with 1-based indices: for a named design (m = 3, 5 with the balanced
    rule) the folds of compare / compare_learners with this seed."""
    from pybcv import partitions
    cv = partitions.BlockRegularizedMx2CV(m, extra_rule, bool(shuffle), random_state=seed)
    return _splits_value(cv.splits(n))


def design_seed(seed, design):
    """The random stream of one design in compare_learners: the stream of
    ``pybcv.compare`` (repetition 0 of the run with this seed,
    ``SeedSequence(seed, spawn_key=(0, 1, crc32(design)))``), so R and Python
    use the same partitions for the same seed, and a design's partition does
    not depend on which other tests were asked for.  The formula is repeated
    here for when the engine cannot be imported; a test checks both agree."""
    try:
        from pybcv import seeds
    except Exception:
        return design_seed_fallback(seed, design)
    return seeds.rng(seeds.design_seq(int(seed), 0, design))


def design_seed_fallback(seed, design):
    crc = zlib.crc32(design.encode("utf-8")) & 0x7FFFFFFF
    return np.random.Generator(np.random.PCG64(
        np.random.SeedSequence(int(seed), spawn_key=(0, 1, crc))))


@_entry
def designs_batch(designs, n, seed, y=None, groups=None, stratify=False, labels=None):
    """The splits of several designs (stream ``(seed, rep 0, design)`` each),
    in run_batch's layout: per design the 1-based indices of every fold,
    training then test rows, and the fold sizes ``ntr``, ``nte``.  With
    ``stratify`` the BCV's blocks are formed within the classes ``y`` (class
    codes in Python's order), with ``groups`` of whole groups
    (``pybcv.partitions.design_splitter``, as ``compare`` draws them).
    ``notes``: the stratified or grouped designs' notes on the data
    (``pybcv.comparison.design_notes``: rare classes, named by ``labels``, the
    class of each record; halves far from n/2), which R warns as Python does."""
    from pybcv import partitions
    from pybcv.comparison import design_notes
    out, drawn = {}, {}
    if groups is not None:
        groups = np.asarray(groups)
    for d in designs:
        if d not in partitions.DESIGNS:
            raise ValueError(f"unknown design {d!r}")
        sp = partitions.design_splitter(d, bool(stratify), groups is not None)
        drawn[d] = splits = sp.splits(int(n), design_seed(seed, d),
                                      y=np.asarray(y) if stratify else None, groups=groups)
        parts = [np.asarray(a, dtype=np.int64) for tr, te in splits for a in (tr, te)]
        out[d] = {"idx": (np.concatenate(parts) + 1).astype(np.int32),
                  "ntr": np.array([len(tr) for tr, _ in splits], dtype=np.int32),
                  "nte": np.array([len(te) for _, te in splits], dtype=np.int32)}
    notes = design_notes(drawn, np.asarray(y if labels is None else labels), bool(stratify),
                         groups)
    return {"designs": out, "notes": notes}


@_entry
def r_learner(spec):
    """What ``batch.R``'s run_batch needs to run the learner of ``spec``
    ("name" or "name:param=value,..."), exactly as the Python side sends it:
    the batch.R learner name, its parameters (defaults from the registry,
    validated by ``make_learner``) and the R packages it needs."""
    from pybcv.learners import LEARNERS, make_learner, parse_spec
    d = dict(parse_spec(spec))
    name = d.pop("name")
    no_r = ValueError(f"learner {name!r} has no R implementation "
                      f"({LEARNERS[name].r_implementation if name in LEARNERS else '?'}); "
                      f"compare it from Python (pybcv.compare) or pass an R function(train, test)")
    if name in LEARNERS and not LEARNERS[name].has_r:
        raise no_r
    est = make_learner(name, backend="r", **d)   # checked as R runs it; starts no R
    if not hasattr(est, "_r_params"):
        raise no_r
    params = {}
    for k, v in est._r_params().items():
        if v is None:
            continue
        if isinstance(v, (list, tuple)):
            v = [str(e) for e in v]
        params[str(k)] = v
    return {"name": name, "learner": est._r_learner_name(), "params": params,
            "packages": list(LEARNERS[name].r_packages)}


@_entry
def learner_names():
    from pybcv.learners import LEARNERS
    return list(LEARNERS)


@_entry
def check_folds(test_sets, n, design):
    """Warnings from ``pybcv.partitions.check_design`` (a ValueError when the
    folds cannot be that design)."""
    from pybcv.partitions import check_design
    if isinstance(test_sets, dict):  # a named R list
        test_sets = list(test_sets.values())
    sets = [np.asarray(t, dtype=np.int64) - 1 for t in test_sets]
    return [str(w) for w in check_design(sets, int(n), design)]


@_entry
def experiments():
    """``pybcv.experiments.EXPERIMENTS`` as plain dicts."""
    import dataclasses
    from pybcv.experiments import EXPERIMENTS
    return {str(name): _plain(dataclasses.asdict(rec)) for name, rec in EXPERIMENTS.items()}

