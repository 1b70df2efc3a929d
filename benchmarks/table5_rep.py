"""The bridge against plain loops on whole Table-5 repetitions (issue 23, item 1).

A Table-5 repetition fits each learner on the union of the designs of the
paper's Table-5 tests (``pybcv.stats.designs_for(TABLE5_TESTS)``, drawn with
``RunConfig.units`` / ``unit_rng`` and ``pipeline.draw_splits`` exactly as the
engine draws repetition r): 167 mixed splits at any n (RHO 2/3, 10-fold, 5x2,
RHO 9/10, 10x10-fold, 3x2 BCV, 5x2 BCV, hold-out).  The engine sends all of
them to a learner in ONE ``predict_splits`` call (``pipeline.predict_designs``,
``one_batch=True``); for an R learner that is one call into R
(``r_bridge.predict_splits`` -> ``batch.R run_batch``) and, for a Weka
learner, one call into the JVM (``pybcv.WekaBatch.run``): the data set crosses
once, the indices go as one int32 vector, the predictions come back as one
int32 vector of class codes.

Three ways, each in a fresh process, run one after the other inside every
round (interleaved), ``--runs`` rounds:

* bridge: ``python benchmarks/table5_rep.py --worker DIR LEARNER ...`` --
  Python -> rpy2 -> R -> (Java), ``pipeline.predict_designs`` per repetition;
* Java loop (Weka learners): ``java -Xmx512m -cp weka.jar:pybcv-weka.jar
  pybcv.WekaLoop`` over the same weka.jar, data (ARFF) and splits, with
  the heap RWeka gives the bridge's JVM (512 MB);
* R loop (kknn, tree, glm): ``Rscript`` running a plain loop of the R
  functions over the same data (CSV) and splits.

Warm-up is the same for every way: each process first runs ``--warmup``
untimed repetitions (set 0), then ``PASSES`` timed passes over the timed
repetitions (sets 1..reps); the fastest pass counts, for wall time and, separately,
for the CPU time of the whole process (all its threads: the JVM's JIT and GC
threads included, R and Python for the bridge).  Process start-up, reading
files and starting R / the JVM are outside the timed passes on both sides.
Every prediction of the bridge is asserted equal to the loop's.

Cases: ``exp6`` (EXP6, n = 300, 6 classes: the Weka learners, kknn, tree),
``simple300`` (the simple experiment's data at n = 300, 2 classes: glm, a
2-class learner), ``wave`` (UCI wave, 5,000 rows, 40 predictors, 3 classes)
``twonorm`` (UCI twonorm, 7,400 rows, 2 classes: glm) and ``wave-bcv`` (wave,
JRip, SMO and Logistic on the repetition's 5x2 BCV splits only: 10 fits on
2,500 training rows instead of 167, hours per round otherwise); on the UCI
sets the records are the whole file and each repetition draws new splits.

Run:  .venv/bin/python benchmarks/table5_rep.py [--runs 3] [--cases exp6,simple300]
      [--learners J48,JRip] [--out benchmarks/table5_rep_results.md]
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from rounds import fmt3, machine, parser, report, stamp  # noqa: E402

PASSES = 3            # timed passes (WekaLoop: -Dpybcv.passes), the fastest counts
JAVA_HEAP = "-Xmx512m"  # RWeka's heap for the JVM in R (its default java.parameters)
# label -> (registry name, Weka class and options | None for an R learner)
LEARNERS = {
    "J48": ("J48", "weka.classifiers.trees.J48", []),
    "J48 -U": ("J48-unpruned", "weka.classifiers.trees.J48", ["-U"]),
    "JRip": ("JRip", "weka.classifiers.rules.JRip", []),
    "SMO": ("SMO", "weka.classifiers.functions.SMO", []),
    "Logistic": ("Logistic", "weka.classifiers.functions.Logistic", []),
    "kknn": ("kknn", None, None),
    "tree": ("tree", None, None),
    "glm": ("glm", None, None),
}
# case -> (learners, timed repetitions, warm-up repetitions, timed passes); a
# case's learners are limited to those whose fits suit its classes.  On the
# UCI sets one repetition is 167 fits on 4,500-6,660 training rows, long
# enough for the JIT to warm up inside it: no warm-up repetition, one pass.
CASES = {
    "exp6": (["J48", "J48 -U", "JRip", "SMO", "Logistic", "kknn", "tree"], 5, 5, PASSES),
    "simple300": (["glm"], 5, 5, PASSES),
    "wave": (["J48", "J48 -U", "kknn", "tree"], 1, 0, 1),
    "twonorm": (["glm"], 1, 0, 1),
    "wave-bcv": (["JRip", "SMO", "Logistic"], 1, 0, 1),
    # the same three on the whole 167-split repetition of wave: about 30 min
    # of CPU per round on this machine (JRip most), so not in the default cases
    "wave-heavy": (["JRip", "SMO", "Logistic"], 1, 0, 1),
}
# cases that fit only some units of the repetition: wave-bcv, the learners
# whose 167 fits on wave would take hours per round, on the 10 splits of the
# repetition's 5x2 BCV design (per fit the same workload: 2,500 training rows)
ONLY = {"wave-bcv": ("bcv5x2",)}
# (case, learner) -> (timed repetitions, warm-up repetitions, passes) where a
# fit is costly: SMO (about 10x J48's time per fit on EXP6)
HEAVY = {("exp6", "SMO"): (2, 2, 2)}


# ------------------------------------------------------------------ workload
def table5_units():
    from pybcv.engine import RunConfig
    cfg = RunConfig("exp6", "table5")
    return cfg, dict(cfg.units())


def case_sets(case, count):
    """[(X, y, {design: splits})] of repetitions 0..count-1 of ``case``."""
    from pybcv import datasets
    from pybcv.pipeline import draw_splits
    cfg, units = table5_units()
    units = {u: d for u, d in units.items() if u in ONLY.get(case, units)}
    out = []
    for r in range(count):
        if case == "exp6":
            d = cfg.dataset_for(r)
            X, y = np.asarray(d.X, float), np.asarray(d.y)
        elif case == "simple300":
            d = datasets.make_dataset("simple", seeds_for(cfg, r), n=300)
            X, y = np.asarray(d.X, float), np.asarray(d.y)
        else:
            X, y = datasets.uci_population(case.split("-")[0])
            X, y = np.asarray(X, float), np.asarray(y)
        out.append((X, y, draw_splits(len(y), units, {u: cfg.unit_rng(r, u) for u in units})))
    return out


def seeds_for(cfg, r):
    from pybcv import seeds
    return seeds.data_seq(cfg.seed, r)


def n_splits(sets):
    return sum(len(s) for s in sets[0][2].values())


def write_sets(d, sets):
    """set_NNNN.npz (bridge), .arff + .splits (WekaLoop), _data.csv +
    _splits.csv (R loop); class levels in sorted order (numpy.unique), as
    the bridge sends them."""
    for i, (X, y, splits) in enumerate(sets):
        stem = os.path.join(d, f"set_{i:04d}")
        lev = np.unique(y.astype(str))
        flat = [sp for u in splits for sp in splits[u]]
        np.savez(stem + ".npz", X=X, y=y, names=np.array(list(splits)),
                 counts=np.array([len(splits[u]) for u in splits]),
                 **{f"tr{k}": tr for k, (tr, _) in enumerate(flat)},
                 **{f"te{k}": te for k, (_, te) in enumerate(flat)})
        with open(stem + ".arff", "w") as fh:
            fh.write("@relation R_data_frame\n@attribute y {" + ",".join(lev) + "}\n")
            for j in range(X.shape[1]):
                fh.write(f"@attribute x{j + 1} numeric\n")
            fh.write("@data\n")
            for yi, row in zip(y.astype(str), X):
                fh.write(yi + "," + ",".join(f"{v:.17g}" for v in row) + "\n")
        with open(stem + ".splits", "w") as fh:
            for tr, te in flat:
                fh.write(" ".join(map(str, tr)) + "\n" + " ".join(map(str, te)) + "\n")
        with open(stem + "_data.csv", "w") as fh:
            fh.write(",".join(f"x{j + 1}" for j in range(X.shape[1])) + ",y\n")
            for yi, row in zip(y.astype(str), X):
                fh.write(",".join(f"{v:.17g}" for v in row) + f",{yi}\n")
        with open(stem + "_splits.csv", "w") as fh:
            fh.write("fold,part,row\n")
            for k, (tr, te) in enumerate(flat, 1):
                fh.writelines(f"{k},train,{r + 1}\n" for r in tr)
                fh.writelines(f"{k},test,{r + 1}\n" for r in te)


def load_set(path):
    z = np.load(path)
    names, counts = [str(s) for s in z["names"]], z["counts"]
    splits, k = {}, 0
    for u, c in zip(names, counts):
        splits[u] = [(z[f"tr{k + i}"], z[f"te{k + i}"]) for i in range(c)]
        k += c
    return z["X"], z["y"], splits


# ------------------------------------------------------------------ the bridge (worker)
def worker(d, label, warmup, nsets, passes):
    """Runs in its own process: the engine's per-repetition call of one learner."""
    from pybcv.learners import make_learner
    from pybcv.pipeline import predict_designs
    sets = [load_set(os.path.join(d, f"set_{i:04d}.npz")) for i in range(nsets)]
    lrn = make_learner(LEARNERS[label][0], backend="r")
    for _ in range(warmup):
        predict_designs(lrn, *sets[0])
    wall = cpu = float("inf")
    for _ in range(passes):
        c, t = time.process_time(), time.perf_counter()
        preds = [predict_designs(lrn, *s) for s in sets[1:]]
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    import r_bridge
    codes = []
    for (_, y, splits), pr in zip(sets[1:], preds):
        lv = np.unique(y.astype(str))     # the loops' class order (ARFF header, R factor)
        codes += [np.searchsorted(lv, np.asarray(p).astype(str)) for u in splits for p in pr[u]]
    np.save(os.path.join(d, "bridge_pred.npy"), np.concatenate(codes).astype(np.int32))
    print(json.dumps({"wall": wall, "cpu": cpu, "jvm_runs": r_bridge.weka_jvm_runs()}))


