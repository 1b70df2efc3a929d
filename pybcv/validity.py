"""The validity battery (issue 18): every test of the registry, with every
option that changes it, scored on families of settings where the truth is
known -- type-I error where H0 holds by construction, interval coverage
where the true difference mu_A - mu_B is known.

Families (:data:`FAMILIES`, the one list) run through the engine
(:class:`pybcv.engine.RunConfig`, :func:`pybcv.engine.simulate` and its
store), with the engine's random streams (``pybcv.seeds``):

every family, learner-free (epsilon, the fixed-prediction twins) or with
learners, runs :func:`pybcv.engine.simulate` into a store
(``<runs>/<family>/results.sqlite``, resumable) which keeps every fold
table (``RunConfig.keep_tables`` for the learner-free ones): every option is
re-scored from the stored tables, never redrawn or refitted, in chunks of
:data:`SCORE_CHUNK` repetitions (memory bounded in the repetitions).

Option variants (:func:`variants`) are read from the registry: each test's
defaults, every profile in ``PROFILES``, the other value of each option
(``alternative``: "less" and "greater"; ``correction``, ``clamp_correction``:
flipped; ``empty_fold``: "drop"; ``t`` of the 5x2 BCV McNemar: :data:`T_VALUES`).
A new option of the registry is scored once it has an entry in
:data:`OTHER_VALUES`.

Scores (:func:`score`) are counts -- repetitions, rejections at
:data:`ALPHA`, intervals that cover the truth -- written to
``docs/validity/results.csv.gz``; Clopper-Pearson 95% intervals and the flags
(type-I interval entirely above alpha, coverage interval entirely below
0.95) are computed from the counts (:func:`clopper_pearson`), so the test
suite re-scores the committed file (tests/test_validity.py) against the
documented warnings (``docs/validity/warnings.csv``).

Commands: ``pybcv validity run`` (resumable), ``pybcv validity score`` and
``pybcv validity report`` (docs/validity/README.md and the plot).
"""
from __future__ import annotations

import gzip
import io
import json
import os
import time
from collections import Counter
from fnmatch import fnmatchcase
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._deferred import deferred
from . import rq1
from .datasets import simple
from .engine import RunConfig, Store, simulate
from .engine.store import DB_NAME
from .learners import make_learner
from .learners.fallbacks import BaseEstimator, ClassifierMixin
from .outcomes import differences
from .partitions import DESIGNS
from .stats import PROFILES, TESTS
from .stats._common import admit_withdrawn
from .stats.registry import _n_folds

pd = deferred("pandas")     # imported on first use: 0.2 s of start-up (_deferred.py)
_st = deferred("scipy.stats")      # 0.25 s: only the battery's scoring uses it

ALPHA = 0.05
LEVEL = 0.95
SEED = 18                     # the battery's seed (issue 18); every family uses it
SCORE_CHUNK = 500             # stored repetitions scored at a time
DOCS = os.path.join("docs", "validity")
RUNS = os.path.join("validity_runs")        # untracked: the stores (.gitignore)
RQ1_COVERAGE = "rq1_coverage.csv.gz"        # RQ1's coverage per experiment (gzip: 3,000 rows)
RESULTS = "results.csv.gz"                  # counts per family, test and variant (gzip: 2,000 rows)

#: t values of the 5x2 BCV McNemar scored beside the paper's 20/11: the rounded
#: 2 and the withdrawn 2.512 (docs/conventions.md, "The calibrated t (withdrawn)").
T_VALUES = (2.0, 2.512)

#: The other values of each option that changes a test (see module doc).
OTHER_VALUES = {
    "alternative": ("less", "greater"),
    "correction": (False,),
    "exact": (True,),
    "clamp_correction": (True,),
    "empty_fold": ("drop",),
    "t": T_VALUES,
}


@dataclass(frozen=True)
class Family:
    """One setting of the battery.

    ``kind``: "null" (H0 true by construction: type-I errors and coverage of
    0) or "coverage" (a known true difference: coverage only).  ``role``:
    "choose" (a family on which the beyond-the-paper candidates of
    :func:`candidates` may be chosen) or "check" (held out).  ``tests``:
    "all" or a list (families whose learners are slow leave out the
    heaviest designs; the README says which).  ``stratify``: the 5x2 BCV
    drawn stratified by the class (``RunConfig.stratify``; issue 21);
    ``group_size``: drawn grouped, groups of that many consecutive records
    (``RunConfig.group_size``).  ``loss``: the per-record loss
    (``RunConfig.loss``; issue 21): under a real-valued loss the t, F and z
    tests read per-fold loss sums, stored in place of the fold tables.
    ``truth``: None (the
    engine's ``RunConfig.true_difference``) or "simple-glm" (estimated per
    training size by :func:`simple_truth`)."""
    name: str
    kind: str
    dataset: str
    n: int
    reps: int
    data_params: Dict = field(default_factory=dict)
    learner_a: Optional[dict] = None
    learner_b: Optional[dict] = None
    tests: object = "all"
    role: str = "check"
    truth: Optional[str] = None
    note: str = ""
    stratify: bool = False
    group_size: int = 0
    loss: object = "zero_one"

    def config(self) -> RunConfig:
        return RunConfig(self.dataset, self.tests, seed=SEED, n=self.n,
                         data_params=dict(self.data_params), learner_a=self.learner_a,
                         learner_b=self.learner_b, backend="python", stratify=self.stratify,
                         group_size=self.group_size, loss=self.loss, keep_tables=True)

    @property
    def learner_free(self) -> bool:
        return self.config().learner_free


def _twins(noise, name="glm"):
    """Learners A and B: ``name`` seeing the predictors through independent
    noise of ``noise`` sd (noise streams 1 and 2)."""
    return tuple({"name": name, "noise": noise, "noise_stream": k} for k in (1, 2))


class ShiftTwin(ClassifierMixin, BaseEstimator):
    """The twins of the ``shift-twins`` null (:func:`pybcv.datasets.shift_twins`,
    X = [y, z_A, u_A, z_B, u_B]): twin ``view`` (0 = A, 1 = B) trained on
    rows S errs on a record iff its u < ``base`` + ``c`` mean(z[S]), so its
    error rate moves with the training set (sd c / sqrt(|S|)) while A and B
    stay exchangeable: H0 exact, with training variability set by ``c``."""

    def __init__(self, view=0, c=0.5, base=0.3):
        self.view, self.c, self.base = view, c, base

    def fit(self, X, y):
        X = np.asarray(X, float)
        self.classes_ = np.unique(y)
        self.rate_ = self.base + self.c * X[:, 1 + 2 * int(self.view)].mean()
        return self

    def predict(self, X):
        X = np.asarray(X, float)
        y = X[:, 0].astype(np.int64)
        return np.where(X[:, 2 + 2 * int(self.view)] < self.rate_, 1 - y, y)


_SHIFT = lambda c: tuple({"name": "pybcv.validity.ShiftTwin", "view": k, "c": c}  # noqa: E731
                         for k in (0, 1))


def tests_upto(folds: int) -> Tuple[str, ...]:
    """The registry's tests whose design has at most ``folds`` folds (the
    families that cannot afford the 100- to 315-fold designs leave them out;
    the README says which)."""
    return tuple(k for k, spec in TESTS.items() if _n_folds(spec.design) <= folds)


