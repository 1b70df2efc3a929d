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


def compute_engine(reps):
    from pybcv.engine import RunConfig
    from pybcv.engine.repetition import run_chunk
    cfg = RunConfig("epsilon", "table5")
    c, t = time.process_time(), time.perf_counter()
    run_chunk(cfg, list(range(reps)))
    return time.perf_counter() - t, time.process_time() - c


def compute_anchor(reps, streams=False):
    import numpy_sim
    c, t = time.process_time(), time.perf_counter()
    numpy_sim.simulate(reps, streams=streams)
    return time.perf_counter() - t, time.process_time() - c


def main(argv=None):
    ap = parser(__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--out", default=os.path.join(HERE, "engine_results.md"))
    args = ap.parse_args(argv)
    py = sys.executable
    env_cwd = tempfile.mkdtemp()
    res = {"cmd_engine": [], "cmd_anchor": [], "cmd_streams": [], "cpt_engine": [],
           "cpt_anchor": [], "cpt_streams": []}
    loads = []
    # the package's bytecode up to date, as in an installed copy (pip compiles at install; with
    # PYTHONDONTWRITEBYTECODE set, a checkout would otherwise compile edited modules at each start)
    compileall.compile_dir(os.path.join(ROOT, "pybcv"), quiet=1)
    compute_engine(10)                      # imports and first calls outside the timing
    compute_anchor(10)
    try:
        for run in range(args.runs):
            loads.append(os.getloadavg()[0])
            out = os.path.join(env_cwd, f"run{run}")
            ways = [("cmd_engine", lambda: timed([py, "-m", "pybcv", "simulate", "--dataset", "epsilon",
                                                  "--tests", "table5", "--reps", str(args.reps),
                                                  "--out", out, "--quiet"], ROOT)),
                    ("cmd_anchor", lambda: timed([py, os.path.join(HERE, "numpy_sim.py"), "--reps",
                                                  str(args.reps)], ROOT)),
                    ("cmd_streams", lambda: timed([py, os.path.join(HERE, "numpy_sim.py"), "--reps",
                                                   str(args.reps), "--streams"], ROOT)),
                    ("cpt_engine", lambda: compute_engine(args.reps)),
                    ("cpt_anchor", lambda: compute_anchor(args.reps)),
                    ("cpt_streams", lambda: compute_anchor(args.reps, True))]
            if run % 2:
                ways = ways[2::-1] + ways[:2:-1]
            for k, fn in ways:
                res[k].append(fn())
            print(f"run {run + 1}: " + "; ".join(f"{k} {v[-1][0]:.2f}/{v[-1][1]:.2f}"
                                                  for k, v in res.items())
                  + f"; load {os.getloadavg()[0]:.1f}", flush=True)
        loads.append(os.getloadavg()[0])
    finally:
        shutil.rmtree(env_cwd, ignore_errors=True)
    f3 = fmt3
    lines = ["| what | measure | engine s (min/med/max) | numpy anchor, one Generator s | ratio "
             "engine/anchor (min/med/max over rounds) | numpy anchor, pybcv's streams s | ratio "
             "engine/streams anchor |", "|---|---|---|---|---|---|---|"]
    for what, e, a, st in (("whole command", "cmd_engine", "cmd_anchor", "cmd_streams"),
                           ("computation", "cpt_engine", "cpt_anchor", "cpt_streams")):
        for i, m in enumerate(("wall", "CPU")):
            ev, av, sv = ([x[i] for x in res[k]] for k in (e, a, st))
            lines.append(f"| {what} | {m} | {f3(ev)} | {f3(av)} | "
                         f"{f3([x / y for x, y in zip(ev, av)])} | {f3(sv)} | "
                         f"{f3([x / y for x, y in zip(ev, sv)])} |")
    report(args.out, f"\n## The engine against a plain numpy simulation ({stamp()})\n\n"
           f"Command: `.venv/bin/python benchmarks/engine_anchor.py --runs {args.runs} --reps "
           f"{args.reps}` (epsilon, 14 Table-5 tests, {args.reps} repetitions).\n\n"
           + "\n".join(lines) + f"\n\n{machine(loads)}\n")


if __name__ == "__main__":
    main()
