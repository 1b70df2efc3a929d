"""One-off comparisons on a user's data: the tests of a design (by default
the 5x2 BCV design: the paper's McNemar test and the calibrated F-test, 10
fits per learner) for

* two learners on (X, y): :func:`compare`;
* fixed per-record 0-1 losses of two trained models: :func:`compare_losses`;
* the user's own per-fold predictions: :func:`compare_predictions`;
* k learners, every pair, p-values adjusted by Holm or Shaffer:
  :func:`compare_many`.

Design ``d`` is drawn from ``rng(design_seq(seed, 0, d))`` (:mod:`pybcv.seeds`),
so ``pybcv folds --seed S`` exports exactly the folds that ``compare(...,
seed=S)`` uses.  Defaults (learners, seed 0, tests, profile) come from
:data:`pybcv.experiments.COMPARE_DEFAULTS`, shared with the CLI and R.
"""
from __future__ import annotations

import html
import math
import re
import textwrap
import warnings as _warnings
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._deferred import deferred
from .experiments import COMPARE_DEFAULTS
from ._validate import check_labels, missing_positions, unmasked
from .datasets import Dataset, check_record_count, from_arrays
from .errors import ArgumentError, DataError
from .losses import Loss, clip_notes, has_proba, is_regressor, no_proba_message, resolve_loss
from .fold_tables import tables_batch
from .pipeline import (as_learner, design_generator, draw_splits, learner_label,
                       loss_sums_from_design_predictions, predict_learners,
                       tables_from_design_predictions)
from .outcomes import loss_sums
from .seeds import check_seed
from .partitions import DESIGNS, check_design, check_splits, design_splitter, get_design
from .learners import SklearnLearner
from .learners.base import fallback_notes
from .learners.timelimit import check_timeout
from .stats import TESTS, designs_for, get_test, profile_options, resolve_tests
from .stats._common import check_probability
from .stats.registry import selection, zero_one_message

pd = deferred("pandas")     # imported on first use: 0.2 s of start-up (_deferred.py)

PAPER_TEST = "mcnemar_5x2bcv"   # [YWSL]'s recommended test: listed first, marked
#: the tests a printed comparison leads with, in order (under a real-valued
#: loss the McNemar test does not run: the calibrated F, not a liberal t)
HEADLINE = (PAPER_TEST, "calibrated_f_5x2bcv")


# ------------------------------------------------------------------ selections
def fit_counts(tests="table5", share_designs: bool = True, n: int = 300) -> int:
    """Fits per learner for a set of tests (the union of designs when shared).

    >>> fit_counts("bcv5x2")
    10
    """
    keys = resolve_tests(tests)
    if share_designs:
        return sum(DESIGNS[d].n_splits(n) for d in designs_for(keys))
    return sum(DESIGNS[TESTS[k].design].n_splits(n) for k in keys)


# ------------------------------------------------------------------ the result
def _num(x):
    if x is None:
        return None
    if isinstance(x, tuple):
        return [_num(v) for v in x]
    x = float(x)
    return x if math.isfinite(x) else None


def _loss_words(loss: str) -> str:
    return {"zero_one": "error rates", "cost_matrix": "mean costs"}.get(loss, f"mean {loss} losses")


def _fmt_df(df) -> str:
    if df is None:
        return "-"
    if isinstance(df, tuple):
        return ",".join(f"{v:g}" for v in df)
    return f"{df:g}"


@dataclass(repr=False)
class Comparison:
    """The tests of one comparison of learners A and B.

    ``results``: {test: TestResult}, the paper's test first; ``tables``:
    {design: (F, 2, 2) fold tables}; ``n``: records; ``error_a`` / ``error_b``:
    the error rates pooled over the folds of ``error_design`` (the 5x2 BCV
    when it ran); ``averaged_table`` / ``effective_table`` / ``bcv_t``: those
    of the 5x2 BCV McNemar result it holds ([YWSL] section "The 5x2 BCV
    McNemar's test"), None when that test did not run.  ``cmp[key]`` is one test's result; ``print(cmp)``
    gives a short summary; :meth:`to_frame` one row per test."""
    results: Dict[str, Any]
    tables: Dict[str, np.ndarray]
    n: int
    learner_a: str = "A"
    learner_b: str = "B"
    backends: Tuple[str, str] = ("", "")
    profile: str = "default"
    seed: Optional[int] = 0          # None: folds from elsewhere (own predictions)
    alpha: float = 0.05
    warnings: List[str] = field(default_factory=list)
    fits: Tuple[int, int] = (0, 0)
    loss: str = "zero_one"
    loss_info: Dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, test: str):
        """The result of one test: ``cmp["mcnemar_5x2bcv"]``."""
        try:
            return self.results[test]
        except KeyError:
            raise KeyError(f"test {test!r} did not run in this comparison; ran: "
                           f"{', '.join(self.results)}") from None

    @property
    def headline(self):
        """The result whose estimate and interval ``print`` leads with: the
        first of :data:`HEADLINE` that ran (the guide's recommendations,
        docs/guide/which_test.md), else the first test."""
        return next((self.results[k] for k in HEADLINE if k in self.results),
                    next(iter(self.results.values())))

    # -- the design's tables
    @property
    def error_design(self) -> str:
        return "bcv5x2" if "bcv5x2" in self.tables else next(iter(self.tables))

    def _errors(self):
        s = np.asarray(self.tables[self.error_design]).sum(0)
        if self.loss != "zero_one":      # loss sums (F, 4): mean losses of A and B
            return float(s[1] / s[0]), float(s[2] / s[0])
        return float((s[0, 0] + s[0, 1]) / s.sum()), float((s[0, 0] + s[1, 0]) / s.sum())

    error_a = property(lambda self: self._errors()[0])
    error_b = property(lambda self: self._errors()[1])

    def _bcv(self, field: str):
        res = self.results.get(PAPER_TEST)
        return None if res is None else getattr(res, field)

    averaged_table = property(lambda self: self._bcv("averaged_table"))
    bcv_t = property(lambda self: self._bcv("t"))
    effective_table = property(lambda self: self._bcv("effective_table"))

    # -- views
    def to_frame(self, alpha: Optional[float] = None, level: float = 0.95):
        """pandas DataFrame, one row per test (the paper's test first, ``paper`` True)."""
        alpha = self.alpha if alpha is None else alpha
        rows = []
        for k, r in self.results.items():
            lo, hi = r.confidence_interval(level)
            rows.append({"test": k, "name": r.method or TESTS[k].name, "design": TESTS[k].design,
                         "statistic": r.statistic, "df": r.df, "pvalue": r.pvalue,
                         "estimate": np.nan if r.estimate is None else r.estimate,
                         "ci_low": lo, "ci_high": hi, "reject": r.rejects(alpha),
                         "paper": k == PAPER_TEST})
        return pd.DataFrame(rows)

    def to_json(self, level: float = 0.95) -> dict:
        """The JSON object of schema :data:`JSON_SCHEMA` (docs/guide/json.md):
        {"schema", "alpha", "comparison": what was compared, "tests": {key:
        numbers}} (NaN -> null)."""
        return {"schema": JSON_SCHEMA, "alpha": self.alpha,
                "comparison": {"learner_a": self.learner_a, "learner_b": self.learner_b,
                               "n": int(self.n), "seed": self.seed, "profile": self.profile,
                               "backends": list(self.backends),
                               "error_design": self.error_design,
                               "loss": self.loss, **self.loss_info,
                               "error_a": _num(self.error_a), "error_b": _num(self.error_b),
                               "fits": list(self.fits), "warnings": list(self.warnings)},
                "tests": results_as_json(self.results, self.alpha, level)}

    def __str__(self) -> str:
        alpha = self.alpha
        F = len(self.tables[self.error_design])
        seed = "" if self.seed is None else f", seed {self.seed}"
        lines = [f"A = {self.learner_a}   vs   B = {self.learner_b}   (n = {self.n}{seed}, "
                 f"profile {self.profile})",
                 _loss_words(self.loss)
                 + f" over the {F} folds of {self.error_design}: "
                 f"A {self.error_a:.4f}, B {self.error_b:.4f}"]
        if "cost_matrix" in self.loss_info:
            lines.append(f"cost matrix {self.loss_info['cost_matrix']} (rows the true class, "
                         f"columns the predicted class: {', '.join(map(str, self.loss_info['labels']))})")
        head = self.headline
        if head.estimate is not None:
            lo, hi = head.confidence_interval()
            ci = "" if math.isnan(lo) else f", 95% CI [{lo:.4f}, {hi:.4f}]"
            lines.append(f"estimate of mu_A - mu_B ({head.method}): {head.estimate:+.4f}{ci}")
        def name(r):
            return r.method + ("" if r.alternative == "two-sided" else f" (H1: {r.alternative})")
        w = max(len(name(r)) for r in self.results.values()) + 2
        lines += ["", f"  {'test':<{w}}{'statistic':>10}  {'df':>7}  {'p-value':>9}  "
                      f"{'95% CI of mu_A - mu_B':>22}  decision at {alpha:g}"]
        for k, r in self.results.items():
            lo, hi = r.confidence_interval()
            ci = "-" if math.isnan(lo) else f"[{lo:+.4f}, {hi:+.4f}]"
            mark = "*" if k == PAPER_TEST else " "
            lines.append(f"{mark} {name(r):<{w}}{r.statistic:>10.4f}  {_fmt_df(r.df):>7}  "
                         f"{r.pvalue:>9.4g}  {ci:>22}  {'reject H0' if r.rejects(alpha) else 'keep H0'}")
        if PAPER_TEST in self.results:
            lines.append("* the paper's recommended test")
        lines += [f"warning: {msg}" for msg in self.warnings]
        for r in self.results.values():
            lines += [f"warning ({r.method}): {msg}" for msg in r.warnings]
        return "\n".join(lines)

    def __repr__(self) -> str:
        head = self.headline
        return (f"<Comparison {self.learner_a!r} vs {self.learner_b!r}, n={self.n}, "
                f"{len(self.results)} test(s); {head.test} p={head.pvalue:.4g}>")

    def _repr_html_(self) -> str:
        df = self.to_frame()
        cap = html.escape(f"A = {self.learner_a} vs B = {self.learner_b} (n = {self.n}); "
                          f"{_loss_words(self.loss)} A {self.error_a:.4f}, B {self.error_b:.4f}")
        return f"<p><b>{cap}</b></p>" + df.to_html(index=False, float_format=lambda v: f"{v:.4g}")


