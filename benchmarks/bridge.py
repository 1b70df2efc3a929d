"""Fits per second through r_bridge against the loops that limit them.

Weka learners (J48, J48 -U, JRip, SMO, Logistic): the bridge (one call per
design; the folds run inside the JVM, R/inst/weka_jvm.R + java/src) against
a plain Java loop over RWeka's own weka.jar (``pybcv.WekaLoop``, the same fits
on the same data and splits, timed inside the JVM), and, for contrast, the
two older R paths of batch.R: its R loop with Java-side row selection
(``jvm = FALSE``) and RWeka's own interface ``fun(y ~ ., d[tr, ])`` +
``predict`` (``fast = FALSE``).  The predictions of the bridge, the Java loop
and RWeka's interface are compared (identical = every prediction equal).

R learners (kknn k = 5 triangular, tree, glm): the bridge against a plain
``Rscript`` loop calling the R function directly (``kknn(...)``,
``tree(...)`` + ``predict(type = "class")``, ``glm(..., binomial)`` +
``predict(type = "response") > 0.5``), timed inside R.

Workload (EXP6-like): n = 300 records, 2 numeric predictors on [0, 15]^2, 6
classes (2 for glm); the 10 fits of a 5x2 half/half design per data set;
``--reps`` data sets (default 20), each new, so every data set is sent once.
Untimed warm-up designs (JIT steady state, as in a long simulation): the
bridge's JVM first runs twenty designs of each of the five Weka learners; the
Java loop, a new JVM per learner, runs sixty designs; five for the other ways;
the bridge and the Java loop report the fastest of three timed passes (the
machine is shared).  The ratio is Java-loop ms/fit over bridge ms/fit (1 = Java speed).

Run:  .venv/bin/python benchmarks/bridge.py [--reps 20] [--out benchmarks/bridge_results.md]
(needs ``bash scripts/setup.sh`` to have built R/inst/java/pybcv-weka.jar from java/src).
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

N = 300
WARMUP = 5            # untimed designs before timing (R learners, older Weka paths)
JAVA_WARMUP = 60      # bridge of the Weka learners (each learner): JIT steady state, as the Java loop gets
LOOP_WARMUP = 60      # the Java loop (a new JVM per learner): the anchor at its best
PASSES = 3            # timed passes of the bridge and the Java loop; the fastest counts (= WekaLoop.PASSES)
# (label, registry name, Weka class, options)
WEKA = [("J48", "J48", "weka.classifiers.trees.J48", []),
        ("J48 -U", "J48-unpruned", "weka.classifiers.trees.J48", ["-U"]),
        ("JRip", "JRip", "weka.classifiers.rules.JRip", []),
        ("SMO", "SMO", "weka.classifiers.functions.SMO", []),
        ("Logistic", "Logistic", "weka.classifiers.functions.Logistic", [])]
R_LEARNERS = ["kknn", "tree", "glm"]


def exp6_like(rng, n=N, two_class=False):
    X = rng.uniform(0, 15, size=(n, 2))
    x1, x2 = X[:, 0], X[:, 1]
    noise = rng.normal(scale=0.8, size=n)
    if two_class:
        y = (x2 + noise > 4 * np.sin(x1 / 2) + 8).astype(np.int64) + 1
    else:
        y = np.select([x2 + noise < x1 ** 2 / 15 + 1, x2 + noise < 4 * np.sin(x1 / 2) + 6,
                       x1 + noise < 4, x1 + noise < 8, x2 + noise < 12], [1, 2, 3, 4, 5], 6)
    return X, y.astype(np.int64)


def design(rng, n=N):
    out = []
    for _ in range(5):
        p = rng.permutation(n)
        a, b = np.sort(p[: n // 2]), np.sort(p[n // 2:])
        out += [(a, b), (b, a)]
    return out


def workload(reps, rng, two_class=False):
    return [(*exp6_like(rng, two_class=two_class), design(rng)) for _ in range(reps + 1)]


def timed(fn, sets, passes=PASSES, warmup=WARMUP):
    """Seconds for fn over sets[1:] (the fastest of ``passes`` passes) after
    ``warmup`` untimed runs on sets[0]; predictions."""
    for _ in range(warmup):
        fn(*sets[0])
    best, best_cpu = float("inf"), float("inf")
    for _ in range(passes):
        c, t = time.process_time(), time.perf_counter()
        preds = [fn(*s) for s in sets[1:]]
        best = min(best, time.perf_counter() - t)
        best_cpu = min(best_cpu, time.process_time() - c)
    return (best, best_cpu), preds


# --------------------------------------------------------------------- Weka
def weka_jar():
    return subprocess.run(["Rscript", "-e", 'cat(system.file("java", "weka.jar", package = "RWekajars"))'],
                          capture_output=True, text=True, check=True).stdout.strip()


def write_java_sets(d, sets):
    for i, (X, y, splits) in enumerate(sets):
        lev = np.unique(y)
        with open(os.path.join(d, f"set_{i:04d}.arff"), "w") as fh:
            fh.write("@relation R_data_frame\n@attribute y {" + ",".join(map(str, lev)) + "}\n")
            for j in range(X.shape[1]):
                fh.write(f"@attribute x{j + 1} numeric\n")
            fh.write("@data\n")
            for yi, row in zip(y, X):
                fh.write(str(yi) + "," + ",".join(f"{v:.17g}" for v in row) + "\n")
        with open(os.path.join(d, f"set_{i:04d}.splits"), "w") as fh:
            for tr, te in splits:
                fh.write(" ".join(map(str, tr)) + "\n" + " ".join(map(str, te)) + "\n")


def java_loop(d, cls, opts, sets):
    cp = weka_jar() + os.pathsep + os.path.join(ROOT, "R", "inst", "java", "pybcv-weka.jar")
    res = subprocess.run(["java", "-cp", cp, "pybcv.WekaLoop", d, str(LOOP_WARMUP), cls, *opts],
                         capture_output=True, text=True, check=True)
    out = res.stdout.split()
    sec = (float(out[3]), float(out[5]))
    tag = cls.rsplit(".", 1)[1] + "".join(opts)
    with open(os.path.join(d, f"pred_{tag}.txt")) as fh:
        lines = [np.array(line.split(), dtype=np.int64) for line in fh]
    preds, k = [], 0
    for X, y, splits in sets[1:]:
        lev = np.unique(y)
        preds.append([lev[lines[k + f]] for f in range(len(splits))])
        k += len(splits)
    return sec, preds


def same(p, q):
    return all(np.array_equal(a, b) for s, t in zip(p, q) for a, b in zip(s, t))


def bench_weka(reps, rng):
    import r_bridge
    from pybcv.learners import make_learner
    sets = workload(reps, rng)
    rows = []
    with tempfile.TemporaryDirectory() as d:
        write_java_sets(d, sets)
        for _, name, _, _ in WEKA:        # the R session's JVM: every learner's code JIT-compiled
            lrn = make_learner(name, backend="r")
            for _ in range(JAVA_WARMUP):
                lrn.predict_splits(*sets[0])
        for label, name, cls, opts in WEKA:
            lrn = make_learner(name, backend="r")
            tb, pb = timed(lambda X, y, s: lrn.predict_splits(X, y, s), sets, PASSES, JAVA_WARMUP)
            tj, pj = java_loop(d, cls, opts, sets)
            rname = "J48" if name == "J48-unpruned" else name
            to, _ = timed(lambda X, y, s: r_bridge.predict_splits(
                rname, X, y, s, {"options": opts, "jvm": False}, ("RWeka",)), sets, 1)
            tr, pr = timed(lambda X, y, s: r_bridge.predict_splits(
                rname, X, y, s, {"options": opts, "fast": False}, ("RWeka",)), sets, 1)
            rows.append((label, tb, tj, to, tr, same(pb, pj), same(pb, pr)))
            print(rows[-1], flush=True)
    return rows, 10 * reps


# --------------------------------------------------------------------- R learners
R_SCRIPT = r"""
args <- commandArgs(TRUE)
dir <- args[1]; learners <- strsplit(args[2], ",")[[1]]; warmup <- as.integer(args[3])
suppressPackageStartupMessages({library(kknn); library(tree)})
fit_predict <- function(learner, train, test) {
  if (learner == "kknn") {
    kknn(y ~ ., train, test, k = 5, kernel = "triangular")$fitted.values
  } else if (learner == "tree") {
    predict(tree(y ~ ., data = train), test, type = "class")
  } else {
    m <- suppressWarnings(glm(y ~ ., family = binomial, data = train))
    levels(train$y)[1L + (predict(m, test, type = "response") > 0.5)]
  }
}
for (learner in learners) {
  files <- sort(list.files(dir, pattern = paste0("^", learner, "_[0-9]+_data.csv$"), full.names = TRUE))
  sets <- lapply(files, function(f) {
    d <- read.csv(f); d$y <- factor(d$y)
    list(d = d, s = read.csv(sub("_data.csv$", "_splits.csv", f)))
  })
  run <- function(set) {
    d <- set$d; s <- set$s
    for (k in seq_len(max(s$fold))) {
      train <- d[s$row[s$fold == k & s$part == "train"], , drop = FALSE]
      train$y <- droplevels(train$y)
      p <- fit_predict(learner, train, d[s$row[s$fold == k & s$part == "test"], , drop = FALSE])
    }
  }
  for (w in seq_len(warmup)) run(sets[[1]])
  t0 <- proc.time()
  for (i in seq_along(sets)[-1]) run(sets[[i]])
  d <- proc.time() - t0
  cat(learner, d[["elapsed"]], d[["user.self"]] + d[["sys.self"]], "\n")
}
"""


def bench_r(reps, rng):
    from pybcv.learners import make_learner
    work = {name: workload(reps, rng, two_class=(name == "glm")) for name in R_LEARNERS}
    with tempfile.TemporaryDirectory() as d:
        for name, sets in work.items():
            for i, (X, y, splits) in enumerate(sets):
                stem = os.path.join(d, f"{name}_{i:04d}")
                np.savetxt(stem + "_data.csv", np.column_stack([X, y]), delimiter=",",
                           header="x1,x2,y", comments="", fmt=["%.17g", "%.17g", "%d"])
                with open(stem + "_splits.csv", "w") as fh:
                    fh.write("fold,part,row\n")
                    for k, (tr, te) in enumerate(splits, 1):
                        fh.writelines(f"{k},train,{r + 1}\n" for r in tr)
                        fh.writelines(f"{k},test,{r + 1}\n" for r in te)
        script = os.path.join(d, "loop.R")
        with open(script, "w") as fh:
            fh.write(R_SCRIPT)
        res = subprocess.run(["Rscript", script, d, ",".join(R_LEARNERS), str(WARMUP)],
                             capture_output=True, text=True, check=True)
    tr = {p[0]: (float(p[1]), float(p[2])) for p in (ln.split() for ln in res.stdout.splitlines())
          if len(p) == 3}
    rows = []
    for name in R_LEARNERS:
        lrn = make_learner(name, backend="r")
        tb, _ = timed(lambda X, y, s: lrn.predict_splits(X, y, s), work[name], 1)
        rows.append((name, tb, tr[name]))
        print(rows[-1], flush=True)
    return rows, 10 * reps


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(HERE, "bridge_results.md"))
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    wrows, nfits = bench_weka(args.reps, rng)
    rrows, _ = bench_r(args.reps, rng)
    ms = lambda t: 1000 * t / nfits  # noqa: E731
    lines = ["| learner | bridge ms/fit (CPU) | Java loop ms/fit (CPU) | ratio, CPU | "
             "bridge ms/fit (wall) | Java loop ms/fit (wall) | ratio, wall | batch.R R loop "
             "(jvm = FALSE) ms/fit (wall) | RWeka interface ms/fit (wall) | bridge = Java loop "
             "| bridge = RWeka |", "|" + "---|" * 11]
    for label, tb, tj, to, tr, s1, s2 in wrows:
        lines.append(f"| {label} | {ms(tb[1]):.3f} | {ms(tj[1]):.3f} | {tj[1] / tb[1]:.2f} "
                     f"| {ms(tb[0]):.3f} | {ms(tj[0]):.3f} | {tj[0] / tb[0]:.2f} | {ms(to[0]):.3f} "
                     f"| {ms(tr[0]):.2f} | {'yes' if s1 else 'NO'} | {'yes' if s2 else 'NO'} |")
    weka_table = "\n".join(lines)
    lines = ["| learner | bridge ms/fit (CPU) | plain Rscript loop ms/fit (CPU) | ratio, CPU "
             "| bridge ms/fit (wall) | plain Rscript loop ms/fit (wall) | ratio, wall |",
             "|" + "---|" * 7]
    for name, tb, tr in rrows:
        lines.append(f"| {name} | {ms(tb[1]):.2f} | {ms(tr[1]):.2f} | {tr[1] / tb[1]:.2f} "
                     f"| {ms(tb[0]):.2f} | {ms(tr[0]):.2f} | {tr[0] / tb[0]:.2f} |")
    r_table = "\n".join(lines)
    print(weka_table + "\n\n" + r_table)
    rver = subprocess.run(["Rscript", "-e", "cat(R.version.string)"], capture_output=True,
                          text=True).stdout.strip()
    jver = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    md = f"""# r_bridge benchmark

