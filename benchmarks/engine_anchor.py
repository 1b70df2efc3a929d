"""The engine against a plain numpy simulation (issue 23, item 3).

Two figures, each side interleaved with the other in every round (order
alternating), ``--runs`` rounds:

* the whole command: ``python -m pybcv simulate --dataset epsilon --tests table5
  --reps 1000 --out <new folder> --quiet`` against ``python
  benchmarks/numpy_sim.py --reps 1000`` (the anchor: the same 14 tests on the
  same design sizes, written from the spec with numpy and scipy alone), each a
  new process timed from outside (wall; CPU = user + sys of the process);
* the computation alone, in this process: ``pybcv.engine.repetition.run_chunk``
  over the 1000 repetitions (the tables and the 14 tests with their
  intervals, what ``simulate`` runs in its chunks) against the anchor's
  ``simulate()`` (tables and tests, no intervals).

The anchor runs twice: with one Generator for every draw (the fastest plain
simulation), and with ``--streams``: a Generator per repetition for its data
and per (repetition, design) for its partitions, the seeding pybcv keeps so
that a run can be cut into chunks, run in parallel and resumed to identical
results (8,000 Generators and 49,000 sequential permutations for 1000
repetitions, which no single vectorised draw can reproduce).

Run from the repository root:
    .venv/bin/python benchmarks/engine_anchor.py [--runs 3] [--reps 1000]
"""
from __future__ import annotations

import compileall
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from rounds import fmt3, machine, parser, report, stamp, timed_process  # noqa: E402


def timed(cmd, cwd):
    return timed_process(cmd, cwd)[:2]


def compute_engine(reps, dataset="epsilon"):
    from pybcv.engine import RunConfig
    from pybcv.engine.repetition import run_chunk
    from pybcv.engine.simulation import default_chunk
    cfg = RunConfig(dataset, "table5", backend=BACKEND[dataset])
    size = default_chunk(cfg, reps, 1)
    c, t = time.process_time(), time.perf_counter()
    for i in range(0, reps, size):                  # the chunks simulate() runs
        run_chunk(cfg, list(range(i, min(reps, i + size))))
    return time.perf_counter() - t, time.process_time() - c


def compute_anchor(reps, streams=False, dataset="epsilon"):
    import numpy_sim
    import simple_anchor
    c, t = time.process_time(), time.perf_counter()
    if dataset == "simple":
        simple_anchor.simulate(reps)
    else:
        numpy_sim.simulate(reps, streams=streams)
    return time.perf_counter() - t, time.process_time() - c


#: the engine's backend per data set: the Python stand-ins that simple_anchor runs too
BACKEND = {"epsilon": "auto", "simple": "python"}