#: The version of the JSON objects of ``compare``, ``compare --learners``,
#: ``test`` and ``simulate`` (``--json``) and of the ``to_json()`` methods
#: (docs/guide/json.md): removing, renaming or changing the meaning or type
#: of a field changes it; a new field does not (readers ignore fields they
#: do not know).
JSON_SCHEMA = "pybcv/1"


def results_as_json(results: Dict[str, Any], alpha: float = 0.05, level: float = 0.95) -> dict:
    """{test key: {test, method, design, statistic, df, pvalue, alternative,
    estimate, ci_low, ci_high, ci_level, reject, warnings}}."""
    out = {}
    for k, r in results.items():
        lo, hi = r.confidence_interval(level)
        out[k] = {"test": k, "method": r.method, "design": TESTS[k].design,
                  "statistic": _num(r.statistic), "df": _num(r.df), "pvalue": _num(r.pvalue),
                  "alternative": r.alternative, "estimate": _num(r.estimate),
                  "ci_low": _num(lo), "ci_high": _num(hi), "ci_level": level,
                  "reject": bool(r.rejects(alpha)), "warnings": list(r.warnings)}
    return out


def test_options(keys, profile: str = "default", options=None, alternative=None,
                 loss: Optional[Loss] = None) -> Dict[str, dict]:
    """Each selected test's options: the profile's, then ``alternative`` for
    every test that takes one, then ``options`` ({test: {option: value}}),
    checked against the registry (ValueError naming the test and option;
    ``loss``: the comparison's, to say so when it dropped the test)."""
    po = profile_options(profile)
    out = {k: dict(po.get(k, {})) for k in keys}
    for k, o in out.items():
        if why := TESTS[k].refused(o):
            raise ArgumentError("profile", f"profile {profile!r} sets {k} {o} for the paper's "
                                f"tables, not for a comparison: {why}; the profile re-scores "
                                f"simulations (pybcv simulate / report --profile {profile})")
    if alternative is not None:
        for k in one_sided(keys, alternative):
            out[k]["alternative"] = alternative
    if options:
        if not isinstance(options, dict):
            raise TypeError(f"options must be a dict {{test: {{option: value}}}}, got {options!r}")
        for k, o in options.items():
            if k not in out:
                dropped = loss is not None and k in TESTS and TESTS[k].needs_zero_one \
                    and not loss.zero_one
                raise ArgumentError("options", f"options: test {k!r} " + (
                    f"does not run under loss {loss.name!r} (it needs 0/1 outcomes); tests that "
                    f"run: {', '.join(keys)}" if dropped else
                    f"was not selected (tests: {', '.join(keys)})"))
            if not isinstance(o, dict):
                raise TypeError(f"options[{k!r}] must be a dict of option values, got {o!r}")
            out[k].update(o)
    for k, o in out.items():
        TESTS[k]._options(o)             # names and values checked before any fit
        if why := TESTS[k].refused(o):
            raise ArgumentError("options", f"options[{k!r}]: {why}")
    return out


def one_sided(keys, alternative) -> List[str]:
    """The tests of ``keys`` that run one-sided under ``alternative``: those
    with the option whose one-sided form is not withdrawn."""
    return [k for k in keys if "alternative" in TESTS[k].defaults
            and not TESTS[k].refused({"alternative": alternative})]


def alternative_notes(keys, alternative) -> List[str]:
    """A note naming the selected tests that stay two-sided under a one-sided
    ``alternative`` (they have no such option)."""
    return [note for _, note in alternative_note_groups(keys, alternative)]


def alternative_note_groups(keys, alternative) -> List[Tuple[List[str], str]]:
    """(the tests, the note) of :func:`alternative_notes`: the tests each
    note names (R attaches a note to those tests' warnings)."""
    if alternative in (None, "two-sided"):
        return []
    two = [k for k in keys if "alternative" not in TESTS[k].defaults]
    out = [(two, f"alternative {alternative!r} does not apply to {', '.join(two)}: "
                 f"{'it is' if len(two) == 1 else 'they are'} two-sided only (a chi-squared or F "
                 f"statistic" + ("; the exact hold-out McNemar (exact=True) is offered two-sided "
                                 "only too" if "mcnemar_ho" in two else "") + ")")] if two else []
    gone = [k for k in keys if k not in two and k not in one_sided([k], alternative)]
    if gone:
        out.append((gone, f"alternative {alternative!r} does not apply to {', '.join(gone)}: "
                          f"{'its one-sided form is' if len(gone) == 1 else 'their one-sided forms are'}"
                          f" withdrawn (the validity battery found {'it' if len(gone) == 1 else 'them'}"
                          f" liberal; docs/validity/notes.md, \"Options\"); "
                          f"{'it runs' if len(gone) == 1 else 'they run'} two-sided"))
    return out