Command: `.venv/bin/python benchmarks/bridge.py --reps {args.reps} --seed {args.seed}`

Workload: EXP6-like data, n = {N}, 2 numeric predictors, 6 classes (2 for
glm); the 10 fits of a 5x2 half/half design per data set; {args.reps} data sets
({nfits} fits per learner and way) after untimed warm-up designs ({JAVA_WARMUP} of every
Weka learner in the bridge's JVM, {LOOP_WARMUP} in each Java loop's new JVM, {WARMUP} for
the other ways); bridge and Java loop: the fastest of {PASSES} timed passes; the
other ways: one pass.  A fit
is fit + prediction of the 150 test records.  All columns come from one run.

## Weka learners: bridge against a plain Java loop

{weka_table}

- "bridge": `make_learner(name, backend="r").predict_splits` -- Python, rpy2,
  `run_batch` in R, which hands the whole design to `pybcv.WekaBatch`
  (java/src, built by scripts/setup.sh): the data set is sent to the JVM once
  and every fold is trained and predicted there.
- "Java loop": `pybcv.WekaLoop` (java/src), a plain Weka loop run with
  `java -cp weka.jar:R/inst/java/pybcv-weka.jar` on the same data (ARFF) and splits: new
  training Instances, new classifier, `buildClassifier`, `classifyInstance`;
  timed inside the JVM, start-up and reading excluded.
