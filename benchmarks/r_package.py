"""The R package against Python on the same comparison (issue 23, item 2).

Jobs (the same data, learners, tests and seed on both sides):

* ``table5``: ``compare_learners("J48", "kknn", iris, "Species", tests = "table5")``
  in R against ``pybcv.compare(X, y, "J48", "kknn", tests="table5")`` in Python;
* ``all20``: the same with ``tests = "all"`` on n = 20 rows of iris (rows
  1-7, 51-57, 101-106: three classes).

Each side runs in a fresh process (``Rscript`` with the package installed by
``R CMD INSTALL`` into a temporary library; ``.venv/bin/python``), one after
the other inside each of ``--runs`` rounds (the order alternating).  Two
figures per side: the whole process (wall, and CPU of the process and its
children: R's start-up, loading the package, starting Python through
reticulate, importing pybcv, starting R through rpy2 on the Python side, the
JVM); the first call alone (``compare_learners(...)`` / ``compare(...)`` timed
inside the process: Python's import of pybcv and the JVM's start are inside
it on the R side, R's and the JVM's start inside it on the Python side --
everything but the interpreter's own start-up and ``library(pybcv)`` /
``import pybcv``); and a second, identical call in the same process (all
started: the per-call cost of each side's plumbing plus the fits).  The p-values of both sides are
asserted equal.

Run:  .venv/bin/python benchmarks/r_package.py [--runs 3] [--out benchmarks/r_package_results.md]
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from rounds import fmt3, machine, parser, report, stamp, timed_process  # noqa: E402
PY = os.path.join(ROOT, ".venv", "bin", "python")

JOBS = {"table5": ("table5", "seq_len(150)"),
        "all20": ("all", "c(1:7, 51:57, 101:106)")}

R_JOB = r"""
args <- commandArgs(TRUE)
.libPaths(c(args[1], .libPaths()))
library(pybcv, lib.loc = args[1])
d <- iris[eval(parse(text = args[3])), ]
rownames(d) <- NULL
t0 <- proc.time()
res <- compare_learners("J48", "kknn", d, "Species", tests = args[2])
t <- proc.time() - t0
t0 <- proc.time()
res2 <- compare_learners("J48", "kknn", d, "Species", tests = args[2])
t2 <- proc.time() - t0
p <- res$results$p.value
names(p) <- res$results$test
cat(paste0('{"wall": ', t[["elapsed"]], ', "cpu": ',
    t[["user.self"]] + t[["sys.self"]] + t[["user.child"]] + t[["sys.child"]],
    ', "wall2": ', t2[["elapsed"]], ', "cpu2": ', t2[["user.self"]] + t2[["sys.self"]],
    ', "p": {', paste0('"', names(p), '": ', sprintf("%.17g", p), collapse = ", "), '}}'), "\n")