def run_bridge(d, label, warmup, nsets, passes):
    res = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", d, label,
                          str(warmup), str(nsets), str(passes)], capture_output=True, text=True,
                         cwd=ROOT)
    if res.returncode:
        raise RuntimeError(f"bridge worker {label}: {res.stderr[-2000:]}")
    out = json.loads(res.stdout.strip().splitlines()[-1])
    name = LEARNERS[label][0]
    if LEARNERS[label][1] and not out["jvm_runs"]:
        raise RuntimeError(f"{name}: the Weka learner did not run inside the JVM")
    return (out["wall"], out["cpu"]), np.load(os.path.join(d, "bridge_pred.npy"))


# ------------------------------------------------------------------ anchors
_JAR = {}


def weka_jar():
    if "jar" not in _JAR:
        _JAR["jar"] = subprocess.run(
            ["Rscript", "-e", 'cat(system.file("java", "weka.jar", package = "RWekajars"))'],
            capture_output=True, text=True, check=True).stdout.strip()
    return _JAR["jar"]


def run_java(d, label, warmup, passes):
    _, cls, opts = LEARNERS[label]
    cp = weka_jar() + os.pathsep + os.path.join(ROOT, "R", "inst", "java", "pybcv-weka.jar")
    res = subprocess.run(["java", JAVA_HEAP, f"-Dpybcv.passes={passes}", "-cp", cp,
                          "pybcv.WekaLoop", d, str(warmup), cls, *opts],
                         capture_output=True, text=True, check=True)
    out = res.stdout.split()
    tag = cls.rsplit(".", 1)[1] + "".join(opts)
    with open(os.path.join(d, f"pred_{tag}.txt")) as fh:
        codes = [np.array(line.split(), dtype=np.int32) for line in fh]
    return (float(out[3]), float(out[5])), np.concatenate(codes)