def tests_trained_on(n: int, n_train: int) -> Tuple[str, ...]:
    """The registry's tests whose design, on ``n`` records, trains on
    ``n_train`` records (its largest training set: the conservative z's
    variance halvings train on fewer).  A data set whose H0 holds at one
    training size only (EXP6's omega) is a null for these tests only."""
    return tuple(k for k, spec in TESTS.items() if DESIGNS[spec.design].sizes(n)[0].max() == n_train)


MID = tests_upto(100)      # without the pseudo bootstrap and conservative z designs (240, 315 folds)
LIGHT = tests_upto(15)     # without the 10x10 CV too


def on_losses(tests) -> Tuple[str, ...]:
    """The tests of ``tests`` ("all" or keys) that take a real-valued loss."""
    keys = TESTS if tests == "all" else tests
    return tuple(k for k in keys if not TESTS[k].needs_zero_one)


#: the cost matrix of the classifier loss families: an error on the second
#: class (true label 1 predicted 0) costs 5, the other errors 1
COST = ((0.0, 1.0, 1.0), (5.0, 0.0, 1.0), (1.0, 1.0, 0.0))
COST2 = ((0.0, 1.0), (5.0, 0.0))

FAMILIES: List[Family] = [
    # ---- learner-free nulls (10,000 repetitions)
    *[Family(f"epsilon n={n} eps={e}", "null", "epsilon", n, 10000, {"eps": e},
             tests="all" if n <= 300 else MID,
             role="choose" if (n, e) in ((300, 0.1), (1000, 0.1)) else "check",
             note="fixed per-record losses, H0 by construction")
      for n, e in ((300, 0.1), (1000, 0.1), (100, 0.1), (3000, 0.1), (300, 0.3),
                   (1000, 0.02), (3000, 0.3))],
    # ---- learner nulls (2,000 repetitions)
    Family("simple n=300 delta=0", "null", "simple", 300, 2000, {"delta": 0.0}, tests=LIGHT,
           role="choose", note="glm vs majority on uninformative x: every classifier errs 1/2"),
    Family("simple noise n=300", "null", "simple", 300, 2000, {"delta": 1.0}, *_twins(1.0), LIGHT,
           note="two glm seeing x through independent noise (1 sd of x): H0 by symmetry"),
    *[Family(f"{k} noise n={n}", "null", k, n, 2000, {}, *_twins(0.5), LIGHT,
             note=f"UCI {k} drawn with replacement; two glm through independent noise "
                  f"(0.5 column sd): H0 by symmetry")
      for k, n in (("magic", 500), ("pima", 500), ("twonorm", 500))],
    Family("simple n=1000 delta=0", "null", "simple", 1000, 2000, {"delta": 0.0}, tests=LIGHT,
           note="as simple n=300 delta=0"),
    Family("simple noise n=1000", "null", "simple", 1000, 2000, {"delta": 1.0},
           *_twins(1.0), LIGHT, note="as simple noise n=300"),
    Family("exp6 H0 n=300", "null", "exp6", 300, 2000, {}, None, None, "bcv5x2",
           note="J48-unpruned (Python stand-in) vs fnn-weighted omega = 0.29, the paper's H0 "
                "omega (tuned for the R learners; the stand-in's true errors may differ)"),
    # EXP6's H0 omega for the Python stand-ins, per training size (`pybcv truth --dataset
    # exp6 --backend python --train-n N --sets 1000`: mu_A = mu_B within ~0.0005)
    *[Family(f"exp6 H0 n=300 train={m}", "null", "exp6", 300, 2000, {},
             {"name": "J48-unpruned"}, {"name": "fnn-weighted", "omega": w},
             tests_trained_on(300, m),
             note=f"J48-unpruned vs fnn-weighted omega = {w}, the stand-ins' H0 omega for "
                  f"{m} training records (1,000 training sets); the tests whose designs train "
                  f"on {m} of the 300 records")
      for m, w in ((150, 0.2962), (200, 0.3040), (270, 0.2997))],
    # ---- coverage families (known true difference)
    *[Family(f"twin-residuals squared bias=0.5{t} n={n}", "coverage", "twin-residuals", n, 10000,
             {"bias": 0.5, **({"df": 5.0} if t else {})}, tests=on_losses("all" if n <= 300 else MID),
             loss="squared", note=f"learner-free regression twins{' (t(5) noise)' if t else ''}, "
                                  f"A's predictions + 0.5: truth 0.25 under the squared loss")
      for n, t in ((300, ""), (1000, " t5"))],
    *[Family(f"epsilon shift={s} n={n}", "coverage", "epsilon", n, 10000,
             {"eps": 0.1, "shift": s}, tests="all" if n <= 300 else MID,
             note=f"A's loss probabilities + {s}: truth {s}")
      for n, s in ((300, 0.05), (3000, 0.02))],
    *[Family(f"simple n={n} delta={d}", "coverage", "simple", n, 2000, {"delta": d}, tests=LIGHT,
             truth="simple-glm", note="glm vs majority; truth: glm's population error at "
                                      "the design's training size (2,000 training sets) - 1/2")
      for n, d in ((300, 0.5), (1000, 0.2))],
    # ---- last: the largest
    Family("epsilon n=10000 eps=0.1", "null", "epsilon", 10000, 10000, {"eps": 0.1}, tests=MID,
           note="fixed per-record losses, H0 by construction"),
    Family("simple n=3000 delta=0", "null", "simple", 3000, 2000, {"delta": 0.0}, tests=LIGHT,
           note="as simple n=300 delta=0"),
]


def _every_test(base: str, note: str) -> Family:
    """Family ``base`` with every test of the registry, the 100- to 315-fold
    designs too, at 2,000 repetitions: the same seed, so its repetitions are
    those of ``base`` (an entry of FAMILIES already built: the list grows in
    pieces so that these read their base instead of restating it)."""
    family = next(f for f in FAMILIES if f.name == base)
    return replace(family, name=f"{base} all tests", reps=2000, tests="all", role="check",
                   note=note)


