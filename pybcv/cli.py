"""Command line: ``pybcv compare | simulate | report | truth``.

Bad input (unknown data set, test or learner, reps < 1, an unwritable output
folder, a CSV without the target column, ...) prints ``pybcv: error: ...``
on stderr and exits with code 2.  A learner that fails while running (a
crash in R or Java, a 2-class learner on 6 classes, R missing) prints the
learner's message, which names the learner, the fold and the partition
design, and exits with code 1.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from typing import List, Optional

EXIT_USAGE = 2
EXIT_RUNTIME = 1     # a learner or R failed while running

# the data set's own parameter that --param sets
PARAM_OF = {"epsilon": "eps", "simple": "delta", "exp6": "omega", "letter": "upsilon"}


class UsageError(Exception):
    pass


def _fail(msg: str) -> int:
    print(f"pybcv: error: {msg}", file=sys.stderr)
    return EXIT_USAGE


# ------------------------------------------------------------------ validation helpers
def _tests(arg):
    from .stats import resolve_tests
    try:
        return resolve_tests(arg)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _learner(arg: Optional[str]):
    if arg is None:
        return None
    from .engine import learner_spec
    from .learners import LEARNERS
    try:
        spec = learner_spec(arg)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if spec["name"] not in LEARNERS:
        raise UsageError(f"unknown learner {spec['name']!r}; known: {', '.join(sorted(LEARNERS))}")
    extra = set(spec) - {"name"} - set(LEARNERS[spec["name"]].params)
    if extra:
        raise UsageError(f"learner {spec['name']!r} has no parameter(s) {sorted(extra)}; "
                         f"its parameters: {sorted(LEARNERS[spec['name']].params) or 'none'}")
    return spec


def _writable_dir(path: str) -> str:
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, ".pybcv_write_test")
        with open(probe, "w") as f:
            f.write("")
        os.remove(probe)
    except OSError as e:
        raise UsageError(f"output folder {path!r} is not writable ({e.strerror or e})") from None
    return path


def _floats(s: str) -> List[float]:
    try:
        return [float(v) for v in s.split(",") if v.strip()]
    except ValueError:
        raise UsageError(f"--param takes numbers separated by commas, got {s!r}") from None


def _backend_note(backends) -> str:
    bs = set()
    for b in backends:
        bs.update(str(b).split("/"))
    if bs == {"r"}:
        return "R (the paper's learners)"
    if bs == {"python"}:
        return "Python fallback (R unavailable or --backend python; results differ from the paper's R learners)"
    return "/".join(sorted(bs))


# ------------------------------------------------------------------ compare
def cmd_compare(a) -> int:
    import numpy as np
    from . import datasets as D
    from .engine import compare
    tests = _tests(a.tests)
    la = _learner(a.a) or {"name": "J48-unpruned"}
    lb = _learner(a.b) or ({"name": "fnn-weighted", "omega": 0.29} if a.csv is None else {"name": "J48"})
    from .stats import profile_options
    try:
        profile_options(a.profile)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if a.csv:
        try:
            data = D.load_csv(a.csv, a.target)
        except D.DataError as e:
            raise UsageError(str(e)) from None
        src = f"{a.csv} (target {a.target!r}, n = {data.n})"
    else:
        data = D.exp6(a.seed, n=a.n or 300)
        src = f"EXP6 (n = {data.n}, drawn from seed {a.seed})"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = compare(data.X, data.y, la, lb, tests=tests, seed=a.seed, profile=a.profile,
                      backend=a.backend)
    out = sys.stdout
    print(f"data: {src}", file=out)
    print(f"A = {cmp.learner_a}   B = {cmp.learner_b}", file=out)
    print(f"backend: A ran in {cmp.backends[0]}, B ran in {cmp.backends[1]} "
          f"({_backend_note(cmp.backends)}); requested --backend {a.backend}", file=out)
    print(f"profile: {a.profile}; seed: {a.seed}; alpha: {a.alpha}", file=out)
    if np.isfinite(cmp.error_a):
        print(f"10-fold CV error rates: A {cmp.error_a:.4f}, B {cmp.error_b:.4f}", file=out)
    print("", file=out)
    w = max(len(r.method) for r in cmp.results.values())
    print(f"{'test':<{w}}  {'statistic':>10}  {'df':>9}  {'p-value':>9}  decision", file=out)
    for k, r in cmp.results.items():
        df = "-" if r.df is None else (f"{r.df[0]:g},{r.df[1]:g}" if isinstance(r.df, tuple) else f"{r.df:g}")
        dec = "reject H0" if r.rejects(a.alpha) else "keep H0"
        print(f"{r.method:<{w}}  {r.statistic:>10.4f}  {df:>9}  {r.pvalue:>9.4f}  {dec}", file=out)
    A, E = cmp.averaged_table, cmp.effective_table
    print("", file=out)
    print(f"5x2 BCV averaged table (mean of 10 folds)      effective table (t = {cmp.bcv_t:.4f})", file=out)
    print(f"              B wrong   B right                  B wrong   B right", file=out)
    print(f"  A wrong  {A[0,0]:8.2f}  {A[0,1]:8.2f}               {E[0,0]:8.2f}  {E[0,1]:8.2f}", file=out)
    print(f"  A right  {A[1,0]:8.2f}  {A[1,1]:8.2f}               {E[1,0]:8.2f}  {E[1,1]:8.2f}", file=out)
    return 0


# ------------------------------------------------------------------ simulate
def cmd_simulate(a) -> int:
    from . import datasets as D
    from .engine import ConfigMismatch, simulate
    ds = a.dataset.lower()
    if ds not in D.GENERATORS:
        raise UsageError(f"unknown data set {a.dataset!r}; known: {', '.join(D.GENERATORS)}")
    if a.reps < 1:
        raise UsageError(f"--reps must be at least 1, got {a.reps}")
    if a.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {a.jobs}")
    if a.seed < 0:
        raise UsageError(f"--seed must be a non-negative integer, got {a.seed}")
    tests = _tests(a.tests)
    la, lb = _learner(a.a), _learner(a.b)
    if ds == "epsilon" and (la or lb):
        raise UsageError("epsilon is learner-free (fixed per-record losses): --a/--b do not apply")
    from .stats import profile_options
    try:
        profile_options(a.profile)
    except ValueError as e:
        raise UsageError(str(e)) from None
    _writable_dir(a.out)
    values = _floats(a.param) if a.param else [None]
    from .engine.core import PAPER_LEARNERS
    runs = []
    for v in values:
        dp, lbv = {}, lb
        if v is not None:
            pname = PARAM_OF[ds]
            if ds in ("simple", "epsilon"):
                dp = {pname: v}
            else:
                lbv = dict(lb or PAPER_LEARNERS[ds][1])
                lbv[pname] = v
        out = a.out if len(values) == 1 else _writable_dir(os.path.join(a.out, f"param={v:g}"))
        if len(values) > 1 and not a.quiet:
            print(f"--- {PARAM_OF[ds]} = {v:g} -> {out}", file=sys.stderr)
        try:
            res = simulate(ds, tests=tests, reps=a.reps, seed=a.seed, jobs=a.jobs, out=out,
                           resume=a.resume, scheduler=a.scheduler, profile=a.profile,
                           backend=a.backend, learner_a=la, learner_b=lbv, n=a.n, data_params=dp,
                           share_designs=not a.no_share, progress=not a.quiet)
        except ConfigMismatch as e:
            raise UsageError(str(e)) from None
        runs.append((v, res))
    if len(values) > 1:
        import pandas as pd
        frames = []
        for v, res in runs:
            df = res.summary()
            df.insert(0, "param_value", v)
            df.insert(0, "param_name", PARAM_OF[ds])
            frames.append(df)
        pd.concat(frames).to_csv(os.path.join(a.out, "power.csv"), index=False)
    for v, res in runs:
        s = res.summary()
        head = f"{ds}" + ("" if v is None else f" {PARAM_OF[ds]}={v:g}")
        print(f"# {head}: {len(res.reps)} repetitions, profile {a.profile}, seed {a.seed}, "
              f"fits per repetition A {res.fits_per_rep[0]:.0f} / B {res.fits_per_rep[1]:.0f}"
              + (f", backend {_backend_note(res.backends)}" if res.backends != ("none",) else ""))
        for _, row in s.iterrows():
            print(f"{row['test']:<22} {row['rejection_rate']:.3f}  (MC SE {row['mc_se']:.3f})")
    print(f"wrote {os.path.join(a.out, 'power.csv' if len(values) > 1 else 'summary.csv')}",
          file=sys.stderr)
    return 0


# ------------------------------------------------------------------ report
def cmd_report(a) -> int:
    from .report import build_report
    for d in a.dirs:
        if not os.path.isdir(d):
            raise UsageError(f"not a folder: {d}")
    if a.out:
        _writable_dir(os.path.dirname(os.path.abspath(a.out)))
    from .stats import profile_options
    try:
        profile_options(a.profile) if a.profile else None
    except ValueError as e:
        raise UsageError(str(e)) from None
    try:
        text = build_report(a.dirs, profile=a.profile, out=a.out, title=a.title)
    except (FileNotFoundError, ValueError) as e:
        raise UsageError(str(e)) from None
    if a.out:
        print(f"wrote {a.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


# ------------------------------------------------------------------ truth
def cmd_truth(a) -> int:
    from .engine.truth import TUNING, tune
    ds = a.dataset.lower()
    if ds not in TUNING:
        raise UsageError(f"true-error tuning is defined for {', '.join(TUNING)}; got {a.dataset!r}")
    if a.sets < 2:
        raise UsageError("--sets must be at least 2")
    grid = _floats(a.grid)
    if a.out:
        _writable_dir(os.path.dirname(os.path.abspath(a.out)))
    res = tune(ds, grid, n_sets=a.sets, n_train=a.train_n, seed=a.seed, backend=a.backend,
               progress=not a.quiet, backend_b=a.backend_b)
    text = json.dumps(res, indent=1)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    print(f"{ds}: mu_A = {res['mu_a']:.4f} (SE {res['mu_a_se']:.4f}); "
          f"{res['param']} at H0 = {res['param_h0']:.4f}")
    for g, m in zip(res["grid"], res["mu_b"]):
        print(f"  {res['param']} = {g:g}: mu_B = {m:.4f}")
    for t in res["targets"]:
        print(f"  lambda = {t['lambda']:.1f}: target {t['mu_target']:.4f} -> {res['param']} = {t[res['param']]:.4f}")
    return 0


# ------------------------------------------------------------------ parser
class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="pybcv", description="Is classifier A really better than classifier B? "
                "The 5x2 BCV McNemar test and 16 rival tests.")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)

    c = sub.add_parser("compare", help="compare two learners on a data set with the battery of tests")
    c.add_argument("--csv", help="CSV file with your data (default: an EXP6 data set)")
    c.add_argument("--target", default="class", help="class column of --csv (default: class)")
    c.add_argument("--a", help="learner A, e.g. J48-unpruned or fnn-weighted:omega=0.29")
    c.add_argument("--b", help="learner B")
    c.add_argument("--tests", default="all", help="all (17), table5 (14) or k1,k2,...")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--n", type=int, help="size of the built-in EXP6 data set (default 300)")
    c.add_argument("--profile", default="default", help="default or paper (TESTS_SPEC §9)")
    c.add_argument("--backend", default="auto", choices=["auto", "r", "python"])
    c.add_argument("--alpha", type=float, default=0.05)
    c.set_defaults(fn=cmd_compare)

    s = sub.add_parser("simulate", help="type-I error / power simulation, stored durably")
    s.add_argument("--dataset", required=True, help="epsilon, simple, exp6 or letter")
    s.add_argument("--param", help="epsilon: eps; simple: delta; exp6: omega; letter: upsilon. "
                   "Several values (comma separated) give a power curve in --out/param=<v>/")
    s.add_argument("--n", type=int, help="data set size (default: the paper's)")
    s.add_argument("--tests", default="table5", help="all, table5 (default) or k1,k2,...")
    s.add_argument("--reps", type=int, default=1000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--jobs", type=int, default=1, help="worker processes (joblib)")
    s.add_argument("--out", required=True, help="folder for results.sqlite and summary.csv")
    s.add_argument("--resume", action="store_true", help="continue a stored run")
    s.add_argument("--scheduler", help="dask.distributed scheduler address")
    s.add_argument("--profile", default="default", help="default or paper")
    s.add_argument("--backend", default="auto", choices=["auto", "r", "python"])
    s.add_argument("--a", help="learner A (default: the paper's for the data set)")
    s.add_argument("--b", help="learner B")
    s.add_argument("--no-share", action="store_true", help="each test fits its own partition")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(fn=cmd_simulate)

    r = sub.add_parser("report", help="Markdown report of simulation folders, beside the paper")
    r.add_argument("dirs", nargs="+", help="simulate --out folders (type-I runs or power curves)")
    r.add_argument("--out", help="write the report here (PNG power curves next to it)")
    r.add_argument("--profile", help="re-score the runs under this profile (default: as run)")
    r.add_argument("--title", default="pybcv replication report")
    r.set_defaults(fn=cmd_report)

    t = sub.add_parser("truth", help="true error rates and the FNN parameter (exp6, letter)")
    t.add_argument("--dataset", required=True)
    t.add_argument("--grid", required=True, help="values of B's parameter, comma separated")
    t.add_argument("--sets", type=int, default=100, help="training data sets (paper: 1000)")
    t.add_argument("--train-n", type=int, help="training-set size (default: the data set's n)")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--backend", default="auto", choices=["auto", "r", "python"])
    t.add_argument("--backend-b", choices=["auto", "r", "python"],
                   help="backend of B only (the FNNs' Python twins equal the R code)")
    t.add_argument("--out", help="write the result as JSON")
    t.add_argument("--quiet", action="store_true")
    t.set_defaults(fn=cmd_truth)
    return p


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.fn(args)
    except UsageError as e:
        return _fail(str(e))
    except PermissionError as e:
        return _fail(str(e))
    except (ValueError, RuntimeError, IndexError) as e:
        # a learner that crashes, R or Java missing, data a learner cannot use:
        # the message names the learner, the fold and the partition design
        if os.environ.get("PYBCV_TRACEBACK"):
            raise
        notes = " ".join(getattr(e, "__notes__", []))
        print(f"pybcv: error: {e}{' ' + notes if notes else ''}\n"
              f"(set PYBCV_TRACEBACK=1 to see the traceback)", file=sys.stderr)
        return EXIT_RUNTIME
    except KeyboardInterrupt:
        print("pybcv: interrupted (finished repetitions are stored; continue with --resume)",
              file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