"""

PY_JOB = r"""
import json, sys, time
import pandas as pd
from pybcv import compare
d = pd.read_csv(sys.argv[1])
rows = eval(sys.argv[3])
d = d.iloc[rows].reset_index(drop=True)
X, y = d.drop(columns="Species"), d["Species"]
c0, t0 = time.process_time(), time.perf_counter()
res = compare(X, y, "J48", "kknn", tests=sys.argv[2])
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
c0, t0 = time.process_time(), time.perf_counter()
compare(X, y, "J48", "kknn", tests=sys.argv[2])
wall2, cpu2 = time.perf_counter() - t0, time.process_time() - c0
p = {k: float(r.pvalue) for k, r in res.results.items()}
print(json.dumps({"wall": wall, "cpu": cpu, "wall2": wall2, "cpu2": cpu2, "p": p}))
"""


def run_job(cmd):
    """(wall, CPU of the process and its children, its last stdout line as JSON)."""
    wall, cpu, res = timed_process(cmd, ROOT)
    return wall, cpu, json.loads(res.stdout.strip().splitlines()[-1])


def py_rows(r_expr):
    """The R row expression as 0-based Python indices."""
    out = subprocess.run(["Rscript", "-e", f"cat({r_expr} - 1L)"], capture_output=True,
                         text=True, check=True).stdout.split()
    return "[" + ",".join(out) + "]"


def main(argv=None):
    ap = parser(__doc__.split("\n")[0])
    ap.add_argument("--jobs", default=",".join(JOBS))
    ap.add_argument("--out", default=os.path.join(HERE, "r_package_results.md"))
    args = ap.parse_args(argv)
    jobs = args.jobs.split(",")
    subprocess.run(["bash", "scripts/build_java.sh"], cwd=ROOT, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        lib = os.path.join(tmp, "lib")
        os.makedirs(lib)
        subprocess.run(["R", "CMD", "INSTALL", f"--library={lib}", "R"], cwd=ROOT, check=True,
                       capture_output=True)
        csv = os.path.join(tmp, "iris.csv")
        subprocess.run(["Rscript", "-e", f"write.csv(iris, '{csv}', row.names = FALSE)"], check=True)
        rjob, pyjob = os.path.join(tmp, "job.R"), os.path.join(tmp, "job.py")
        with open(rjob, "w") as fh:
            fh.write(R_JOB)
        with open(pyjob, "w") as fh:
            fh.write(PY_JOB)
        env_note = os.environ.get("PYBCV_PYTHON")
        os.environ["PYBCV_PYTHON"] = PY
        res = {j: {"r": [], "py": []} for j in jobs}
        loads = []
        for run in range(args.runs):
            loads.append(os.getloadavg()[0])
            for j in jobs:
                tests, rows = JOBS[j]
                ways = [("r", ["Rscript", rjob, lib, tests, rows]),
                        ("py", [PY, pyjob, csv, tests, py_rows(rows)])]
                if run % 2:
                    ways.reverse()
                out = {}
                for way, cmd in ways:
                    w, c, o = run_job(cmd)
                    out[way] = o
                    res[j][way].append((w, c, o["wall"], o["cpu"], o["wall2"], o["cpu2"]))
                assert out["r"]["p"].keys() == out["py"]["p"].keys(), (out["r"]["p"], out["py"]["p"])
                for k in out["r"]["p"]:
                    a, b = out["r"]["p"][k], out["py"]["p"][k]
                    assert a == b or (a != a and b != b), f"{j} {k}: R p {a} != Python p {b}"
                r, p = res[j]["r"][-1], res[j]["py"][-1]
                print(f"run {run + 1} {j}: R process {r[0]:.2f}s/{r[1]:.2f}cpu call {r[2]:.2f}/"
                      f"{r[3]:.2f}; Python process {p[0]:.2f}/{p[1]:.2f} call {p[2]:.2f}/{p[3]:.2f}; "
                      f"load {os.getloadavg()[0]:.1f}", flush=True)
        loads.append(os.getloadavg()[0])
        if env_note is None:
            del os.environ["PYBCV_PYTHON"]
    names = ["whole process, wall", "whole process, CPU", "first call, wall", "first call, CPU",
             "second call, wall", "second call, CPU"]
    lines = ["| job | measure | R s (min/med/max) | Python s (min/med/max) | ratio R/Python "
             "(min/med/max over rounds) |", "|---|---|---|---|---|"]
    for j in jobs:
        for i, nm in enumerate(names):
            rv = [x[i] for x in res[j]["r"]]
            pv = [x[i] for x in res[j]["py"]]
            lines.append(f"| {j} | {nm} | {fmt3(rv)} | {fmt3(pv)} | "
                         f"{fmt3([a / b for a, b in zip(rv, pv)])} |")
    report(args.out, f"\n## {stamp()}: `.venv/bin/python benchmarks/r_package.py --runs {args.runs} "
           f"--jobs {args.jobs}`\n\n" + "\n".join(lines) + "\n\np-values of R and Python equal in "
           f"every round (asserted).  {machine(loads)}\n")


if __name__ == "__main__":
    main()