def _score_tables(tables, n, keys, options, splits=None, loss="zero_one") -> Dict[str, Any]:
    """Every test of ``keys`` with its options; fold sizes from ``splits`` when
    given (the grouped designs' sizes depend on the draw), else from the design.
    ``loss`` (its name) other than "zero_one": ``tables`` hold per-fold loss
    sums (F, 4) of that real-valued loss (:func:`pybcv.outcomes.loss_sums`)."""
    out = {}
    for k in sorted(keys, key=lambda k: k != PAPER_TEST):      # the paper's test first
        d = TESTS[k].design
        if splits is not None and d in splits:
            ntr = np.array([len(tr) for tr, _ in splits[d]])
            nte = np.array([len(te) for _, te in splits[d]])
        else:
            ntr, nte = DESIGNS[d].sizes(n)
        o = options.get(k, {})
        out[k] = (TESTS[k].from_tables(tables[d], ntr, nte, **o) if loss == "zero_one"
                  else TESTS[k].from_loss_sums(tables[d], ntr, nte, loss=loss, **o))
    return out


def loss_tests(tests, loss: Loss) -> Tuple[List[str], List[str]]:
    """(test keys, notes) of a selection under ``loss``.  Under a real-valued
    loss the tests that need 0/1 outcomes (``TestSpec.needs_zero_one``: the
    McNemar family, the proportion z) are dropped with a note when they came
    with a selection ("all", "table5", a design), and refused (ValueError
    naming them) when named one by one."""
    keys = resolve_tests(tests)
    if loss.zero_one:
        return keys, []
    bad = [k for k in keys if TESTS[k].needs_zero_one]
    if not bad:
        return keys, []
    # the tests named one by one (a key in a list or comma string); a design, all or
    # table5 entry is a selection, whose 0/1-only tests are dropped
    if tests is None or (isinstance(tests, str) and selection(tests.strip()) is not None):
        named = set()
    else:
        entries = [e.strip() for e in tests.split(",")] if isinstance(tests, str) else \
            [str(e).strip() for e in tests]
        named = {get_test(e).key for e in entries if e and (e in TESTS or selection(e) is None)}
    keep = [k for k in keys if k not in bad]
    refused = [k for k in bad if k in named]
    if refused or not keep:
        raise ArgumentError("tests", zero_one_message(refused or bad, f"loss {loss.name!r}"))
    return keep, [f"not run under loss {loss.name!r}: {', '.join(bad)} (they need 0/1 outcomes; "
                  f"docs/guide/losses.md)"]


def check_class_target(y, classifiers, target: str = "y",
                       remedy: str = "compare regressors (e.g. sklearn.linear_model.Ridge) "
                                     "under loss='squared' or 'absolute'",
                       compared_as: str = "") -> None:
    """ValueError when ``classifiers`` (their labels) would face a regression
    target: a numeric ``y`` with more distinct values than half its records,
    or with a value that is not a whole number.  ``target`` names y in the
    message, ``remedy`` says what to do (R's compare_learners gives its own
    words: the one home of the rule for Python, the CLI and R);
    ``compared_as``: why models that may well be regressors are compared as
    classifiers (R: "under the default loss"), said instead of calling them
    classifiers."""
    y = np.asarray(y)
    values = np.unique(y)
    if y.dtype.kind in "iuf" and (values.size > y.size / 2 or np.any(values != np.round(values))):
        one = len(classifiers) == 1
        what = (f"{'is' if one else 'are'} compared as {'a classifier' if one else 'classifiers'} "
                f"{compared_as}, which {'treats' if one else 'treat'}" if compared_as else
                'is a classifier, which treats' if one else 'are classifiers, which treat')
        raise ArgumentError("y", f"{target} looks like a regression target ({values.size} distinct "
                                 f"numbers in {y.size} records), but {', '.join(classifiers)} "
                                 f"{what} every value as a class of its own; {remedy}")


def _learner_loss(learners, made, loss, y, stratify=False) -> Loss:
    """The resolved loss of a comparison of ``learners`` (their specs, and
    ``made``: as :func:`as_learner` makes them; regressors: squared by
    default, zero_one refused; no stratified folds of a numeric target)."""
    reg = [learner_label(x) for x, m in zip(learners, made) if is_regressor(m)]
    cls = [learner_label(x) for x, m in zip(learners, made) if not is_regressor(m)]
    if reg and cls:
        a_reg = "is a regressor" if len(reg) == 1 else "are regressors"
        a_cls = "is a classifier" if len(cls) == 1 else "are classifiers"
        raise ArgumentError("learners", f"learners: {', '.join(reg)} {a_reg} and {', '.join(cls)} "
                                        f"{a_cls}; compare regressors with regressors")
    check_record_count(len(y), "y")      # as load_csv and R refuse them, before any fit
    if reg and (bad := _not_finite(y)) is not None:
        raise ArgumentError("learners",
                            f"learners: {', '.join(reg)} are regressors (they predict numbers), but "
                            f"the target y holds {y[bad]!r} (row {bad}): a class label; compare "
                            f"classifiers, or give a numeric target")
    if not reg:
        check_class_target(y, cls)
        if np.unique(y).size < 2:       # as load_csv and R refuse it, before any fit
            raise DataError(f"y has a single class ({np.asarray(y)[:1].tolist()[0]!r} in all {len(y)} "
                            f"records): comparing classifiers needs two classes or more")
    out = resolve_loss(loss, y, regressor=bool(reg))
    if out.proba:                        # the log loss: probabilities, checked before any fit
        for x, m in zip(learners, made):
            if not has_proba(m):
                raise ArgumentError("loss", no_proba_message(learner_label(x), m))
    if not reg and out.name in ("squared", "absolute"):
        # classifiers predict labels: read as numbers only where they are quantities
        out = Loss(out.name, False, out.per_record, note=(
            f"loss {out.name!r} on classifiers reads the class labels of y as numbers (an "
            f"error of 1 -> 3 costs {'4' if out.name == 'squared' else '2'}); meaningful only "
            f"for ordered numeric classes; for labels use zero_one, a cost matrix or log"))
    if stratify is True and reg:
        raise ArgumentError("stratify", "stratify=True forms the blocks within the classes of y, "
                                        "but the learners are regressors: y is a numeric target "
                                        "with no classes; leave stratify False")
    return out


def _outcomes(y, pa, pb, splits, loss: Loss, names=("A", "B")):
    """{design: fold tables} (0/1 loss) or {design: loss sums} (other losses)."""
    if loss.zero_one:
        return tables_from_design_predictions(y, pa, pb, splits)
    return loss_sums_from_design_predictions(y, pa, pb, splits, loss, names)


def _draw_splits(data, keys, seed, stratify=False, groups=None):
    """{design: (train, test) pairs} of every design the tests need, design d
    from the stream ``design_generator(seed, d)``; with ``stratify`` the BCV's
    blocks are formed within the classes of y, with ``groups`` (one value
    per record) over whole groups (:func:`pybcv.partitions.design_splitter`)."""
    if not isinstance(stratify, (bool, np.bool_)):
        got = (f"{type(stratify).__name__} of {len(stratify)} values" if np.ndim(stratify)
               else repr(stratify))
        raise ArgumentError("stratify", f"stratify must be True or False (stratify=True forms the "
                                        f"5x2 BCV's blocks within the classes of y), got {got}")
    designs = {d: d for d in designs_for(keys)}
    return draw_splits(data.n, designs, {d: design_generator(seed, d) for d in designs},
                       y=data.y if stratify else None, groups=groups)


def design_notes(splits, y, stratify, groups) -> List[str]:
    """The stratified or grouped designs' notes on the data (rare classes;
    halves far from n/2), once per note."""
    notes = []
    for d, sp in splits.items():
        if stratify:
            notes += design_splitter(d, stratify=True).class_notes(y)
        elif groups is not None:
            notes += design_splitter(d, grouped=True).halves_notes([te for _, te in sp], groups)
    return list(dict.fromkeys(notes))


