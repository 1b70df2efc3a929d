"""RQ1 on the engine against its native limit (issue 23, item 4).

An RQ1 repetition (the engine's experiment record ``rq1``, ``pybcv rq1
run``): 300 records drawn from one UCI file, a 5x2 BCV, the seven learners
each fitted once on its 10 splits and all 21 pairs scored.  Its native
limit is the same fits in plain loops: the four Weka learners (Logistic,
SMO, JRip, J48) in ``pybcv.WekaLoop`` (java/src, a plain Java loop over the
same weka.jar) and kknn (k = 5, triangular) in an ``Rscript`` loop
(``table5_rep.R_LOOP``), on the very data sets and splits the engine draws
for repetitions 0..reps-1 (``RunConfig.dataset_for``, ``units`` /
``unit_rng``, ``pipeline.draw_splits``).  majority and mean (Python in the
engine, microseconds a fit) have no native loop: the limit is the slightly
lower for it, which favours the anchor.

Ways, each in a fresh process, every round (the order alternates):

* engine: ``python -c`` running ``pybcv.engine.simulate`` of the record on
  one data set into a new store: the whole process (interpreter, imports,
  R, the JVM, RWeka, the fits, the 21 pairs' tables and tests, the store);
* native: the five loop processes; "fits" is the CPU each loop times
  inside itself (the fits alone: the limit), "processes" the CPU of the
  five whole processes (their start-up too: 4 JVMs, 1 R).

Ratio = native / engine CPU (>= 0.9 is the goal): per round, min/median/max
over the rounds.  ``--reps`` sets the run lengths (short and long runs).

Run:  .venv/bin/python benchmarks/rq1_rep.py [--runs 3] [--datasets pima,wave]
      [--reps 10,100]
"""
from __future__ import annotations

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

from rounds import fmt3, machine, parser, report, stamp, timed_process  # noqa: E402
from table5_rep import LEARNERS, R_LOOP, weka_jar, write_sets  # noqa: E402

WEKA = ("Logistic", "SMO", "JRip", "J48")

ENGINE = """
import sys
from pybcv.engine import RunConfig, simulate
cfg = RunConfig("rq1", "mcnemar_5x2bcv", seed=0, n=300, data_params={"file": sys.argv[1]},
                backend="r")
res = simulate(cfg, int(sys.argv[2]), out=sys.argv[3], progress=False)
assert len(res.reps) == int(sys.argv[2]) and not res.failures, res.failures
"""


def rq1_sets(dataset, reps):
    """[(X, y, {unit: splits})]: set 0 a copy of repetition 0 (the loops'
    untimed set), set i + 1 repetition i."""
    from pybcv.engine import RunConfig
    from pybcv.pipeline import draw_splits
    cfg = RunConfig("rq1", "mcnemar_5x2bcv", seed=0, n=300, data_params={"file": dataset},
                    backend="r")
    units = dict(cfg.units())
    out = []
    for r in range(reps):
        d = cfg.dataset_for(r)
        X, y = np.asarray(d.X, float), np.asarray(d.y)
        out.append((X, y, draw_splits(len(y), units, {u: cfg.unit_rng(r, u) for u in units})))
    return out[:1] + out


def native(d, nsets):
    """(fits CPU s, processes CPU s, processes wall s) of the five loops."""
    fits = procs = wall = 0.0
    cp = weka_jar() + os.pathsep + os.path.join(ROOT, "R", "inst", "java", "pybcv-weka.jar")
    for label in WEKA:
        _, cls, opts = LEARNERS[label]
        w, c, res = timed_process(["java", "-Dpybcv.passes=1", "-cp", cp, "pybcv.WekaLoop", d,
                                   "0", cls, *opts])
        fits, procs, wall = fits + float(res.stdout.split()[5]), procs + c, wall + w
    script = os.path.join(d, "loop.R")
    with open(script, "w") as fh:
        fh.write(R_LOOP)
    w, c, res = timed_process(["Rscript", script, d, "kknn", "0", str(nsets), "1"])
    return fits + float(res.stdout.split()[3]), procs + c, wall + w


def engine(dataset, reps, out):
    w, c, _ = timed_process([sys.executable, "-c", ENGINE, dataset, str(reps), out], cwd=ROOT)
    return c, w


def main(argv=None):
    ap = parser(__doc__.split("\n")[0])
    ap.add_argument("--datasets", default="pima,wave")
    ap.add_argument("--reps", default="10,100", help="run lengths (repetitions), comma separated")
    ap.add_argument("--out", default=os.path.join(HERE, "rq1_rep_results.md"))
    args = ap.parse_args(argv)
    lengths = [int(x) for x in args.reps.split(",")]
    res, loads = {}, []
    with tempfile.TemporaryDirectory() as root:
        dirs = {}
        for ds in args.datasets.split(","):
            for reps in lengths:
                dirs[ds, reps] = os.path.join(root, f"{ds}_{reps}")
                os.makedirs(dirs[ds, reps])
                write_sets(dirs[ds, reps], rq1_sets(ds, reps))
        for run in range(args.runs):
            loads.append(os.getloadavg()[0])
            for (ds, reps), d in dirs.items():
                store = os.path.join(root, f"store_{ds}_{reps}_{run}")
                ways = [("engine", lambda: engine(ds, reps, store)),
                        ("native", lambda: native(d, reps + 1))]
                if run % 2:
                    ways.reverse()
                got = dict((way, fn()) for way, fn in ways)
                res.setdefault((ds, reps), []).append(got)
                (ec, ew), (nf, nc, nw) = got["engine"], got["native"]
                print(f"run {run + 1} {ds} {reps}: engine cpu {ec:.2f} wall {ew:.2f}; native fits "
                      f"cpu {nf:.2f}, processes cpu {nc:.2f} wall {nw:.2f}; ratio fits/engine "
                      f"{nf / ec:.2f}, processes/engine {nc / ec:.2f}; load "
                      f"{os.getloadavg()[0]:.1f}", flush=True)
        loads.append(os.getloadavg()[0])
    rows = ["| data set | repetitions | rounds | engine CPU s | native fits CPU s (the limit) | "
            "ratio limit/engine | native processes CPU s | ratio processes/engine | "
            "engine wall s | native processes wall s |", "|" + "---|" * 10]
    for (ds, reps), rr in res.items():
        e = [g["engine"] for g in rr]
        n = [g["native"] for g in rr]
        rows.append(f"| {ds} | {reps} | {len(rr)} | {fmt3([x[0] for x in e])} "
                    f"| {fmt3([x[0] for x in n])} | {fmt3([y[0] / x[0] for x, y in zip(e, n)])} "
                    f"| {fmt3([x[1] for x in n])} | {fmt3([y[1] / x[0] for x, y in zip(e, n)])} "
                    f"| {fmt3([x[1] for x in e])} | {fmt3([x[2] for x in n])} |")
    report(args.out, f"\n## {stamp()}: `.venv/bin/python benchmarks/rq1_rep.py --runs {args.runs} "
           f"--datasets {args.datasets} --reps {args.reps}`\n\n" + "\n".join(rows) + "\n\n"
           f"min/median/max over {args.runs} rounds; CPU = user + sys of the whole processes "
           f"(engine) or as timed inside each loop (fits).  {machine(loads)}\n")


if __name__ == "__main__":
    main()
