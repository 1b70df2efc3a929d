"""Side experiment for the letter column: does R tree's random tie-breaking
(``predict(type = "class")``, what a plain R script gets) change the naive
K-fold McNemar test's type-I error?

Same data sets and 10-fold partitions as ``runs/letter_typeI`` (seed 4), B =
FNN(upsilon = 30.09) as there; A = R ``tree`` predicted two ways: the first
class of maximal probability (pybcv's R learner, deterministic) and
``predict(type = "class")`` (ties broken at random; ``set.seed(r)`` per
repetition).  Prints the rejection rates of the naive K-fold McNemar test
(T16) and the K-fold CV-CI z (T14) for both.

    PYTHONPATH=. .venv/bin/python docs/replication/letter_tree_ties.py [reps]
"""
import sys
import warnings

import numpy as np

from pybcv.engine import RunConfig
from pybcv.pipeline import learner_from_spec as make
from pybcv.outcomes import tables_from_predictions
from pybcv.partitions import DESIGNS
from pybcv.stats import TESTS

warnings.simplefilter("ignore")
reps = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
cfg = RunConfig("letter", "table5", seed=4, backend="r")

import rpy2.robjects as ro  # noqa: E402
from rpy2.robjects import numpy2ri  # noqa: E402

ro.r("""
tree_two_ways <- function(X, y, tr, te, seed) {
  df <- data.frame(X); df$y <- factor(y)
  train <- df[tr, , drop = FALSE]; train$y <- droplevels(train$y)
  m <- tree::tree(y ~ ., data = train)
  pr <- predict(m, newdata = df[te, , drop = FALSE], type = "vector")
  pr <- matrix(pr, nrow = length(te))
  first <- levels(train$y)[max.col(pr, ties.method = "first")]
  set.seed(seed)
  rnd <- as.character(predict(m, newdata = df[te, , drop = FALSE], type = "class"))
  nties <- sum(apply(pr, 1, function(p) sum(p == max(p)) > 1))
  list(first = first, random = rnd, ties = nties)
}
""")
f = ro.globalenv["tree_two_ways"]
fnn = make({"name": "fnn-distorted", "upsilon": 30.09}, "python")
ntr, nte = DESIGNS["cv10"].sizes(300)
out = {"first": [], "random": []}
ties = 0
for r in range(reps):
    d = cfg.dataset_for(r)
    sp = DESIGNS["cv10"].splits(d.n, cfg.unit_rng(r, "cv10"))
    pb = fnn.predict_splits(d.X, d.y, sp)
    pa = {"first": [], "random": []}
    with (ro.default_converter + numpy2ri.converter).context():
        for k, (tr, te) in enumerate(sp):
            res = f(d.X, ro.StrVector(d.y), ro.IntVector(tr + 1), ro.IntVector(te + 1), r * 100 + k)
            pa["first"].append(np.asarray(res["first"], dtype=str))
            pa["random"].append(np.asarray(res["random"], dtype=str))
            ties += int(np.asarray(res["ties"]).ravel()[0])
    for how in out:
        out[how].append(tables_from_predictions(d.y, pa[how], pb, sp))
    if (r + 1) % 100 == 0:
        print(f"{r + 1} reps", file=sys.stderr, flush=True)
print(f"letter, {reps} repetitions; test records whose tree class probabilities tie: "
      f"{ties / (reps * 300):.3f}")
for how, tabs in out.items():
    C = np.stack(tabs)
    line = []
    for k, opts in (("mcnemar_kfold_naive", {}), ("mcnemar_kfold_naive", {"empty_fold": "drop"}),
                    ("cvci_z", {}), ("cvci_z", {"alternative": "less"})):
        _, p = TESTS[k].batch(C, ntr, nte, **opts)
        line.append(f"{k}{opts or ''}: {np.mean(p < 0.05):.3f}")
    print(f"tree ties -> {how:6s}: " + "; ".join(line))