FAMILIES += [
    _every_test("simple n=300 delta=0", "simple n=300 delta=0 with the 100- to 315-fold designs "
                "(the same seed: its repetitions are those of simple n=300 delta=0)"),
    _every_test("simple n=300 delta=0.5", "simple n=300 delta=0.5 with every test of the "
                "registry (its repetitions; truth per training size: 150, 200, 270)"),
    _every_test("simple n=1000 delta=0.2", "simple n=1000 delta=0.2 (weak signal, large training "
                "variability) with every test of the registry (its repetitions)"),
    # ---- constructed after the choice of "Beyond the paper" (held out by construction)
    Family("epsilon n=500 eps=0.2", "null", "epsilon", 500, 10000, {"eps": 0.2}, tests=MID,
           note="added after the t candidates were chosen"),
    Family("simple noise n=300 sd=0.3", "null", "simple", 300, 2000, {"delta": 1.0},
           *_twins(0.3), LIGHT,
           note="two glm through weaker noise (0.3 sd of x); added after the choice"),
    Family("pima mean-noise n=300", "null", "pima", 300, 2000, {}, *_twins(1.0, "mean"), LIGHT,
           note="nearest-class-mean twins through independent noise (1 column sd); added "
                "after the choice"),
    Family("simple noise n=1000 delta=0.2", "null", "simple", 1000, 2000, {"delta": 0.2},
           *_twins(1.0), "bcv5x2",
           note="glm twins on weak signal: large training variability (v_eff near 5.5, the "
                "limit of the paper's t); the 5x2 BCV tests only; added after the choice"),
    Family("twonorm mean-noise n=1000", "null", "twonorm", 1000, 2000, {},
           *_twins(1.0, "mean"), LIGHT,
           note="nearest-class-mean twins, 1 column sd of noise; added after the choice"),
    # ---- the stratified 5x2 BCV (issue 21): its blocks are not a uniformly random partition
    Family("simple noise n=300 stratified", "null", "simple", 300, 2000, {"delta": 1.0},
           *_twins(1.0), "bcv5x2", stratify=True,
           note="simple noise n=300 with the 5x2 BCV stratified by the class (issue 21); "
                "the 5x2 BCV tests only"),
    Family("pima noise n=500 stratified", "null", "pima", 500, 2000, {},
           *_twins(0.5), "bcv5x2", stratify=True,
           note="pima noise n=500 with the 5x2 BCV stratified by the class (issue 21); "
                "the 5x2 BCV tests only"),
    Family("simple noise n=320 grouped", "null", "simple", 320, 2000, {"delta": 1.0},
           *_twins(1.0), "bcv5x2", group_size=4,
           note="simple noise with the grouped 5x2 BCV, 80 synthetic groups of 4 consecutive "
                "(independent) records: the blocks keep the plain design's sizes (issue 21); "
                "the 5x2 BCV tests only"),
    Family("pima noise n=320 grouped", "null", "pima", 320, 2000, {},
           *_twins(0.5), "bcv5x2", group_size=4,
           note="pima noise with the grouped 5x2 BCV, 80 synthetic groups of 4 consecutive "
                "(independent) records (issue 21); the 5x2 BCV tests only"),
    # ---- real-valued losses (issue 21): the t, F and z tests on per-fold loss sums
    Family("simple noise n=300 cost", "null", "simple", 300, 2000, {"delta": 1.0},
           *_twins(1.0), on_losses(LIGHT), loss=COST2,
           note="simple noise n=300 under the cost matrix [[0, 1], [5, 0]] (issue 21)"),
    Family("twin-residuals squared n=300", "null", "twin-residuals", 300, 10000, {},
           tests=on_losses("all"), loss="squared",
           note="learner-free: fixed predictions y + e + u, y + e + v (u, v iid normal), "
                "exchangeable given y: H0 under any loss; squared loss"),
    Family("twin-labels cost n=300", "null", "twin-labels", 300, 10000, {},
           tests=on_losses("all"), loss=COST,
           note="learner-free: two fixed 3-class predictions, each wrong with a record's "
                "difficulty (eps 0.1 or 0.3), exchangeable given y; cost matrix "
                "[[0, 1, 1], [5, 0, 1], [1, 1, 0]]"),
    Family("twin-residuals absolute t3 n=300", "null", "twin-residuals", 300, 10000,
           {"df": 3.0}, tests=on_losses("all"), loss="absolute",
           note="learner-free twins with Student t(3) noise (heavy tails); absolute loss"),
    Family("linear squared n=300", "null", "linear", 300, 2000, {}, tests=on_losses(LIGHT),
           loss="squared",
           note="two ridge regressions (sklearn Ridge) seeing X (4 normal columns) through "
                "independent noise (1 column sd): H0 by symmetry; squared loss"),
    Family("magic-length squared n=300", "null", "magic-length", 300, 2000, {},
           tests=on_losses(LIGHT), loss="squared",
           note="UCI magic's fLength (heavy-tailed) from its 9 other columns, records drawn "
                "with replacement; ridge twins through noise (0.5 column sd); squared loss"),
    Family("linear absolute n=1000", "null", "linear", 1000, 2000, {}, tests=on_losses(LIGHT),
           loss="absolute", note="as linear squared n=300, n = 1000; absolute loss"),
    Family("twin-residuals squared t5 n=1000", "null", "twin-residuals", 1000, 10000,
           {"df": 5.0}, tests=on_losses(MID), loss="squared",
           note="learner-free twins with Student t(5) noise: squared losses with heavy tails"),
    # ---- the log loss (class probabilities, predict_proba)
    Family("twin-probs log n=300", "null", "twin-probs", 300, 10000, {},
           tests=on_losses("all"), loss="log",
           note="learner-free: fixed probabilities sigmoid(s + u), sigmoid(s + v) of y = 1, "
                "s = (2y - 1) + e, u, v iid normal: exchangeable given y; log loss"),
    Family("simple logistic log n=300", "null", "simple", 300, 2000, {"delta": 1.0},
           *_twins(1.0, "sklearn.linear_model.LogisticRegression"),
           on_losses(LIGHT), loss="log",
           note="two logistic regressions (sklearn) seeing x through independent noise (1 sd "
                "of x): H0 by symmetry; log loss"),
]
FAMILIES += [       # ---- every design with learners (the 100- to 315-fold designs too), on nulls
    _every_test("simple noise n=300", "simple noise n=300 with every test of the registry (the "
                "same seed: its repetitions are those of simple noise n=300)"),
    _every_test("twonorm mean-noise n=1000",
                "twonorm mean-noise n=1000 with every test of the registry (its repetitions)"),
    *[_every_test(f"{k} noise n=500", f"{k} noise n=500 with every test of the registry (the "
                  f"same seed: its repetitions are those of {k} noise n=500)")
      for k in ("pima", "magic")],
    # ---- training variability beyond the paper's bound (v_eff > 5.5; constructed 2026-11-25)
    *[Family(f"shift-twins c={c} n=300", "null", "shift-twins", 300, 10000, {}, *_SHIFT(c),
             MID,   # 10,000: fitting a twin is a mean, learner-free in cost
             note=f"synthetic twins whose error rate is 0.3 + {c} x the training mean of a "
                  f"N(0, 1) column of their own (sd {c / 150 ** 0.5:.3f} at 150 training "
                  f"records): H0 by symmetry, training variability set by c")
      for c in (0.1, 0.25, 0.5)],
]
FAMILIES += [
    _every_test("shift-twins c=0.5 n=300", "shift-twins c=0.5 n=300 with every test of the "
                "registry (the 240- and 315-fold designs too; the same seed: its repetitions "
                "are those of shift-twins c=0.5 n=300)"),
    # ---- built 2026-11-25 (eighth session) after the options' withdrawal rule was fixed:
    # the options that stay, checked out of sample
    *[Family(f"epsilon n={n} eps={e}", "null", "epsilon", n, 10000, {"eps": e}, tests=MID,
             note="added after the withdrawal of the liberal options: an out-of-sample "
                  "check of the options that stay")
      for n, e in ((2000, 0.05), (150, 0.25))],
]

FAMILY = {f.name: f for f in FAMILIES}


def family_dir(root: str, fam: Family) -> str:
    return os.path.join(root, fam.name.replace(" ", "_").replace("=", ""))


# --------------------------------------------------------------------------- variants
def variants(test: str) -> List[Tuple[str, dict]]:
    """(label, options) of every option variant of ``test`` (see module doc)."""
    spec = TESTS[test]
    out = [("default", {})] + [(f"profile={prof}", dict(opts[test]))
                               for prof, opts in PROFILES.items()
                               if prof != "default" and opts.get(test)]
    out += [(f"{opt}={v}", {opt: v}) for opt, default in spec.defaults.items()
            for v in OTHER_VALUES.get(opt, ()) if v != default]
    if {"exact", "alternative"} <= set(spec.defaults):     # the exact test one-sided too
        out += [(f"exact=True,alternative={a}", {"exact": True, "alternative": a})
                for a in OTHER_VALUES["alternative"]]
    uniq = {}                   # the first label of each distinct set of options
    for label, o in out:
        uniq.setdefault(json.dumps(o, sort_keys=True), (label, o))
    return list(uniq.values())