- ratio = Java-loop ms/fit / bridge ms/fit (target >= 0.7).  "CPU": CPU
  seconds of the whole process over the timed pass (Python, R and the JVM
  with its JIT and GC threads for the bridge; the JVM process for the Java
  loop), the measure that the other jobs on this shared 2-core machine
  disturb least; "wall": elapsed time, which they disturb a lot.
- Contrast: the previous batch.R path (`jvm = FALSE`: R loop, rows
  selected in Java by RemoveRange) and RWeka's own interface
  (`fast = FALSE`: `fun(y ~ ., data = d[tr, ])` + `predict`).
- "bridge = ...": every prediction of every fold equal.

## R learners: bridge against a plain R loop

{r_table}

- "plain Rscript loop": a separate `Rscript` process timing its own loop:
  `kknn(y ~ ., train, test, k = 5, kernel = "triangular")`,
  `tree(y ~ ., train)` + `predict(type = "class")`,
  `glm(y ~ ., binomial)` + `predict(type = "response") > 0.5`.
- ratio > 1: the bridge is faster than the plain R loop (batch.R's glm calls
  `glm.fit` on a model matrix built once per data set).

Machine: {platform.machine()}, {os.cpu_count()} CPUs shared with other jobs
(load average {os.getloadavg()[0]:.1f} at the end), Python {platform.python_version()},
{rver}, {jver}.  Repeat runs vary by about +-15 %.
"""
    with open(args.out, "w") as fh:
        fh.write(md)
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