R_LOOP = r"""
args <- commandArgs(TRUE)
dir <- args[1]; learner <- args[2]; warmup <- as.integer(args[3]); nsets <- as.integer(args[4])
passes <- as.integer(args[5])
suppressPackageStartupMessages({library(kknn); library(tree)})
fit_predict <- function(train, test) {
  if (learner == "kknn") {
    p <- kknn(y ~ ., train, test, k = 5, kernel = "triangular")$fitted.values
  } else if (learner == "tree") {
    pr <- predict(tree(y ~ ., data = train), test, type = "vector")
    p <- levels(train$y)[max.col(matrix(pr, nrow = nrow(test)), ties.method = "first")]
  } else {
    m <- suppressWarnings(glm(y ~ ., family = binomial, data = train))
    p <- levels(train$y)[1L + (predict(m, test, type = "response") > 0.5)]
  }
  match(as.character(p), levels(test$y)) - 1L
}
sets <- lapply(seq_len(nsets) - 1L, function(i) {
  stem <- file.path(dir, sprintf("set_%04d", i))
  d <- read.csv(paste0(stem, "_data.csv"), colClasses = c(y = "character"))
  d$y <- factor(d$y)
  s <- read.csv(paste0(stem, "_splits.csv"))
  list(d = d, tr = split(s$row[s$part == "train"], s$fold[s$part == "train"]),
       te = split(s$row[s$part == "test"], s$fold[s$part == "test"]))
})
run <- function(set) {
  d <- set$d
  lapply(seq_along(set$tr), function(k) {
    train <- d[set$tr[[k]], , drop = FALSE]
    train$y <- droplevels(train$y)
    fit_predict(train, d[set$te[[k]], , drop = FALSE])
  })
}
for (w in seq_len(warmup)) run(sets[[1]])
wall <- Inf; cpu <- Inf
for (pass in seq_len(passes)) {
  t0 <- proc.time()
  preds <- lapply(sets[-1], run)
  t <- proc.time() - t0
  wall <- min(wall, t[["elapsed"]]); cpu <- min(cpu, t[["user.self"]] + t[["sys.self"]])
}
writeLines(as.character(unlist(preds)), file.path(dir, "rloop_pred.txt"))
cat("wall", wall, "cpu", cpu, "\n")
"""