def compare(X, y=None, learner_a=None, learner_b=None, tests=COMPARE_DEFAULTS["tests"],
            seed: int = COMPARE_DEFAULTS["seed"], profile: str = COMPARE_DEFAULTS["profile"],
            backend: str = COMPARE_DEFAULTS["backend"], *, n_jobs: int = 1, progress: bool = False,
            alpha: float = COMPARE_DEFAULTS["alpha"], stratify: bool = False,
            groups: Optional[Sequence] = None, alternative: Optional[str] = None,
            options: Optional[Dict[str, dict]] = None,
            timeout: Optional[float] = None, loss=None) -> Comparison:
    """Compare learners A and B on (X, y) with the tests ``tests`` (default:
    the 5x2 BCV design's two tests; ``tests="all"`` for every test).

    Learners: a registry name, ``"name:param=value"``, a spec dict, a pybcv
    learner or any scikit-learn classifier (default: J48 vs kknn, which take
    any predictors, :data:`pybcv.experiments.COMPARE_DEFAULTS`).  Each design is fitted once
    per learner; ``n_jobs`` processes fit the designs in parallel and
    ``progress`` shows a tqdm bar.  ``alternative`` ("two-sided", "less",
    "greater": H1 on error(A) - error(B)) applies to every selected test
    that has one (the one-sided 5x2 BCV McNemar test holds alpha in the
    validity battery where the two-sided one does; the one-sided 10-fold t,
    corrected RHO t, CV-CI z and proportion z were liberal where their
    two-sided tests hold, the one-sided corrected 10x10 CV t more liberal
    than its two-sided test, so they are withdrawn and those tests run
    two-sided, with a warning: docs/validity); ``options`` sets any test's
    options, e.g. ``{"mcnemar_5x2bcv": {"t": 1.5}}`` (:func:`test_options`;
    a withdrawn option value is an error naming it).

    ``stratify=True`` forms the BCV's blocks within the classes of y;
    ``groups`` (one value per record, or the name of a column of a DataFrame
    X, which then is no predictor) forms them of whole groups, so that no
    group is on both sides of a fold (the block-regularized designs only;
    docs/guide/partitions.md).  The seed draws these folds as it draws the
    plain ones.  ``timeout``: seconds one fit may take; a fit that takes
    longer fails naming the learner, the design and the fold
    (:mod:`pybcv.learners.timelimit`).

    ``loss``: "zero_one" (classifiers' default), "squared" (regressors'
    default), "absolute", "log" (classifiers with ``predict_proba``; the
    probability of the true class clipped below at 1e-15), a cost matrix or
    a callable (y_true, y_pred) -> per-record losses (:mod:`pybcv.losses`, docs/guide/losses.md); under a
    real-valued loss the tests that need 0/1 outcomes are dropped from a
    selection (a note in ``warnings``) or refused when named.

    ``X`` may be a :class:`pybcv.datasets.Dataset` (``load_csv``,
    ``from_arrays``) with ``y`` left out: its X and y were checked, and its
    notes on how they were read said, when it was built, so the comparison
    says them no second time.

    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from pybcv.datasets import exp6
    >>> d = exp6(1)
    >>> cmp = compare(d.X, d.y, KNeighborsClassifier(1), "majority", backend="python")
    >>> list(cmp.results), cmp.fits
    (['mcnemar_5x2bcv', 'calibrated_f_5x2bcv'], (10, 10))
    """
    pair = [COMPARE_DEFAULTS["learner_a"] if learner_a is None else learner_a,
            COMPARE_DEFAULTS["learner_b"] if learner_b is None else learner_b]
    _refuse_classes(pair, ["learner_a", "learner_b"])
    cmp, = _pairwise(X, y, pair, [learner_label(x) for x in pair], tests, seed, profile, backend,
                     n_jobs, progress, alpha, stratify, groups, alternative, options, timeout,
                     loss).values()
    return cmp


def _refuse_classes(learners, args) -> None:
    """A learner given as a class (``LogisticRegression``) rather than an
    instance is refused before any work, naming the argument ``args[i]``."""
    for x, arg in zip(learners, args):
        if isinstance(x, type):
            raise TypeError(f"{arg} is the class {x.__name__}; pass an instance: {x.__name__}()")


def _groups_column(X, groups):
    """``groups`` named as a column of the DataFrame X (as R's ``groups =
    "site"`` and the CLI's ``--groups site``): that column's values, and X
    without it (a groups column is never a predictor)."""
    if not isinstance(groups, str):
        name = getattr(groups, "name", None)
        if name is not None and name in getattr(X, "columns", ()) and \
                np.array_equal(np.asarray(X[name]), np.asarray(groups)):
            _warnings.warn(f"groups is column {name!r} of X, which stays a predictor (R's and "
                           f"the CLI's groups column never is): give groups={name!r} to use it "
                           f"for the folds only", UserWarning, stacklevel=4)
        return X, groups
    cols = getattr(X.X if isinstance(X, Dataset) else X, "columns", None)
    if cols is None or groups not in cols:
        raise ArgumentError("groups", f"groups={groups!r} names no column of X"
                            + (f" (columns: {', '.join(map(str, cols))})" if cols is not None else
                               " (X has no column names)")
                            + "; give a column name of a DataFrame X, or one group per record")
    if isinstance(X, Dataset):
        return replace(X, X=X.X.drop(columns=[groups])), X.X[groups].to_numpy()
    return X.drop(columns=[groups]), X[groups].to_numpy()


def _refuse_target_in_X(X, y) -> None:
    """y given as a column of the DataFrame X that is still in X (``compare(df,
    df["class"], ...)``): every learner would read the answer and both err
    0, a silent wrong answer; refused, naming the column."""
    name = getattr(y, "name", None)
    cols = getattr(X, "columns", None)
    if name is None or cols is None or name not in cols:
        return
    yv = np.asarray(y)
    for j in np.flatnonzero(np.asarray(cols == name)):       # duplicate names: each
        xv = np.asarray(X.iloc[:, j])
        try:
            same = np.array_equal(xv, yv, equal_nan=True)
        except TypeError:                                    # text: no NaN to match
            same = np.array_equal(xv, yv)
        if same:
            raise ArgumentError("X", f"X holds the target column {name!r} (the values of y), "
                                     f"so every learner would read the answer; drop it from "
                                     f"X: X.drop(columns=[{name!r}])")