# --------------------------------------------------------------------------- truth
def simple_truth(n_train: int, delta: float, sets: int = 2000, seed: int = SEED) -> float:
    """mu_glm(n_train) - 1/2 on ``simple``: glm's population error, averaged
    over ``sets`` training sets of size n_train (its own streams, apart from
    the battery's), minus majority's 1/2 (exact: y ~ B(1, 1/2) whatever the
    training set).  A training set's population error is integrated over a
    grid of x (step 0.002 on [-8, 8 + delta])."""
    grid = np.arange(-8.0, 8.0 + delta, 0.002)
    w0 = 0.5 * _st.norm.pdf(grid) * 0.002          # P(x in cell, y = 0)
    w1 = 0.5 * _st.norm.pdf(grid - delta) * 0.002  # P(x in cell, y = 1)
    glm = make_learner("glm", backend="python")
    errs = np.empty(sets)
    batch = 50
    for b0 in range(0, sets, batch):
        ds = [simple(np.random.SeedSequence(seed, spawn_key=(s, 77, n_train)), n_train, delta)
              for s in range(b0, min(sets, b0 + batch))]
        # one call: training set s occupies its own rows; the grid is predicted by each
        X = np.concatenate([d.X[:, 0] for d in ds] + [grid])
        y = np.concatenate([d.y for d in ds] + [np.zeros(len(grid), int)])
        G = np.arange(len(X) - len(grid), len(X))
        splits = [(np.arange(i * n_train, (i + 1) * n_train), G) for i in range(len(ds))]
        preds = glm.predict_splits(X.reshape(-1, 1), y, splits)
        for i, p in enumerate(map(np.asarray, preds)):
            errs[b0 + i] = float(np.sum(w0[p == 1]) + np.sum(w1[p == 0]))
    return float(errs.mean() - 0.5)


def truths(fam: Family, root: Optional[str] = None) -> Dict[str, float]:
    """{design: true mu_A - mu_B} of a family (the same for every design
    unless it depends on the training size); an estimated truth is kept in
    ``<run folder>/truth.json`` when ``root`` is given."""
    if root is not None and fam.truth is not None:
        path = os.path.join(family_dir(root, fam), "truth.json")
        if os.path.exists(path):
            return json.load(open(path))
        out = truths(fam)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            json.dump(out, fh, indent=1)
        return out
    cfg = fam.config()
    designs = sorted({TESTS[k].design for k in cfg.tests})
    if fam.truth == "simple-glm":          # estimated once per training size
        ntr = {d: int(DESIGNS[d].sizes(fam.n)[0][0]) for d in designs}
        at = {m: simple_truth(m, float(fam.data_params["delta"])) for m in dict.fromkeys(ntr.values())}
        return {d: at[m] for d, m in ntr.items()}
    t = 0.0 if fam.kind == "null" else cfg.true_difference()
    if t is None:
        raise ValueError(f"family {fam.name!r}: no known true difference")
    return {d: float(t) for d in designs}


# --------------------------------------------------------------------------- counting
def count(cfg: RunConfig, tables: Dict[str, np.ndarray], truth: Dict[str, float]
          ) -> Dict[Tuple[str, str], dict]:
    """{(test, variant): counts} on fold tables {unit: (R, F, 2, 2)}:
    ``reps``, ``rejections`` (p < ALPHA), ``intervals`` (with an interval)
    and ``covered`` (interval contains the truth of its design)."""
    out = {}
    for k in cfg.tests:
        spec = TESTS[k]
        T = tables[cfg.unit_of(k)]
        ntr, nte = DESIGNS[spec.design].sizes(cfg.n)
        run = spec.batch_with_intervals if cfg.zero_one else spec.batch_losses
        for label, opts in variants(k):
            with admit_withdrawn():         # withdrawn options are scored as evidence
                _, p, lo, hi = run(T, ntr, nte, level=LEVEL, **opts)
            tr = truth[spec.design]
            # an empty interval (NaN) misses the truth: every repetition is scored
            # where the test gives intervals (TestSpec.gives_interval)
            out[(k, label)] = {"reps": int(len(p)), "rejections": int(np.sum(p < ALPHA)),
                               "intervals": int(len(p)) if spec.gives_interval(**opts) else 0,
                               "covered": int(np.sum((lo <= tr) & (tr <= hi)))}
    return out