def main(argv=None):
    ap = parser(__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, help="repetitions (default 1000 epsilon, 200 simple)")
    ap.add_argument("--dataset", choices=("epsilon", "simple"), default="epsilon")
    ap.add_argument("--out", default=os.path.join(HERE, "engine_results.md"))
    args = ap.parse_args(argv)
    ds = args.dataset
    args.reps = args.reps or (1000 if ds == "epsilon" else 200)
    py = sys.executable
    env_cwd = tempfile.mkdtemp()
    res = {"cmd_engine": [], "cmd_anchor": [], "cmd_streams": [], "cpt_engine": [],
           "cpt_anchor": [], "cpt_streams": []}
    loads = []
    # the package's bytecode up to date, as in an installed copy (pip compiles at install; with
    # PYTHONDONTWRITEBYTECODE set, a checkout would otherwise compile edited modules at each start)
    compileall.compile_dir(os.path.join(ROOT, "pybcv"), quiet=1)
    compute_engine(10, ds)                  # imports and first calls outside the timing
    compute_anchor(10, dataset=ds)
    anchor = ([os.path.join(HERE, "numpy_sim.py")] if ds == "epsilon" else
              [os.path.join(HERE, "simple_anchor.py")])
    engine = ["-m", "pybcv", "simulate", "--dataset", ds, "--tests", "table5", "--reps",
              str(args.reps), "--quiet"] + (["--backend", "python"] if ds == "simple" else [])
    try:
        for run in range(args.runs):
            loads.append(os.getloadavg()[0])
            out = os.path.join(env_cwd, f"run{run}")
            ways = [("cmd_engine", lambda: timed([py] + engine + ["--out", out], ROOT)),
                    ("cmd_anchor", lambda: timed([py] + anchor + ["--reps", str(args.reps)], ROOT)),
                    ("cmd_streams", lambda: timed([py] + anchor + ["--reps", str(args.reps)]
                                                  + (["--streams"] if ds == "epsilon" else []), ROOT)),
                    ("cpt_engine", lambda: compute_engine(args.reps, ds)),
                    ("cpt_anchor", lambda: compute_anchor(args.reps, dataset=ds)),
                    ("cpt_streams", lambda: compute_anchor(args.reps, True, ds))]
            if ds == "simple":          # the plain loop draws a Generator per (repetition, design)
                ways = [w for w in ways if w[0] not in ("cmd_anchor", "cpt_anchor")]
            if run % 2:             # the commands, then the computations, each group reversed
                ways = ([w for w in ways if w[0].startswith("cmd")][::-1]
                        + [w for w in ways if w[0].startswith("cpt")][::-1])
            for k, fn in ways:
                res[k].append(fn())
            print(f"run {run + 1}: " + "; ".join(f"{k} {v[-1][0]:.2f}/{v[-1][1]:.2f}"
                                                  for k, v in res.items() if v)
                  + f"; load {os.getloadavg()[0]:.1f}", flush=True)
        loads.append(os.getloadavg()[0])
    finally:
        shutil.rmtree(env_cwd, ignore_errors=True)
    f3 = fmt3
    if ds == "simple":
        lines = ["| what | measure | engine s (min/med/max) | plain loop, same fits s | ratio "
                 "engine/plain loop (min/med/max over rounds) |", "|---|---|---|---|---|"]
    else:
        lines = ["| what | measure | engine s (min/med/max) | numpy anchor, one Generator s | ratio "
                 "engine/anchor (min/med/max over rounds) | numpy anchor, pybcv's streams s | ratio "
                 "engine/streams anchor |", "|---|---|---|---|---|---|---|"]
    for what, e, a, st in (("whole command", "cmd_engine", "cmd_anchor", "cmd_streams"),
                           ("computation", "cpt_engine", "cpt_anchor", "cpt_streams")):
        for i, m in enumerate(("wall", "CPU")):
            ev, sv = ([x[i] for x in res[k]] for k in (e, st))
            ratio = f"{f3(sv)} | {f3([x / y for x, y in zip(ev, sv)])} |"
            if ds == "simple":
                lines.append(f"| {what} | {m} | {f3(ev)} | {ratio}")
            else:
                av = [x[i] for x in res[a]]
                lines.append(f"| {what} | {m} | {f3(ev)} | {f3(av)} | "
                             f"{f3([x / y for x, y in zip(ev, av)])} | {ratio}")
    what = ("epsilon, 14 Table-5 tests" if ds == "epsilon" else
            "simple, glm vs majority on the Python backend, 14 Table-5 tests, against "
            "benchmarks/simple_anchor.py")
    report(args.out, f"\n## The engine against a plain {'numpy simulation' if ds == 'epsilon' else 'loop'}"
           f" ({stamp()})\n\nCommand: `.venv/bin/python benchmarks/engine_anchor.py --runs {args.runs} "
           f"--reps {args.reps}{'' if ds == 'epsilon' else ' --dataset simple'}` ({what}, "
           f"{args.reps} repetitions).\n\n" + "\n".join(lines) + f"\n\n{machine(loads)}\n")

if __name__ == "__main__":
    main()