def _pairwise(X, y, learners, names, tests, seed, profile, backend, n_jobs, progress, alpha,
              stratify, groups, alternative, options, timeout, loss) -> Dict[Tuple[str, str], Comparison]:
    """{(name i, name j): Comparison} of every pair of ``learners`` (labelled
    ``names``), each learner fitted once per design (:func:`compare`)."""
    seed, alpha = check_seed(seed), check_probability(alpha, "alpha")
    X, groups = _groups_column(X, groups)
    _refuse_target_in_X(X, y)
    read_notes = []
    if isinstance(X, Dataset):    # read and checked when it was built: its notes said then
        if X.X is None:
            raise ValueError(f"X is the learner-free Dataset {X.name!r} (fixed per-record losses "
                             f"or predictions): compare_losses or compare_predictions reads them")
        if y is not None:
            raise ValueError("X is a Dataset, which holds its labels: leave y out")
        data = X
    else:
        if y is None:
            raise ValueError("y is missing: give the labels, or X as a pybcv Dataset "
                             "(pybcv.datasets.load_csv or from_arrays)")
        with _warnings.catch_warnings(record=True) as read_notes:   # how X was read: kept as notes
            _warnings.simplefilter("always")
            data = from_arrays(X, y)
    for w in read_notes:          # and warned again at the caller's line (compare/compare_many)
        _warnings.warn(str(w.message), w.category, stacklevel=3)
    made = [as_learner(x, backend) for x in learners]
    lossobj = _learner_loss(learners, made, loss, data.y, stratify)
    for m in made:              # before any fit: a scikit-learn estimator that cannot take text
        if isinstance(m, SklearnLearner):
            m.check_text_columns(data.X, data.y)
    keys, notes = loss_tests(tests, lossobj)
    notes = [str(w.message) for w in read_notes] + notes
    notes += [lossobj.note] if lossobj.note else []
    opts = test_options(keys, profile, options, alternative, lossobj)
    notes += alternative_notes(keys, alternative)
    splits = _draw_splits(data, keys, seed, stratify, groups)
    notes += design_notes(splits, data.y, stratify, groups)
    preds, backends, warned = predict_learners(learners, data.X, data.y, splits, backend, n_jobs,
                                               progress, seed, check_timeout(timeout), lossobj.proba)
    who = ([f"learner {s} ({n})" for s, n in zip("AB", names)] if len(learners) == 2
           else [f"learner {n}" for n in names])
    for w, lrn in zip(who, warned):
        notes += fit_notes(w, lrn, splits)
    for note in fallback_notes(made, who, backends):
        notes.append(note)
        _warnings.warn(note, RuntimeWarning, stacklevel=3)
    notes += clip_notes(data.y, preds, names, splits) if lossobj.proba else []
    fits = sum(len(s) for s in splits.values())
    out = {}
    for i, j in combinations(range(len(learners)), 2):
        tables = _outcomes(data.y, preds[i], preds[j], splits, lossobj, (names[i], names[j]))
        out[(names[i], names[j])] = Comparison(
            _score_tables(tables, data.n, keys, opts, splits, lossobj.name), tables, data.n,
            names[i], names[j], (backends[i], backends[j]), profile, seed, alpha, list(notes),
            fits=(fits, fits), loss=lossobj.name, loss_info=lossobj.info)
    return out


def fit_notes(who: str, warned: dict, splits) -> List[str]:
    """One note per message a learner's fits warned (``warned``: {(category,
    text): {design: folds}}, :func:`pybcv.pipeline.predict_learners`), e.g.
    "learner A (LogisticRegression), 10 of 10 fits of bcv5x2 (first on fold
    1): ConvergenceWarning: ...", each also re-raised as a warning of its
    category (a filter on ConvergenceWarning applies), at the caller's line
    (R's compare_learners words them the same way)."""
    out = []
    for (category, text), by_design in warned.items():
        where = [f"{len(by_design[d])} of {len(splits[d])} fits of {d} (first on fold "
                 f"{min(by_design[d])})" for d in splits if d in by_design]
        out.append(f"{who}, {'; '.join(where)}: {text}")
        try:
            _warnings.warn(out[-1], category, stacklevel=4)
        except TypeError:                   # a warning class that takes other arguments
            _warnings.warn(out[-1], UserWarning, stacklevel=4)
    return out


def compare_losses(loss_a, loss_b, tests=COMPARE_DEFAULTS["tests"], seed: int = COMPARE_DEFAULTS["seed"],
                   profile: str = COMPARE_DEFAULTS["profile"], *,
                   alpha: float = COMPARE_DEFAULTS["alpha"], alternative: Optional[str] = None,
                   options: Optional[Dict[str, dict]] = None, loss: str = "zero_one") -> Comparison:
    """The tests from fixed per-record losses of two trained models (every
    partition reads the same losses: models trained once).

    ``loss="zero_one"`` (default): 0/1 losses, every test; anything else
    (probabilities, squared errors) is refused, never rounded.  Any other
    ``loss`` (a name for the report: "squared", "log_loss", ...): real-valued
    losses, read by the t, F and z tests as per-fold mean loss differences;
    the tests that need 0/1 outcomes are dropped from a selection or refused
    when named (:func:`loss_tests`, docs/guide/losses.md)."""
    seed, alpha = check_seed(seed), check_probability(alpha, "alpha")
    if not isinstance(loss, str):
        raise ValueError(f"loss must be 'zero_one' or the name of your real-valued losses, "
                         f"got {loss!r}")
    la, lb = (_per_record_losses(x, k, loss == "zero_one") for x, k in ((loss_a, "loss_a"),
                                                                          (loss_b, "loss_b")))
    if la.shape != lb.shape:
        raise ValueError(f"loss_a and loss_b must have the same length, got {la.size} and {lb.size}")
    lossobj = Loss(loss, loss == "zero_one")
    keys, notes = loss_tests(tests, lossobj)
    opts = test_options(keys, profile, options, alternative, lossobj)
    notes += alternative_notes(keys, alternative)
    designs = designs_for(keys)
    if lossobj.zero_one:         # a fold's table needs only its test rows (pybcv.fold_tables)
        tables = {d: tables_batch(d, (2 * la + lb)[None], [design_generator(seed, d)])[0]
                  for d in designs}
    else:
        tables = {d: loss_sums(la, lb, [te for _, te in DESIGNS[d].splits(la.size,
                                                                          design_generator(seed, d))])
                  for d in designs}
    return Comparison(_score_tables(tables, la.size, keys, opts, loss=lossobj.name), tables,
                      la.size, "A (losses)", "B (losses)", ("none", "none"), profile, seed, alpha,
                      notes, loss=loss)


def _per_record_losses(loss, name, zero_one: bool) -> np.ndarray:
    """Per-record 0/1 losses as int64 (``zero_one``), else real-valued ones
    as float64 (finite numbers); anything else is a ValueError saying why."""
    a = np.asarray(unmasked(loss, name))
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"{name} must be a 1-d array of per-record losses, got shape {a.shape}")
    if not zero_one:
        if a.dtype.kind not in "biuf":
            raise ValueError(f"{name} must hold numbers (per-record losses), got dtype {a.dtype}")
        a = a.astype(float)
        bad = np.flatnonzero(~np.isfinite(a))
        if bad.size:
            raise ValueError(f"{name}: record {bad[0]} has loss {a[bad[0]]!r}; losses must be finite")
        return a
    if a.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold numbers (0 = right, 1 = wrong), got dtype {a.dtype}")
    bad = np.flatnonzero(~np.isin(a, (0, 1)))          # booleans are 0/1
    if bad.size:
        raise ValueError(f"{name}: record {bad[0]} has loss {a[bad[0]]!r}; these tests need 0/1 "
                         f"losses (1 = misclassified), not probabilities or other losses "
                         f"({bad.size} record(s) are not 0/1); for real-valued losses give "
                         f"loss='squared' (or 'log_loss', ...: the t, F and z tests)")
    return a.astype(np.int64)


def _folds_fit(test_sets, n: int, design: str) -> bool:
    """Whether ``test_sets`` can be the folds of the named ``design``."""
    try:
        check_design(test_sets, n, design)
        return True
    except ValueError:
        return False


def wrong_design_message(wrong: Sequence[str], design: str) -> str:
    """Which design each test of ``wrong`` runs on, as predictions made on
    ``design``'s folds cannot feed it: "kfold_t runs on design cv10 (...)"."""
    need: Dict[str, List[str]] = {}
    for k in wrong:
        need.setdefault(TESTS[k].design, []).append(k)
    runs = "; ".join(f"{', '.join(ks)} run{'s' if len(ks) == 1 else ''} on design {d}"
                     for d, ks in need.items())
    return f"{runs}, not on {design!r} (the design of these predictions)"