# --------------------------------------------------------------------------- running
def run_family(fam: Family, root: str, deadline: Optional[float] = None, jobs: int = 1,
               progress=print) -> int:
    """Run (or resume) a family into the engine's store; returns the
    repetitions done (finished or failed).  ``deadline`` is checked every
    100 repetitions of a learner family, between learner-free families
    (each in one call: every call reads the stored repetitions back);
    learner-free chunks draw at most 600,000 records at a time."""
    cfg = fam.config()
    chunk, step = (max(10, min(500, 600_000 // fam.n)), None) if fam.learner_free else (10, 100)
    while True:
        res = simulate(cfg, fam.reps, out=family_dir(root, fam), resume=True, jobs=jobs,
                       chunk=chunk, stop_after=step)
        done = len(res.reps) + len(res.failures)
        progress(f"{fam.name}: {done}/{fam.reps}")
        if done >= fam.reps or (deadline is not None and time.time() > deadline):
            return done


def run(root: str = RUNS, names: Optional[Sequence[str]] = None, deadline: Optional[float] = None,
        learner_free: Optional[bool] = None, jobs: int = 1, progress=print):
    """Run the families (all, or ``names``; only the learner-free or only
    the learner ones with ``learner_free``) until done or ``deadline``
    (seconds since the epoch).  Resumable: finished work is kept."""
    for fam in FAMILIES:
        if (names and fam.name not in names
                or learner_free is not None and fam.learner_free != learner_free):
            continue
        if deadline is not None and time.time() > deadline:
            break
        run_family(fam, root, deadline, jobs, progress)


# --------------------------------------------------------------------------- scoring
def stored_tables(fam: Family, root: str):
    """Yield ({unit: (r, F, 2, 2)} fold tables (per-fold loss sums under a
    real-valued loss), their seconds) of a family's finished repetitions,
    from its engine store, :data:`SCORE_CHUNK` repetitions at a time."""
    out = family_dir(root, fam)
    if not os.path.exists(os.path.join(out, DB_NAME)):
        return
    st = Store(out, readonly=True)
    try:
        secs = {row[0]: row[1] for row in st.rep_info()}
        reps = sorted(secs)
        for i in range(0, len(reps), SCORE_CHUNK):
            part = reps[i:i + SCORE_CHUNK]
            yield ({u: T.astype(np.int64 if T.dtype.kind in "iu" else float)      # as drawn
                    for u, T in st.tables(part)[1].items()}, float(sum(secs[r] for r in part)))
    finally:
        st.close()


def score_family(fam: Family, root: str) -> Tuple[List[dict], dict]:
    """Rows of results.csv.gz for one family and its run facts."""
    cfg = fam.config()
    counts: Dict[Tuple[str, str], dict] = {}
    R, secs, bcv = 0, 0.0, []
    truth = truths(fam, root) if os.path.isdir(family_dir(root, fam)) else {}
    for tabs, s in stored_tables(fam, root):
        for key, c in count(cfg, tabs, truth).items():
            counts.setdefault(key, Counter()).update(c)      # summed over the chunks
        R, secs = R + len(next(iter(tabs.values()))), secs + s
        bcv += [tabs["bcv5x2"]] if "bcv5x2" in tabs and cfg.zero_one else []
    rows = [{"family": fam.name, "kind": fam.kind, "role": fam.role, "test": k, "variant": lab,
             "truth": truth[TESTS[k].design], **c} for (k, lab), c in counts.items()]
    veff = v_eff(np.concatenate(bcv), fam.n) if bcv else float("nan")
    return rows, {"family": fam.name, "kind": fam.kind, "role": fam.role,
                  "dataset": fam.dataset, "n": fam.n, "reps_target": fam.reps, "reps": R,
                  "seconds": round(secs, 1), "v_eff": veff, "note": fam.note}


def v_eff(T: np.ndarray, n: int) -> float:
    """The variance factor of the 5x2 BCV's error difference over the
    repetitions: 10 N Var(mean fold difference) / mean discordance rate,
    N = n/2 records per fold; the 5x2 BCV McNemar holds its level when
    t <= 10 / v_eff (issue 18)."""
    T = np.asarray(T, float)
    N = T.sum((-1, -2))                                 # (R, F)
    d = ((T[..., 0, 1] - T[..., 1, 0]) / N).mean(-1)    # mean fold difference
    disc = ((T[..., 0, 1] + T[..., 1, 0]) / N).mean()
    return float(10 * N.mean() * d.var(ddof=1) / disc) if disc > 0 else float("nan")


def clopper_pearson(k, n, level: float = 0.95) -> Tuple[float, float]:
    """Exact binomial interval of k successes in n trials."""
    k, n = int(k), int(n)
    if n == 0:
        return float("nan"), float("nan")
    a = (1 - level) / 2
    lo = 0.0 if k == 0 else float(_st.beta.ppf(a, k, n - k + 1))
    hi = 1.0 if k == n else float(_st.beta.ppf(1 - a, k + 1, n - k))
    return lo, hi


def assess(row: dict) -> dict:
    """Rates, Clopper-Pearson intervals and flags of one results.csv.gz row:
    ``type1`` (null families), ``coverage``; ``liberal`` when the type-I
    interval lies entirely above ALPHA, ``undercovers`` when the coverage
    interval lies entirely below LEVEL."""
    out = {}
    R = int(row["reps"])
    if row["kind"] == "null" and R:
        k = int(row["rejections"])
        lo, hi = clopper_pearson(k, R)
        out.update(type1=k / R, type1_lo=lo, type1_hi=hi, liberal=lo > ALPHA)
    m = int(row["intervals"])
    if m:
        c = int(row["covered"])
        lo, hi = clopper_pearson(c, m)
        out.update(coverage=c / m, coverage_lo=lo, coverage_hi=hi, undercovers=hi < LEVEL)
    return out


def score(root: str = RUNS, dest: str = DOCS, progress=print, names=None):
    """Write ``results.csv.gz`` (counts per family, test and variant) and
    ``families.csv`` (repetitions done, seconds, v_eff) into ``dest``.
    ``names``: re-score these families only, keeping the other families'
    rows of the files already in ``dest`` (the same files as a full score
    when their stores are unchanged)."""
    rows, facts = {}, {}
    for fam in FAMILIES:
        if names is None or fam.name in names:
            rows[fam.name], facts[fam.name] = score_family(fam, root)
            progress(f"scored {fam.name}: {facts[fam.name]['reps']} repetitions")
    os.makedirs(dest, exist_ok=True)
    write_gz(_merged(rows, dest, RESULTS, names), os.path.join(dest, RESULTS))
    _merged({k: [f] for k, f in facts.items()}, dest, "families.csv", names).to_csv(
        os.path.join(dest, "families.csv"), index=False, float_format="%.4g")


def _merged(rows: Dict[str, List[dict]], dest: str, name: str, names) -> pd.DataFrame:
    """The rows of every family in FAMILIES order: those just scored, and
    (re-scoring ``names`` only) the others' rows from ``dest/name``."""
    old = read_csv(os.path.join(dest, name)) if names is not None else None
    parts = [pd.DataFrame(rows[f.name]) if f.name in rows else old[old.family == f.name]
             for f in FAMILIES if f.name in rows or old is not None]
    parts = [p for p in parts if len(p)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


# --------------------------------------------------------------------------- RQ1 coverage
#: the committed RQ1 archive (runs/<dataset>/run.npz below it) of the checkout this package is in
RQ1_RUNS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "docs", "replication", "rq1")


def _rq1_experiments(out: str):
    """(data set, learner A, learner B, (R, F, 2, 2) tables, train and test
    sizes, design) of every RQ1 experiment stored under ``out``."""
    for ds, run in rq1.pair_tables(out).items():      # none: a ValueError naming the folder
        cfg = run["config"]
        design = cfg.units()[0][1]
        ntr, nte = DESIGNS[design].sizes(cfg.n)
        for p, (a, b) in enumerate(run["pairs"]):
            yield ds, a, b, run["tables"][:, p], ntr, nte, design


def rq1_coverage(path: str = RQ1_RUNS, dest: str = DOCS, progress=print):
    """Coverage of the 5x2 BCV tests' intervals (every variant) in each of
    RQ1's 441 experiments (21 UCI sets x 21 learner pairs, 300 records, the
    committed archive), at the experiment's own true difference, estimated
    as the mean of the 5x2 BCV estimate (the mean of the ten fold
    differences) over the experiment's repetitions.  Writes
    ``rq1_coverage.csv.gz`` (one row per experiment, test and variant)."""
    rows = []
    for ds, a, b, Tp, ntr, nte, design in _rq1_experiments(path):
        truth = float(differences(Tp).mean())
        for k in [k for k, s in TESTS.items() if s.design == design]:
            for label, opts in variants(k):
                with admit_withdrawn():     # withdrawn options are scored as evidence
                    lo, hi = TESTS[k].batch_interval(Tp, ntr, nte, level=LEVEL, **opts)
                rows.append({"dataset": ds, "A": a, "B": b,
                             "test": k, "variant": label, "truth": truth,
                             "reps": int(len(Tp)),
                             "intervals": int(len(Tp)) if TESTS[k].gives_interval(**opts) else 0,
                             "covered": int(np.sum((lo <= truth) & (truth <= hi)))})
        progress(f"rq1 coverage: {ds} {a}-{b}")
    df = pd.DataFrame(rows)
    write_gz(df, os.path.join(dest, RQ1_COVERAGE))
    return df


def write_gz(df: pd.DataFrame, path: str) -> None:
    """``df`` as a gzipped CSV (a fifth of the bytes or less; mtime 0: the
    same counts give the same file)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(df.to_csv(index=False, float_format="%.6g").encode())


# --------------------------------------------------------------------------- beyond the paper
#: constant t candidates of the 5x2 BCV McNemar (issue 18 step 5), scored from
#: the bcv5x2 fold tables of every family
T_CANDIDATES = (20 / 11, 1.9, 2.0, 2.1, 2.2, 2.3, 2.512)    # 20/11: the paper's, for reference


def candidates(root: str = RUNS, dest: str = DOCS, progress=print, names=None,
               rq1: str = RQ1_RUNS):
    """Type-I / coverage of the 5x2 BCV McNemar at each t of
    :data:`T_CANDIDATES` on every family (from the stored bcv5x2 tables);
    writes ``candidates.csv``, and RQ1's (:func:`rq1_candidates` on the runs
    under ``rq1``, as :func:`rq1_coverage`).  The choice uses the families with role
    "choose" only; the others are held out (README, "Beyond the paper").
    ``names``: as in :func:`score` (RQ1's candidates are then left as they are)."""
    rows: Dict[str, List[dict]] = {}
    spec = TESTS["mcnemar_5x2bcv"]
    for fam in FAMILIES:
        if names is not None and fam.name not in names:
            continue
        parts = [t["bcv5x2"] for t, _ in stored_tables(fam, root) if "bcv5x2" in t]
        if not parts or not fam.config().zero_one:
            continue
        T = np.concatenate(parts)
        truth = truths(fam, root)["bcv5x2"]
        ntr, nte = DESIGNS["bcv5x2"].sizes(fam.n)
        for t in T_CANDIDATES:
            with admit_withdrawn():         # t above the paper's: candidates, scored
                _, p, lo, hi = spec.batch_with_intervals(T, ntr, nte, level=LEVEL, t=t)
            rows.setdefault(fam.name, []).append(
                {"family": fam.name, "kind": fam.kind, "role": fam.role, "t": t,
                 "reps": int(len(p)), "rejections": int(np.sum(p < ALPHA)),
                 "intervals": int(len(lo)), "covered": int(np.sum((lo <= truth) & (truth <= hi)))})
        progress(f"candidates: {fam.name}")
    df = _merged(rows, dest, "candidates.csv", names)
    df.to_csv(os.path.join(dest, "candidates.csv"), index=False)
    if names is None:
        rq1_candidates(rq1, dest)
    return df


def rq1_candidates(path: str = RQ1_RUNS, dest: str = DOCS):
    """Coverage of the 5x2 BCV McNemar interval at each candidate t in RQ1's
    441 experiments (truth as in :func:`rq1_coverage`); writes
    ``candidates_rq1.csv``: per t, the experiments, how many have a
    coverage interval entirely below LEVEL, how many a coverage below it,
    the worst and the median coverage, and the repetitions per experiment
    (fewest, most)."""
    spec = TESTS["mcnemar_5x2bcv"]
    cov = {t: [] for t in T_CANDIDATES}
    hi = {t: [] for t in cov}
    reps = []
    for _, _, _, Tp, ntr, nte, _ in _rq1_experiments(path):
        truth = float(differences(Tp).mean())
        reps.append(len(Tp))
        for t in cov:
            with admit_withdrawn():         # t above the paper's: candidates, scored
                lo_, hi_ = spec.batch_interval(Tp, ntr, nte, level=LEVEL, t=t)
            k = int(np.sum((lo_ <= truth) & (truth <= hi_)))
            cov[t].append(k / len(Tp))
            hi[t].append(clopper_pearson(k, len(Tp))[1])
    rows = [{"t": f"{t:.4g}", "experiments": len(cov[t]),
             "undercover": int(np.sum(np.array(hi[t]) < LEVEL)),
             "below_level": int(np.sum(np.array(cov[t]) < LEVEL)),
             "worst": float(np.min(cov[t])), "median": float(np.median(cov[t])),
             "reps_min": min(reps), "reps_max": max(reps)} for t in cov]
    pd.DataFrame(rows).to_csv(os.path.join(dest, "candidates_rq1.csv"), index=False,
                              float_format="%.4f")


def choose_t(cand) -> Optional[float]:
    """The largest candidate t whose type-I interval's upper end is at most
    ALPHA and whose coverage interval's upper end is at least LEVEL on every
    "choose" family (None if none)."""
    def passes(r):
        a = assess(r)
        return not (r["kind"] == "null" and a["type1_hi"] > ALPHA
                    or a.get("coverage_hi", 1.0) < LEVEL)
    ok = [float(t) for t, g in cand[cand.role == "choose"].groupby("t")
          if all(passes(r) for _, r in g.iterrows())]
    return max(ok) if ok else None


# --------------------------------------------------------------------------- report
WARNINGS = os.path.join(DOCS, "warnings.csv")


def read_warnings(path: str = WARNINGS):
    """The documented warnings: rows (test, variant, family, flag, reason);
    ``variant`` and ``family`` are shell patterns (fnmatch), ``flag`` is
    "liberal" or "undercovers"."""
    w = pd.read_csv(path, dtype=str).fillna("")
    bad = [i for i, r in w.iterrows() if r["flag"] not in ("liberal", "undercovers")
           or not r["reason"].strip()]
    if bad:
        raise ValueError(f"{path}: rows {bad} need flag liberal|undercovers and a reason")
    return w


def warning_for(w, test: str, variant: str, family: str, flag: str) -> Optional[str]:
    """The reason of the documented warning that covers a flag, or None."""
    return next((r["reason"] for _, r in w.iterrows()
                 if r["test"] == test and fnmatchcase(variant, r["variant"])
                 and fnmatchcase(family, r["family"]) and r["flag"] == flag), None)


def read_csv(path: str):
    """A CSV of this folder ("null" is a family kind, not a missing value)."""
    return pd.read_csv(path, keep_default_na=False, na_values=[""], float_precision="round_trip")


def assessed(dest: str = DOCS):
    """results.csv.gz with the rates, intervals and flags of :func:`assess`."""
    df = read_csv(os.path.join(dest, RESULTS))
    extra = pd.DataFrame([assess(r) for _, r in df.iterrows()], index=df.index)
    return pd.concat([df, extra], axis=1)


def flags(dest: str = DOCS, w=None) -> List[dict]:
    """Every flag of the battery (families and RQ1 experiments) with the
    documented reason (None where undocumented)."""
    w = read_warnings(os.path.join(dest, "warnings.csv")) if w is None else w

    def flag(r, family, what):
        return {"test": r["test"], "variant": r["variant"], "family": family, "flag": what,
                "reason": warning_for(w, r["test"], r["variant"], family, what)}
    out = [flag(r, r["family"], what) for _, r in assessed(dest).iterrows()
           for what in ("liberal", "undercovers") if r.get(what) is True]
    path = os.path.join(dest, RQ1_COVERAGE)
    if os.path.exists(path):
        out += [flag(r, f"rq1 {r['dataset']} {r['A']}-{r['B']}", "undercovers")
                for _, r in read_csv(path).iterrows()
                if clopper_pearson(r["covered"], r["intervals"])[1] < LEVEL]
    return out


def _cell(r, value, flag):
    """``r[value]`` with its interval, in bold when ``r[flag]`` ("" when NaN)."""
    if r[value] != r[value]:
        return ""
    s = f"{r[value]:.3f} [{r[value + '_lo']:.3f}, {r[value + '_hi']:.3f}]"
    return f"**{s}** !" if r[flag] else s


def _matrix(df, value, flag, families, rows):
    lines = ["| test | option | " + " | ".join(families) + " |",
             "|---|---|" + "---|" * len(families)]
    for test, variant in rows:
        cells = []
        for f in families:
            r = df[(df.test == test) & (df.variant == variant) & (df.family == f)]
            if r.empty or value not in r or r[value].isna().all():
                cells.append("")
                continue
            cells.append(_cell(r.iloc[0], value, flag))
        lines.append(f"| {TESTS[test].label} | {variant} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot(dest: str = DOCS, name: str = "validity.png"):
    """Two heat maps (default options): type-I error / alpha on the null
    families, coverage on every family; flagged cells are outlined."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import TwoSlopeNorm
    df = assessed(dest)
    d = df[df.variant == "default"]
    tests = [k for k in TESTS if k in set(d.test)]
    fams = [f.name for f in FAMILIES if f.name in set(d.family)]
    nulls = [f for f in fams if FAMILY[f].kind == "null"]
    fig, axes = plt.subplots(1, 2, figsize=(22, 9),
                             gridspec_kw={"width_ratios": [len(nulls), len(fams)]})
    for ax, cols, value, flag, cnorm, cmap, title in (
            (axes[0], nulls, "type1", "liberal", TwoSlopeNorm(ALPHA, 0.0, 0.15), "RdBu_r",
             f"type-I error at alpha = {ALPHA} (red: above alpha)"),
            (axes[1], fams, "coverage", "undercovers", TwoSlopeNorm(LEVEL, 0.80, 1.0), "RdBu",
             f"coverage of the {LEVEL:.0%} interval (red: below {LEVEL})")):
        M = np.full((len(tests), len(cols)), np.nan)
        F = np.zeros_like(M, bool)
        for i, k in enumerate(tests):
            for j, f in enumerate(cols):
                r = d[(d.test == k) & (d.family == f)]
                if not r.empty and value in r and not r[value].isna().all():
                    M[i, j], F[i, j] = r[value].iloc[0], bool(r[flag].iloc[0])
        ax.imshow(np.clip(M, cnorm.vmin, cnorm.vmax), cmap=cmap, norm=cnorm, aspect="auto")
        for i, j in zip(*np.nonzero(M == M)):              # the scored cells, row by row
            ax.text(j, i, f"{M[i, j]:.3f}", ha="center", va="center", fontsize=7,
                    fontweight="bold" if F[i, j] else "normal")
            if F[i, j]:
                ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False,
                                           edgecolor="black", linewidth=2))
        ax.set_xticks(range(len(cols)))
        ax.set_xticklabels(cols, rotation=60, ha="right", fontsize=8)
        ax.set_yticks(range(len(tests)))
        ax.set_yticklabels([TESTS[k].label for k in tests], fontsize=9)
        ax.set_title(title + "; outlined: the 95% interval excludes the target", fontsize=10)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, dpi=90, format="png")
    plt.close(fig)
    from PIL import Image            # matplotlib's own dependency: a 256-colour PNG, 1/3 the bytes
    Image.open(buf).convert("RGB").quantize(256).save(os.path.join(dest, name), optimize=True)
    return name


def _tests_desc(fam: Family) -> str:
    cfg = fam.config()
    pool, what = (TESTS, "all") if cfg.zero_one else (on_losses("all"), "the t, F and z tests")
    left = [TESTS[k].label for k in pool if k not in cfg.tests]
    return what + (" but " + ", ".join(left) if left else "")


def report(dest: str = DOCS, intro: Optional[str] = None) -> str:
    """Write ``README.md`` and the plot into ``dest`` from results.csv.gz,
    families.csv, rq1_coverage.csv.gz, candidates.csv and warnings.csv."""
    df = assessed(dest)
    fams = read_csv(os.path.join(dest, "families.csv"))
    w = read_warnings(os.path.join(dest, "warnings.csv"))
    fl = flags(dest, w)
    plot(dest)
    present = [f.name for f in FAMILIES if f.name in set(df.family)]
    nulls = [f for f in present if FAMILY[f].kind == "null"]
    tests = [k for k in TESTS if k in set(df.test)]
    d = df[df.variant == "default"]
    L = []
    L.append("# The validity battery (issue 18)\n")
    L.append("Generated by `pybcv validity report` from the committed counts in this folder; "
             "the counts come from `pybcv validity run` (long, resumable; stores under "
             "`validity_runs/`, untracked) and `pybcv validity score` (re-scores every option "
             "from the stored fold tables, nothing refitted). Families and options: "
             "`pybcv/validity.py`. The test suite re-scores `results.csv.gz` and "
             "`rq1_coverage.csv.gz` against `warnings.csv` (tests/test_validity.py).\n")
    L.append(f"Type-I error: share of repetitions with p < {ALPHA} where H0 holds by "
             f"construction. Coverage: share of {LEVEL:.0%} intervals containing the true "
             "mu_A - mu_B (0 on the null families). Every rate carries its exact "
             "Clopper-Pearson 95% interval; **bold !** marks a type-I interval entirely above "
             f"{ALPHA} or a coverage interval entirely below {LEVEL}.\n")
    if intro:
        L.append(intro + "\n")
    notes = os.path.join(dest, "notes.md")
    notes_text = open(notes).read().strip() + "\n" if os.path.exists(notes) else ""
    # ---- guide
    L.append("## Which test to use (what the battery shows)\n")
    dd = d[d.kind == "null"]
    hold, near, liberal = [], [], []
    for k in tests:
        g = dd[dd.test == k]
        if g.empty:
            continue
        worst = g.loc[g.type1.idxmax()]
        libs = g[g.liberal == True]  # noqa: E712
        group = liberal if len(libs) else near if worst.type1_hi > ALPHA else hold
        group.append((k, worst, libs))
    L.append(f"**Hold alpha on every null family** (default options; every type-I interval "
             f"at or below {ALPHA}): " + "; ".join(
                 f"{TESTS[k].label} (worst {w_.type1:.3f}, {w_.family})" for k, w_, _ in hold)
             + ".\n")
    L.append("**Near alpha** (some interval reaches above alpha, none lies entirely above "
             "it): " + ("; ".join(f"{TESTS[k].label} (worst {w_.type1:.3f} "
                                   f"[{w_.type1_lo:.3f}, {w_.type1_hi:.3f}], {w_.family})"
                                   for k, w_, _ in near) or "none") + ".\n")
    L.append("**Liberal** (a type-I interval entirely above alpha): " + ("; ".join(
        f"{TESTS[k].label} on {len(libs)} of {int((dd.test == k).sum())} null families "
        f"(worst {w_.type1:.3f}, {w_.family})" for k, w_, libs in liberal) or "none") + ".\n")
    under = []
    for k in tests:
        g = d[(d.test == k) & d.coverage.notna()]
        u = g[g.undercovers == True]  # noqa: E712
        if len(u):
            worst = g.loc[g.coverage.idxmin()]
            under.append(f"{TESTS[k].label} on {len(u)} of {len(g)} families (worst "
                         f"{worst.coverage:.3f}, {worst.family})")
    L.append("**Intervals that under-cover** (default options): " + ("; ".join(under) or "none")
             + ".\n")
    if notes_text:
        L.append(notes_text)
    # ---- families
    L += ["## Families\n",
          "| family | kind | role | tests | repetitions | run time | v_eff | what |",
          "|---|---|---|---|---:|---:|---:|---|"]
    for _, r in fams.iterrows():
        reps = f"{int(r.reps):,}" + ("" if r.reps >= r.reps_target else
                                      f" of {int(r.reps_target):,}")
        took = f"{r.seconds / 60:.1f} min" if r.seconds >= 60 else f"{r.seconds:.0f} s"
        L.append(f"| {r.family} | {r.kind} | {r.role} | {_tests_desc(FAMILY[r.family])} | {reps} | "
                 f"{took} | {r.v_eff:.2f} | {r.note} |")
    L.append("\nv_eff = 10 N Var(mean fold difference) / mean discordance rate over the "
             "family's 5x2 BCV tables (N = n/2): the 5x2 BCV McNemar with factor t holds "
             "its level roughly when t <= 10 / v_eff (the paper's t = 20/11 needs "
             "v_eff <= 5.5). Run time: the sum of the repetitions' seconds (one core, "
             "shared with other work; learner-free families: drawing and scoring the "
             "tables).\n")
    # ---- tables
    rows = [(k, "default") for k in tests]
    L += ["## Type-I error, default options\n", _matrix(d, "type1", "liberal", nulls, rows),
          "## Coverage, default options\n", _matrix(d, "coverage", "undercovers", present, rows)]
    lossy = [f for f in present if FAMILY[f].loss != "zero_one"]
    if lossy:
        rows = [(k, "default") for k in tests if k in on_losses("all")]
        L.append("## Real-valued losses (issue 21)\n")
        L.append("The t, F and z tests on per-fold loss sums (`RunConfig(loss=...)`: squared, "
                 "absolute, a cost matrix), default options; every option of these tests is "
                 "in the option tables below. Type-I error:\n")
        L += [_matrix(d, "type1", "liberal", [f for f in lossy if f in nulls], rows),
              "Coverage of the 95% interval (truth 0):\n",
              _matrix(d, "coverage", "undercovers", lossy, rows)]
    rows = [(k, v) for k in tests for v, _ in variants(k) if v != "default"]
    L += ["## Options: type-I error\n", _matrix(df, "type1", "liberal", nulls, rows),
          "## Options: coverage\n", _matrix(df, "coverage", "undercovers", present, rows),
          "![type-I error and coverage per test and family](validity.png)\n"]
    # ---- RQ1
    path = os.path.join(dest, RQ1_COVERAGE)
    if os.path.exists(path):
        q = read_csv(path)
        q["cov"] = q.covered / q.intervals
        q["hi"] = [clopper_pearson(c, m)[1] for c, m in zip(q.covered, q.intervals)]
        L.append("## RQ1's 441 experiments at their own true difference\n")
        L.append("RQ1's runs (21 UCI sets x 21 learner pairs, "
                 f"{int(q.reps.min())}-{int(q.reps.max())} repetitions of a 5x2 BCV on 300 "
                 "records each: the committed archive `docs/replication/rq1/runs/*/run.npz` holds "
                 "1,000; more come from `pybcv rq1 run --out FOLDER --reps N` on a copy of it, "
                 "scored with `pybcv validity score --rq1 FOLDER`) give the intervals of the 5x2 "
                 "BCV tests. "
                 "True difference used: each experiment's mean of the 5x2 BCV estimate (the "
                 "mean of the ten fold differences) over its own repetitions -- the expected "
                 "error difference at training size 150 on records drawn from that UCI set, "
                 "estimated with a standard error about 1/sqrt(reps) of one repetition's "
                 "spread (it leans the coverage slightly upwards).\n")
        L.append("| test | option | experiments | coverage interval below 0.95 | "
                 "coverage < 0.95 | worst | median |")
        L.append("|---|---|---:|---:|---:|---:|---:|")
        for (k, v), g in q.groupby(["test", "variant"], sort=False):
            if not g["intervals"].any():        # a variant without an interval (exact=True)
                continue
            L.append(f"| {TESTS[k].label} | {v} | {len(g)} | {int((g.hi < LEVEL).sum())} | "
                     f"{int((g['cov'] < LEVEL).sum())} | {g['cov'].min():.3f} | "
                     f"{g['cov'].median():.3f} |")
        L.append("")
    # ---- beyond the paper
    path = os.path.join(dest, "candidates.csv")
    if os.path.exists(path):
        c = read_csv(path)
        L.append("## Beyond the paper: a larger t for the 5x2 BCV McNemar?\n")
        chosen = choose_t(c)
        L.append(f"Candidates t = {', '.join(f'{t:.4g}' for t in T_CANDIDATES)} (the paper: "
                 f"20/11 = 1.818; power: the rejection rate on the coverage families). Rule, fixed before looking at the held-out families: the "
                 f"largest t whose type-I interval's upper end is at most {ALPHA} and whose "
                 f"coverage interval reaches {LEVEL} on every *choose* family "
                 f"({', '.join(sorted(set(c[c.role == 'choose'].family)))}); then every "
                 f"other family is a check.\n")
        L.append(f"Chosen on the choose families: **t = {chosen}**.\n" if chosen else
                 "No candidate passes on the choose families.\n")
        L.append("| family | role | v_eff | " + " | ".join(f"t = {t:.4g}" for t in T_CANDIDATES)
                 + " |")
        L.append("|---|---|---:|" + "---|" * len(T_CANDIDATES))
        veff = dict(zip(fams.family, fams.v_eff))
        for f in [x for x in present if x in set(c.family)]:
            g = c[c.family == f]
            rs = [g[np.isclose(g.t, t)].iloc[0] for t in T_CANDIDATES]
            cells = [_cell(assess(r), "type1", "liberal") if r["kind"] == "null" else
                     f"power {r['rejections'] / r['reps']:.3f}; cov "
                     + _cell(assess(r), "coverage", "undercovers") for r in rs]
            L.append(f"| {f} | {g.role.iloc[0]} | {veff.get(f, float('nan')):.2f} | "
                     + " | ".join(cells) + " |")
        L.append("")
        if chosen:
            held = c[(c.role != "choose") & (c.t == chosen)]
            bad = [r.family for _, r in held.iterrows()
                   if assess(r).get("liberal") or assess(r).get("undercovers")]
            L.append(f"Held out, t = {chosen} is flagged on: "
                     + (", ".join(bad) if bad else "no family") + ".\n")
        path = os.path.join(dest, "candidates_rq1.csv")
        if os.path.exists(path):
            q = read_csv(path)
            each = (f"; {int(q.reps_min.min()):,}-{int(q.reps_max.max()):,} repetitions each"
                    if "reps_min" in q else "")
            L.append("Coverage of the 5x2 BCV McNemar interval in RQ1's experiments (held out; "
                     f"truth as in the RQ1 section{each}):\n")
            L.append("| t | experiments | coverage interval below 0.95 | coverage < 0.95 | "
                     "worst | median |")
            L.append("|---|---:|---:|---:|---:|---:|")
            for _, r in q.iterrows():
                L.append(f"| {r['t']} | {int(r['experiments'])} | {int(r['undercover'])} | "
                         f"{int(r['below_level'])} | {r['worst']:.3f} | {r['median']:.3f} |")
            L.append("")
    # ---- flags
    L += ["## Flags and their documented warnings\n",
          "Every flag must be covered by a row of `warnings.csv` (test, option, family "
          "pattern, reason); tests/test_validity.py fails otherwise.\n",
          "| test | option | family | flag | documented reason |", "|---|---|---|---|---|"]
    groups: Dict[tuple, List[str]] = {}
    for f in fl:
        groups.setdefault((f["test"], f["variant"], f["flag"], f["reason"] or "UNDOCUMENTED"),
                          []).append(f["family"])
    for (k, v, flag, reason), fs in groups.items():
        shown = ", ".join(fs[:6]) + (f", ... ({len(fs)} in all)" if len(fs) > 6 else "")
        L.append(f"| {TESTS[k].label} | {v} | {shown} | {flag} | {reason} |")
    text = "\n".join(L) + "\n"
    with open(os.path.join(dest, "README.md"), "w") as fh:
        fh.write(text)
    return text