def run_rloop(d, label, warmup, nsets, passes):
    script = os.path.join(d, "loop.R")
    with open(script, "w") as fh:
        fh.write(R_LOOP)
    res = subprocess.run(["Rscript", script, d, label, str(warmup), str(nsets), str(passes)],
                         capture_output=True, text=True)
    if res.returncode:
        raise RuntimeError(f"R loop {label}: {res.stderr[-2000:]}")
    out = res.stdout.split()
    return (float(out[1]), float(out[3])), np.loadtxt(os.path.join(d, "rloop_pred.txt"),
                                                      dtype=np.int32, ndmin=1)


# ------------------------------------------------------------------ driver
def main(argv=None):
    ap = parser(__doc__.split("\n")[0])
    ap.add_argument("--cases", default="exp6,simple300,wave,twonorm,wave-bcv")
    ap.add_argument("--learners", default=",".join(LEARNERS))
    ap.add_argument("--reps", type=int, help="timed repetitions (default: the case's)")
    ap.add_argument("--warmup", type=int, help="warm-up repetitions (default: the case's)")
    ap.add_argument("--out", default=os.path.join(HERE, "table5_rep_results.md"))
    ap.add_argument("--collect", nargs="+", metavar="LOG",
                    help="no runs: the report of the rounds printed in these logs (rounds run "
                         "as separate processes, each with --runs 1)")
    args = ap.parse_args(argv)
    if args.collect:
        return collect(args)
    want = [s.strip() for s in args.learners.split(",")]
    results = {}      # (case, label) -> {"bridge": [(wall, cpu)], "loop": [...]}
    loads = []
    with tempfile.TemporaryDirectory() as root:
        dirs = {}
        for case in args.cases.split(","):
            labels, reps, warm, passes = CASES[case]
            reps = args.reps or reps
            warm = warm if args.warmup is None else args.warmup
            sets = case_sets(case, reps + 1)
            dirs[case] = os.path.join(root, case)
            os.makedirs(dirs[case])
            write_sets(dirs[case], sets)
            for lb in labels:
                if lb in want:
                    r, w, ps = HEAVY.get((case, lb), (reps, warm, passes))
                    results[(case, lb)] = {"bridge": [], "loop": [], "fits": r * n_splits(sets),
                                           "reps": r, "warm": w, "passes": ps}
        for run in range(args.runs):
            loads.append(os.getloadavg()[0])
            for (case, label), rec in results.items():
                d, nsets, w, ps = dirs[case], rec["reps"] + 1, rec["warm"], rec["passes"]
                if nsets < CASES[case][1] + 1:      # fewer timed sets: a folder of its own
                    d = os.path.join(dirs[case], f"first{nsets}")
                    if not os.path.isdir(d):
                        os.makedirs(d)
                        write_sets(d, case_sets(case, nsets))
                ways = [("bridge", lambda: run_bridge(d, label, w, nsets, ps)),
                        ("loop", (lambda: run_java(d, label, w, ps)) if LEARNERS[label][1]
                         else (lambda: run_rloop(d, label, w, nsets, ps)))]
                if run % 2:
                    ways.reverse()          # alternate which way goes first
                preds = {}
                for way, fn in ways:
                    t, preds[way] = fn()
                    rec[way].append(t)
                assert np.array_equal(preds["bridge"], preds["loop"]), \
                    f"{case} {label}: the bridge's predictions differ from the loop's"
                b, lp = rec["bridge"][-1], rec["loop"][-1]
                print(f"run {run + 1} {case} {label}: bridge wall {b[0]:.3f} cpu {b[1]:.3f}; "
                      f"loop wall {lp[0]:.3f} cpu {lp[1]:.3f}; ratio wall {lp[0] / b[0]:.2f} "
                      f"cpu {lp[1] / b[1]:.2f}; load {os.getloadavg()[0]:.1f}", flush=True)
        loads.append(os.getloadavg()[0])
    write_report(args, results, loads)