def compare_predictions(y, pred_a: Sequence, pred_b: Sequence, *, test_sets: Optional[Sequence] = None,
                        splits: Optional[Sequence] = None, design: str = "bcv5x2",
                        tests=None, profile: str = COMPARE_DEFAULTS["profile"],
                        alpha: float = COMPARE_DEFAULTS["alpha"], learner_a: str = "A",
                        learner_b: str = "B", alternative: Optional[str] = None,
                        options: Optional[Dict[str, dict]] = None, loss="zero_one") -> Comparison:
    """The tests of ``design`` from the user's own per-fold predictions.

    ``y``: the labels of all n records; ``pred_a[f]``, ``pred_b[f]``: the
    labels predicted for the test records of fold ``f`` (``test_sets[f]``,
    or the second element of ``splits[f]``), folds in the design's order
    (``pybcv folds`` writes them).  The folds are checked to form the design
    (ValueError with the reason, else the checker's warnings are kept in
    ``warnings``); every test of the design runs unless ``tests`` says.
    ``loss``: as in :func:`compare` (under "squared" or "absolute" the
    predictions are numbers, not labels: a regression; under "log" each
    fold's predictions are class probabilities, an array (records, k) with
    columns the sorted labels of y).

    >>> import numpy as np
    >>> from pybcv.partitions import DESIGNS
    >>> y = np.arange(40) % 2
    >>> folds = DESIGNS["bcv5x2"].test_sets(40, np.random.default_rng(0))
    >>> cmp = compare_predictions(y, [y[t] for t in folds], [1 - y[t] for t in folds],
    ...                           test_sets=folds)
    >>> cmp.error_a, cmp.error_b
    (0.0, 1.0)
    """
    if (test_sets is None) == (splits is None):
        raise ValueError("give the folds as test_sets or as splits (one of them)")
    get_design(design)
    alpha = check_probability(alpha, "alpha")
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-d (one label per record), got shape {y.shape}")
    y = check_labels(y)                  # NaN / None labels: an error naming the row
    n = y.size
    if splits is not None:
        splits = _own_splits(splits, n, design)
        test_sets = [te for _, te in splits]
    test_sets = [np.asarray(t, dtype=np.int64) for t in test_sets]
    for name, preds in (("pred_a", pred_a), ("pred_b", pred_b)):
        if len(preds) != len(test_sets):
            raise ValueError(f"{name} has {len(preds)} folds, the folds are {len(test_sets)}")
    try:
        warns = list(check_design(test_sets, n, design))
    except ValueError as e:
        try:                             # a BCV of uneven blocks (pybcv's grouped folds)?
            warns = list(check_design(test_sets, n, design_splitter(design, grouped=True)))
        except ValueError:
            # the BCVs first: their folds are also halves of a random m x 2 CV, not the reverse
            fits = sorted((d for d in DESIGNS if d != design and _folds_fit(test_sets, n, d)),
                          key=lambda d: not d.startswith("bcv"))
            hint = f"; they are folds of {' or '.join(fits)}: give design={fits[0]!r}" if fits else ""
            raise ValueError(f"the folds cannot be the design {design!r}: {e}{hint}") from None
    regression = isinstance(loss, str) and loss in ("squared", "absolute")
    if regression and (bad := _not_finite(y)) is not None:
        raise ValueError(f"y: row {bad} is {y[bad]!r}; under loss {loss!r} the target must "
                         f"be finite numbers")
    lossobj = resolve_loss(loss, y, regressor=regression)
    # labels of y (0/1 loss, cost matrix), numbers (squared, absolute), anything (a callable)
    labels = None if regression else set(y.tolist())
    for name, preds in (("pred_a", pred_a), ("pred_b", pred_b)):
        for f, p in enumerate(preds):
            p = unmasked(p, f"{name}[{f}] (fold {f})")
            if lossobj.proba:
                _check_fold_probabilities(np.asarray(p), name, f, len(test_sets[f]), y)
                continue
            _check_fold_predictions(np.asarray(p), name, f, len(test_sets[f]),
                                    False if callable(loss) else labels)
    keys, notes = loss_tests(design if tests is None else tests, lossobj)
    notes += [lossobj.note] if lossobj.note else []
    wrong = [k for k in keys if TESTS[k].design != design]
    if wrong:
        d = TESTS[wrong[0]].design
        raise ValueError(f"{wrong_design_message(wrong, design)}: predict on the folds of "
                         f"design {d!r} (e.g. pybcv.partitions.get_design({d!r}).splits(n, "
                         f"pybcv.comparison.design_generator(seed, {d!r}))) and give design={d!r}")
    opts = test_options(keys, profile, options, alternative, lossobj)
    notes += alternative_notes(keys, alternative)
    folds = {design: [(None, t) for t in test_sets]}
    pa, pb = {design: list(pred_a)}, {design: list(pred_b)}
    tables = _outcomes(y, pa, pb, folds, lossobj, (learner_a, learner_b))
    notes += clip_notes(y, (pa, pb), (learner_a, learner_b), folds) if lossobj.proba else []
    if splits is None and design != "conservative_z":   # the folds' own sizes (grouped folds)
        splits = [(np.setdiff1d(np.arange(n), t), t) for t in test_sets]
    return Comparison(_score_tables(tables, n, keys, opts, None if splits is None else {design: splits},
                                    lossobj.name),
                      tables, n, learner_a, learner_b, ("own", "own"), profile, None, alpha,
                      warns + notes, loss=lossobj.name, loss_info=lossobj.info)


def _own_splits(splits, n: int, design: str):
    """The user's ``(train, test)`` pairs, checked: each a pair of 0-based
    row arrays, and (every design but conservative_z) the training rows all
    the rows the fold does not test -- the designs' tests assume it.  Their
    training sizes are then what the tests read."""
    try:
        pairs = [tuple(sp) for sp in splits]
    except TypeError:
        raise ValueError("splits must be (train, test) pairs of row arrays") from None
    if any(len(sp) != 2 for sp in pairs):
        raise ValueError("splits must be (train, test) pairs of row arrays")
    pairs = check_splits(pairs, n)
    if design == "conservative_z":
        raise ValueError("conservative_z's half-sample folds cannot be checked from your splits; "
                         "use pybcv's own conservative_z folds (pybcv folds --train)")
    for f, (tr, te) in enumerate(pairs):
        if tr.size + te.size != n or np.union1d(tr, te).size != n:
            missing = np.setdiff1d(np.arange(n), np.union1d(tr, te))
            raise ValueError(f"splits[{f}]: the training rows are not all the rows the fold does "
                             f"not test ({missing.size} row(s) on neither side, e.g. row "
                             f"{int(missing[0]) if missing.size else '?'}); design {design!r} "
                             f"trains every fold on all the other rows")
    return pairs


def _not_finite(v: np.ndarray) -> Optional[int]:
    """The first position of ``v`` that is not a finite number (text, NaN,
    infinity), or None."""
    for i, x in enumerate(v.tolist()):
        try:
            ok = not isinstance(x, (bool, np.bool_)) and math.isfinite(float(x))
        except (TypeError, ValueError, OverflowError):
            ok = False
        if not ok:
            return i
    return None


def _check_fold_probabilities(p: np.ndarray, name: str, f: int, size: int, y):
    """One fold's own class probabilities under the log loss: an array
    (records, k), columns the sorted labels of y (the values are checked
    by the loss itself)."""
    labels = np.unique(y)
    if p.ndim != 2 or p.shape != (size, labels.size):
        raise ValueError(f"{name}, fold {f}: loss 'log' needs predicted probabilities, an array "
                         f"of shape ({size}, {labels.size}) (the fold's test records x the classes "
                         f"of y in the order {labels.tolist()[:8]}); got shape {p.shape}"
                         + (" -- labels are not probabilities" if p.ndim == 1 else ""))


def _check_fold_predictions(p: np.ndarray, name: str, f: int, size: int, labels):
    """One fold's own predictions: one label of y per test record (``labels``
    None: one number per record; False: anything, a callable loss reads
    them), none missing."""
    if p.ndim != 1 or p.size != size:
        proba = (" -- an array of shape (records, classes): class probabilities? give "
                 "loss='log'" if p.ndim == 2 and p.shape[0] == size and labels is not None else "")
        raise ValueError(f"{name}, fold {f}: {p.size} prediction(s) for the fold's {size} test "
                         f"records{proba}")
    miss = missing_positions(p)
    if miss.size:
        raise ValueError(f"{name}, fold {f}: the predictions have {miss.size} missing label(s) "
                         f"(NaN/None), first at position {miss[0]}")
    if labels is False:                  # a callable loss reads them
        return
    if labels is None:                   # a regression: finite numbers
        bad = _not_finite(p)
        if bad is not None:
            raise ValueError(f"{name}, fold {f}: prediction {bad} ({p[bad]!r}, position {bad} of "
                             f"the fold) is not a finite number; predictions must be finite "
                             f"numbers under a squared or absolute loss")
        return
    extra = sorted(str(v) for v in set(p.tolist()) - labels)
    if extra and len(labels) > 8 and _not_finite(np.array(sorted(labels, key=str) + extra)) is None:
        raise ValueError(f"{name}, fold {f}: the predictions ({extra[:3]}, ...) are numbers that "
                         f"are not values of y, and y holds {len(labels)} distinct numbers: a "
                         f"regression? give loss='squared' or 'absolute' (docs/guide/losses.md)")
    if extra:
        raise ValueError(f"{name}, fold {f}: predictions must be class labels of y (labels: "
                         f"{', '.join(sorted(map(str, labels))[:8])}); found {extra[:3]} -- not "
                         "probabilities, scores or integer codes (numeric predictions of a numeric "
                         "target: loss='squared' or 'absolute', docs/guide/losses.md)")


# ------------------------------------------------------------------ multiple comparisons
def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (valid under any dependence).

    Sorted p_(1) <= ... <= p_(m): adjusted p_(j) = max_{i <= j} min(1, (m - i + 1) p_(i))
    (Holm 1979).  NaN counts as 1 (never rejected) and stays NaN.

    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    return _step_down(pvalues, lambda m: np.arange(m, 0, -1))