def collect(args):
    """The report of the per-round lines ("run 1 exp6 J48: bridge wall ... cpu ...;
    loop wall ... cpu ...; ...; load L") of several logs of this script."""
    import re
    pat = re.compile(r"^run \d+ (\S+) (.+?): bridge wall ([\d.]+) cpu ([\d.]+); loop wall ([\d.]+) "
                     r"cpu ([\d.]+);.*load ([\d.]+)$")
    from pybcv.partitions import DESIGNS
    units = table5_units()[1]
    results, loads = {}, []
    for log in args.collect:
        with open(log) as fh:
            for line in fh:
                m = pat.match(line.strip())
                if not m:
                    continue
                case, label = m.group(1), m.group(2)
                reps = HEAVY.get((case, label), CASES[case][1:])[0]
                rec = results.setdefault((case, label), {"bridge": [], "loop": [], "fits": None})
                rec["fits"] = reps * sum(DESIGNS[d].get_n_splits() for u, d in units.items()
                                         if u in ONLY.get(case, units))
                rec["bridge"].append((float(m.group(3)), float(m.group(4))))
                rec["loop"].append((float(m.group(5)), float(m.group(6))))
                loads.append(float(m.group(7)))
    cases = []
    for c, _ in results:
        if c not in cases:
            cases.append(c)
    args.cases = ",".join(cases)
    args.runs = min(len(r["bridge"]) for r in results.values())
    args.learners = ",".join(dict.fromkeys(lb for _, lb in results))
    write_report(args, results, loads, collected=args.collect)


def write_report(args, results, loads, collected=None):
    rows = ["| case | learner | rounds | fits timed | loop | bridge ms/fit, CPU | loop ms/fit, CPU | ratio "
            "loop/bridge, CPU | bridge ms/fit, wall | loop ms/fit, wall | ratio loop/bridge, wall | "
            "predictions identical |", "|" + "---|" * 12]
    for (case, label), rec in results.items():
        f = rec["fits"]
        ms = lambda v: fmt3([1000 * x / f for x in v], 3)  # noqa: E731
        b, lp = rec["bridge"], rec["loop"]
        rows.append(f"| {case} | {label} | {len(b)} | {f} | {'Java' if LEARNERS[label][1] else 'Rscript'} "
                    f"| {ms([x[1] for x in b])} | {ms([x[1] for x in lp])} "
                    f"| {fmt3([y[1] / x[1] for x, y in zip(b, lp)])} "
                    f"| {ms([x[0] for x in b])} | {ms([x[0] for x in lp])} "
                    f"| {fmt3([y[0] / x[0] for x, y in zip(b, lp)])} | yes (asserted) |")
    rver = subprocess.run(["Rscript", "-e", "cat(R.version.string)"], capture_output=True,
                          text=True).stdout.strip()
    jver = subprocess.run(["java", "-version"], capture_output=True,
                          text=True).stderr.splitlines()[0]
    cmd = " ".join(["benchmarks/table5_rep.py", f"--runs {args.runs}", f"--cases {args.cases}",
                    f"--learners '{args.learners}'"] if not collected else
                   ["benchmarks/table5_rep.py --collect", *collected])
    settings = [f"{c}: {CASES[c][2]} warm-up, {CASES[c][1]} timed repetitions, {CASES[c][3]} passes"
                for c in args.cases.split(",")]
    settings += [f"{c} {lb}: {v[1]} warm-up, {v[0]} timed, {v[2]} passes"
                 for (c, lb), v in HEAVY.items() if (c, lb) in results]
    if collected:
        how = (f"the rounds of {len(collected)} runs of the script ({', '.join(collected)}), "
               f"collected with `--collect`; every (case, learner) ran the bridge and its loop one "
               f"after the other in each round")
        load = f"Load average (1 min) seen after each pair: {', '.join(f'{x:.1f}' for x in loads)}."
    else:
        how = (f"{args.runs} rounds; in each, every (case, learner) ran the bridge and its loop one "
               f"after the other (order alternating by round)")
        load = machine(loads)
    report(args.out, f"\n## {stamp()}: `.venv/bin/python {cmd}`\n\n" + "\n".join(rows) + "\n\n"
           f"{how}, each in a new process with the same warm-up repetitions and timed passes (the "
           f"fastest counts): {'; '.join(settings)}.  {load}  {rver}, {jver}.\n")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]),
               int(sys.argv[6]) if len(sys.argv) > 6 else PASSES)
    else:
        main()