@lru_cache(maxsize=None)
def shaffer_true_counts(k: int) -> frozenset:
    """The possible numbers of true hypotheses among the k(k-1)/2 pairwise
    equalities of k learners (Shaffer 1986): S(k) = union over j = 1..k of
    {C(j, 2) + s : s in S(k - j)}, S(0) = {0}.

    >>> sorted(shaffer_true_counts(4))
    [0, 1, 2, 3, 6]
    """
    if k <= 1:
        return frozenset({0})
    out = set()
    for j in range(1, k + 1):
        out |= {j * (j - 1) // 2 + s for s in shaffer_true_counts(k - j)}
    return frozenset(out)


def shaffer(pvalues, k: int) -> np.ndarray:
    """Shaffer's static (S1) adjusted p-values of all k(k-1)/2 pairwise
    comparisons of k learners (valid under any dependence; Shaffer 1986).

    Sorted p_(1) <= ... <= p_(m), t_j = the largest number of hypotheses that
    can be true when j - 1 are false, max{s in S(k): s <= m - j + 1};
    adjusted p_(j) = max_{i <= j} min(1, t_i p_(i)).  t_j <= m - j + 1, so
    Shaffer rejects at least what Holm rejects.

    >>> shaffer([0.01, 0.04, 0.03], k=3).tolist()
    [0.03, 0.04, 0.03]
    """
    m = k * (k - 1) // 2
    if len(np.atleast_1d(pvalues)) != m:
        raise ValueError(f"k = {k} learners give {m} pairs, got {len(np.atleast_1d(pvalues))} p-values")
    S = np.array(sorted(shaffer_true_counts(k)))
    return _step_down(pvalues, lambda m_: np.array([S[S <= m_ - j].max() for j in range(m_)]))


def _step_down(pvalues, factors) -> np.ndarray:
    p = np.asarray(pvalues, dtype=float).ravel()
    nan = np.isnan(p)
    q = np.where(nan, 1.0, p)
    if np.any((q < 0) | (q > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    order = np.argsort(q, kind="stable")
    adj = np.minimum(1.0, np.maximum.accumulate(factors(p.size) * q[order]))
    out = np.empty_like(adj)
    out[order] = adj
    out[nan] = np.nan
    return out


ADJUSTMENTS = ("holm", "shaffer")


@dataclass(repr=False)
class LearnerComparison:
    """Every pair of k learners: ``pairs`` (one dict per pair and test, with
    ``pvalue_holm`` and ``pvalue_shaffer`` adjusted over the pairs of each test),
    ``comparisons`` {(a, b): Comparison}; :meth:`to_frame`, :meth:`plot`."""
    learners: List[str]
    pairs: List[dict]
    comparisons: Dict[Tuple[str, str], Comparison]
    adjust: str = "holm"
    alpha: float = 0.05
    errors: Dict[str, float] = field(default_factory=dict)

    def to_frame(self):
        return pd.DataFrame(self.pairs)

    def to_json(self) -> dict:
        """The JSON object of schema :data:`JSON_SCHEMA` (docs/guide/json.md)."""
        return {"schema": JSON_SCHEMA, "alpha": self.alpha, "learners": self.learners,
                "adjust": self.adjust, "loss": self._loss(),
                **next(iter(self.comparisons.values())).loss_info,
                "errors": {k: _num(v) for k, v in self.errors.items()}, "warnings": self._notes(),
                "pairs": [{k: (_num(v) if isinstance(v, (float, np.floating)) else v)
                           for k, v in p.items()} for p in self.pairs]}

    def _test(self, test: Optional[str]) -> str:
        """``test``, or the first of :data:`HEADLINE` that ran (as a
        two-learner comparison leads with), else the first that ran."""
        ran = list(dict.fromkeys(p["test"] for p in self.pairs))
        if test is None:
            return next((k for k in HEADLINE if k in ran), ran[0])
        if test not in ran:
            raise ValueError(f"test {test!r} did not run; ran: {', '.join(ran)}")
        return test

    def differ(self, test: Optional[str] = None) -> List[Tuple[str, str]]:
        """Pairs whose adjusted p-value (``adjust``) lies below alpha in
        ``test`` (default: as in :meth:`plot`)."""
        test = self._test(test)
        return [(p["a"], p["b"]) for p in self.pairs if p["test"] == test and p["reject"]]

    def __str__(self) -> str:
        lines = [f"{len(self.learners)} learners, every pair; p-values adjusted by "
                 f"{self.adjust} (alpha {self.alpha:g})",
                 _loss_words(self._loss()) + ": "
                 + ", ".join(f"{k} {v:.4f}" for k, v in self.errors.items())]
        lines += [f"warning: {msg}" for msg in self._notes()] + [""]
        w = max(len(a) + len(b) for a, b in self.comparisons) + 6
        wt = max(len(p["test"]) for p in self.pairs) + 2
        lower = "error" if self._loss() == "zero_one" else "loss"
        lines.append(f"  {'pair':<{w}}{'test':<{wt}}{'p':>10}{'holm':>10}{'shaffer':>10}  "
                     f"differ (lower {lower})")
        for p in self.pairs:
            mark = "*" if p["test"] == PAPER_TEST else " "
            lower = p["a"] if p["estimate"] < 0 else p["b"]
            lines.append(f"{mark} {p['a'] + ' vs ' + p['b']:<{w}}{p['test']:<{wt}}{p['pvalue']:>10.4g}"
                         f"{p['pvalue_holm']:>10.4g}{p['pvalue_shaffer']:>10.4g}  "
                         + (f"yes ({lower})" if p["reject"] else "no"))
        return "\n".join(lines + self._test_warnings())

    def _test_warnings(self) -> List[str]:
        """The tests' own warnings, once each (with the pairs they concern
        when not all of them)."""
        seen: Dict[Tuple[str, str], List[str]] = {}
        for (a, b), c in self.comparisons.items():
            for r in c.results.values():
                for msg in r.warnings:
                    seen.setdefault((r.method, msg), []).append(f"{a} vs {b}")
        return [f"warning ({method}"
                + ("" if len(prs) == len(self.comparisons) else f"; {', '.join(prs)}")
                + f"): {msg}" for (method, msg), prs in seen.items()]

    def _notes(self) -> List[str]:
        """The notes every pair shares (the data, the loss)."""
        return list(next(iter(self.comparisons.values())).warnings) if self.comparisons else []

    def _loss(self) -> str:
        return next(iter(self.comparisons.values())).loss if self.comparisons else "zero_one"

    def __repr__(self) -> str:
        return f"<LearnerComparison {len(self.learners)} learners, {len(self.pairs)} pair tests>"

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False, float_format=lambda v: f"{v:.4g}")

    def plot(self, test: Optional[str] = None, ax=None, path: Optional[str] = None):
        """A k x k matrix of the adjusted p-values of ``test`` (default: the
        paper's test, or under a loss it does not take the first test that ran), learners
        ordered by error rate: each cell holds the pair's p-value (``*``
        below alpha) and says which learner has the lower error ("row
        better" / "col better"); blue where the row's learner has the lower
        error, red where the column's, the deeper the smaller the p-value."""
        import matplotlib
        if path is not None:
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        test = self._test(test)
        names = sorted(self.learners, key=lambda s: self.errors.get(s, 0.0))
        pos = {s: i for i, s in enumerate(names)}
        k = len(names)
        M = np.full((k, k), np.nan)
        better = np.zeros((k, k))           # +1: the row's learner has the lower error
        col = f"pvalue_{self.adjust}"
        for p in self.pairs:
            if p["test"] == test:
                i, j = pos[p["a"]], pos[p["b"]]
                M[i, j] = M[j, i] = np.nan if p[col] is None else p[col]
                s = -np.sign(p["estimate"]) if np.isfinite(p["estimate"]) else 0.0
                better[i, j], better[j, i] = s, -s
        Z = better * (1.0 - np.where(np.isnan(M), 1.0, M))
        fig = None
        if ax is None:
            fig, ax = plt.subplots(figsize=(1.3 * k + 2, 1.1 * k + 1.5))
        cmap = plt.get_cmap("RdBu")
        im = ax.imshow(np.where(np.isnan(M), np.nan, Z), vmin=-1, vmax=1, cmap=cmap)
        # short labels: an import path's class name only, wrapped (the full names are
        # the pairs' keys); the figure saved with every label inside it
        labels = [textwrap.fill(re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", s), 24)
                  + f"\n({self.errors.get(s, np.nan):.3f})" for s in names]
        ax.set_xticks(range(k), labels, rotation=45, ha="right", fontsize=8)
        ax.set_yticks(range(k), labels, fontsize=8)
        for i in range(k):
            for j in range(k):
                if not np.isfinite(M[i, j]):
                    continue
                r, g, b, _ = cmap((Z[i, j] + 1) / 2)
                ink = "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black"
                side = {1.0: "row better", -1.0: "col better"}.get(float(better[i, j]), "equal")
                ax.text(j, i, f"{M[i, j]:.3f}" + ("*" if M[i, j] < self.alpha else "") + "\n" + side,
                        ha="center", va="center", fontsize=7, color=ink)
        ax.set_title(textwrap.fill(f"{TESTS[test].name}: {self.adjust}-adjusted p (* < "
                                   f"{self.alpha:g}); blue: row learner better",
                                   max(40, int(9 * k + 14))), fontsize=9)
        (fig or ax.figure).colorbar(im, ax=ax, fraction=0.046,
                                    label="(1 - p) x (+1 row better, -1 col better)")
        if fig is not None or path is not None:   # every label inside a plain savefig too
            (fig or ax.figure).tight_layout()
        if path is not None:
            (fig or ax.figure).savefig(path, dpi=110, bbox_inches="tight")
        return ax


def compare_many(X, y=None, learners: Sequence = (), tests=COMPARE_DEFAULTS["tests"],
                     seed: int = COMPARE_DEFAULTS["seed"], profile: str = COMPARE_DEFAULTS["profile"],
                     backend: str = COMPARE_DEFAULTS["backend"], *, adjust: str = "holm",
                     n_jobs: int = 1, progress: bool = False,
                     alpha: float = COMPARE_DEFAULTS["alpha"], stratify: bool = False,
                     groups: Optional[Sequence] = None, alternative: Optional[str] = None,
                     options: Optional[Dict[str, dict]] = None,
                     timeout: Optional[float] = None, loss=None) -> LearnerComparison:
    """Compare k >= 2 learners: each learner is fitted once per design, every
    pair is tested on the same folds, and each test's p-values are adjusted
    over the k(k-1)/2 pairs by Holm and by Shaffer's static procedure
    (``adjust`` picks the one that decides).  ``loss``, ``X`` a Dataset: as in
    :func:`compare`.

    >>> from pybcv.datasets import exp6
    >>> d = exp6(2)
    >>> res = compare_many(d.X, d.y, ["majority", "fnn-weighted", "fnn-weighted:omega=0.29"],
    ...                        tests="mcnemar_5x2bcv", backend="python")
    >>> [(p["a"], p["b"]) for p in res.pairs][:2]
    [('majority', 'fnn-weighted'), ('majority', 'fnn-weighted:omega=0.29')]
    """
    if adjust not in ADJUSTMENTS:
        raise ValueError(f"adjust must be one of {ADJUSTMENTS}, got {adjust!r}")
    learners = list(learners)
    if len(learners) < 2:
        raise ValueError(f"learners: give at least 2, got {len(learners)}")
    _refuse_classes(learners, [f"learners[{i}]" for i in range(len(learners))])
    names = []
    for x in learners:
        lab = learner_label(x)
        names.append(lab if lab not in names else f"{lab}#{len(names) + 1}")
    comparisons = _pairwise(X, y, learners, names, tests, seed, profile, backend, n_jobs, progress,
                            alpha, stratify, groups, alternative, options, timeout, loss)
    any_cmp = next(iter(comparisons.values()))
    keys = list(any_cmp.results)              # the paper's test first
    errors = {names[0]: any_cmp.error_a}
    for (a, b), c in comparisons.items():
        errors.setdefault(b, c.error_b)
    pairs = []
    k = len(learners)
    for test in keys:
        ps = [c.results[test].pvalue for c in comparisons.values()]
        h, s = holm(ps), shaffer(ps, k)
        for (a, b), c, ph, psh in zip(comparisons, comparisons.values(), h, s):
            r = c.results[test]
            lo, hi = r.confidence_interval()
            pairs.append({"a": a, "b": b, "test": test, "method": r.method,
                          "alternative": r.alternative, "pvalue": float(r.pvalue),
                          "pvalue_holm": float(ph), "pvalue_shaffer": float(psh),
                          "reject": bool((ph if adjust == "holm" else psh) < alpha),
                          "statistic": float(r.statistic), "df": _num(r.df),
                          "estimate": float("nan") if r.estimate is None else float(r.estimate),
                          "ci_low": lo, "ci_high": hi, "warnings": list(r.warnings)})
    return LearnerComparison(names, pairs, comparisons, adjust, alpha, errors)
