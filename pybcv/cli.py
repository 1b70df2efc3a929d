"""Command line: ``pybcv compare | test | folds | simulate | report | truth | archive | rq1``.

Every argument is checked before any work: a bad one (``--alpha 1.5``,
``--seed -1``, ``--n 1``, an unknown learner, test or design, an unreachable
``--scheduler``, a CSV without the target column, ``report --out`` naming a
folder, ...) prints ``pybcv: error: ...`` naming it on stderr and exits with
code 2.  A failure while running (a learner that crashes, R or Java missing)
prints the message, which names the learner, the fold and the partition
design, and exits with code 1.  No traceback for either (``PYBCV_TRACEBACK=1``
shows it).  Ctrl-C exits with code 130 (finished repetitions stay stored);
a closed pipe (``pybcv compare | head``) ends quietly.  ``--json`` prints one
machine-readable object on stdout.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import os
import time
import sys
import threading
import warnings
import csv
import datetime as _dt
from typing import List, Optional, Sequence

import numpy as np
from tqdm import tqdm

from ._deferred import deferred
from . import __version__, _malloc, interrupts, mnist, rq1
from . import datasets as D
from ._validate import int_at_least
from .comparison import (ADJUSTMENTS, compare, compare_many, design_notes,
                         compare_predictions, design_generator, JSON_SCHEMA, test_options,
                         wrong_design_message)
from .engine import ALPHA, RunConfig, simulate, simulate_curve
from .engine.simulation import check_curve_values, check_scheduler
from .engine import archive
from .engine.config import score
from .engine.repetition import learner_free_batch
from .engine.truth import TUNING, tune
from .errors import (ArgumentError, ConfigMismatch, DataError, LearnerContext, TextColumnsError,
                     StoreError)
from .experiments import (BACKENDS, COMPARE_DEFAULTS, DEMO_LEARNERS, EXPERIMENTS, RQ1_DATASETS,
                          SIMULATE_DEFAULTS)
from .learners import LEARNERS, check_learner
from .learners.importpath import is_import_path, split_params
from .learners.timelimit import MIN_TIMEOUT_S, check_timeout
from .partitions import DESIGNS, design_splitter
from .pipeline import as_learner, learner_label, spec_dict
from .report import build_report, failure_lines
from .stats import ALTERNATIVES, PROFILES, TESTS, designs_for, profile_options, resolve_tests
from . import validity as V

pd = deferred("pandas")     # imported on first use: 0.2 s of start-up (_deferred.py)

EXIT_USAGE = 2
EXIT_RUNTIME = 1     # a learner or R failed while running
EXIT_INTERRUPTED = interrupts.EXIT_INTERRUPTED
EXIT_BROKEN_PIPE = 141


class UsageError(Exception):
    """A bad argument: exit code 2 with the message."""


#: set by main() when the command line asks for --json: errors are then also
#: one JSON object on stdout (docs/guide/json.md, "Errors")
_JSON_ERRORS = {"command": None}


def _say_error(text: str, rc: int) -> int:
    """``pybcv: error: text`` on stderr and, under --json, the error object
    {"schema", "command", "error": {"message", "exit_status"}} on stdout."""
    print(f"pybcv: error: {text}", file=sys.stderr)
    if _JSON_ERRORS["command"] is not None:
        print(json.dumps({"schema": JSON_SCHEMA, "command": _JSON_ERRORS["command"],
                          "error": {"message": text, "exit_status": rc}}, indent=1))
    return rc


def _fail(msg: str) -> int:
    return _say_error(_cli_words(msg), EXIT_USAGE)


# ------------------------------------------------------------------ argument types (argparse: exit 2)
def _alpha(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number in (0, 1), got {s!r}") from None
    if not 0.0 < v < 1.0:
        raise argparse.ArgumentTypeError(f"must lie strictly between 0 and 1, got {s}")
    return v


_seed = int_at_least(0, "a non-negative integer")
_positive = int_at_least(1, "an integer >= 1")
#: a simulation's repetitions and records: every repetition is a row of the
#: store, every record a value of each drawn data set (memory)
MAX_REPS, MAX_N = 10 ** 7, 10 ** 7
_reps = int_at_least(1, "an integer >= 1", MAX_REPS, " (a run stores every repetition; run larger "
                                                    "ones as several seeds)")
_n = int_at_least(2, "an integer >= 2 (the number of records)")


def _seconds(s: str) -> float:
    try:
        return check_timeout(float(s), "--timeout")
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds (at least "
                                         f"{MIN_TIMEOUT_S:g}), got {s!r}") from None


def _separator(s: str) -> str:
    s = {"\\t": "\t", "tab": "\t"}.get(s, s)
    if len(s) != 1:
        raise argparse.ArgumentTypeError(f"must be one character (or \\t), got {s!r}")
    return s


# ------------------------------------------------------------------ checks of meaning
def _tests(arg) -> List[str]:
    try:
        return resolve_tests(arg)
    except ValueError as e:
        raise UsageError(f"--tests: {e}") from None


def _loss(arg: Optional[str]):
    """``--loss``: a name (zero_one, squared, absolute) or a cost matrix, rows
    separated by ``;`` and entries by ``,`` (``"0,1;5,0"``: rows the true class,
    columns the predicted class, labels sorted)."""
    if arg is None or "," not in arg:
        return arg
    try:
        return [[float(v) for v in row.split(",")] for row in arg.split(";")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"a cost matrix is numbers, rows separated by ';' and "
                                         f"entries by ',' (e.g. 0,1;5,0); got {arg!r}") from None


def _design(arg: str) -> str:
    if arg not in DESIGNS:
        raise argparse.ArgumentTypeError(f"unknown partition design {arg!r}; known: "
                                         f"{', '.join(sorted(DESIGNS))}")
    return arg


def _test_option(s: str):
    """``test.option=value`` (``--option mcnemar_5x2bcv.t=1.5``) -> (test, option, value);
    value: a number, true/false, none, or text."""
    key, sep, value = s.partition("=")
    test, dot, name = key.partition(".")
    if not (sep and dot and test.strip() and name.strip()):
        raise argparse.ArgumentTypeError(f"give test.option=value (e.g. mcnemar_5x2bcv.t=1.5), got {s!r}")
    test, name, v = test.strip(), name.strip(), value.strip()
    words = {"true": True, "false": False, "none": None, "null": None}
    if v.lower() in words:
        return test, name, words[v.lower()]
    for number in (int, float):
        try:
            return test, name, number(v)
        except ValueError:
            pass
    return test, name, v


def _options(a, tests):
    """The per-test options of --alternative and --option, checked against the
    registry (a usage error naming the test and option)."""
    opts = {}
    for test, name, val in (a.option or []):
        opts.setdefault(test, {})[name] = val
    try:
        test_options(tests, a.profile, opts, a.alternative)
    except (ValueError, TypeError) as e:
        flag = "--profile" if getattr(e, "argument", None) == "profile" else "--option/--alternative"
        raise UsageError(f"{flag}: {e}") from None
    return opts


def _profile(arg: str) -> str:
    try:
        profile_options(arg)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return arg


def _learner(arg: Optional[str], option: str, backend: str = "python"):
    """A learner spec dict, its name and parameters checked against the
    backend that will run it (no fit; ``pybcv.learners.check_learner``)."""
    if arg is None:
        return None
    try:
        spec = spec_dict(arg)
    except (ValueError, TypeError) as e:
        raise UsageError(f"{option}: {e}") from None
    name = spec["name"]              # name and parameters checked by spec_dict
    if is_import_path(name):          # a scikit-learn classifier
        return spec
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_learner(name, backend=backend, **{k: v for k, v in spec.items() if k != "name"})
    except (ValueError, TypeError) as e:
        msg = str(e).replace("backend='r'", "--backend r")
        if msg.startswith(f"{name}: "):
            msg = msg[len(name) + 2:]
        raise UsageError(f"{option}: {msg}" if msg.startswith("learner")
                         else f"{option}: learner {name!r}: {msg}") from None
    return spec


def _learner_list(arg: str, backend: str = "python") -> List[dict]:
    """``a,b:k=1,c`` -> specs; a piece ``param=value`` (no ':' before its '=')
    continues the previous spec, and commas inside brackets, parentheses or
    quotes separate nothing (``MLPClassifier:hidden_layer_sizes=(10,5),b``)."""
    try:
        parts = split_params(arg)
    except ValueError as e:
        raise UsageError(f"--learners: {e}; commas inside (), [], {{}} or quotes do not separate "
                         f"learners, so every bracket and quote must be closed") from None
    pieces: List[str] = []
    for p in parts:
        if "=" in p and ":" not in p.partition("=")[0] and pieces:
            pieces[-1] += "," + p
        else:
            pieces.append(p)
    if len(pieces) < 2:
        raise UsageError(f"--learners: give at least 2 learners separated by commas, got {arg!r}")
    return [_learner(p, "--learners", backend) for p in pieces]


def _writable_dir(path: str, option: str = "--out") -> str:
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, ".pybcv_write_test")
        with open(probe, "w") as f:
            f.write("")
        os.remove(probe)
    except OSError as e:
        raise UsageError(f"{option}: output folder {path!r} is not writable ({e.strerror or e})") from None
    return path


def _output_file(path: Optional[str], option: str = "--out") -> Optional[str]:
    """A file to write (none when not given): its folder must exist (never
    created silently) and be writable."""
    if not path:
        return path
    if os.path.isdir(path):
        raise UsageError(f"{option}: {path!r} is a folder; give a file name inside it")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"{option}: the folder {os.path.dirname(path)!r} of {path!r} does not "
                         f"exist; create it first or write into an existing folder")
    _writable_dir(folder, option)
    return path


def _plot_file(path: str) -> str:
    """The file --plot writes: a name without an extension gets .png (as
    matplotlib saves it); an extension matplotlib cannot write is refused."""
    from matplotlib.backend_bases import FigureCanvasBase
    kinds = FigureCanvasBase.get_supported_filetypes()
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    if not ext:
        path += ".png"
    elif ext not in kinds:
        raise UsageError(f"--plot: cannot write a .{ext} file; give a name ending in one of "
                         + ", ".join(f".{k}" for k in sorted(kinds)))
    return _output_file(path, "--plot")


def _floats(s: str, option: str) -> List[float]:
    try:
        vals = [float(v) for v in s.split(",") if v.strip()]
    except ValueError:
        raise UsageError(f"{option} takes numbers separated by commas, got {s!r}") from None
    if not vals or not all(math.isfinite(v) for v in vals):
        raise UsageError(f"{option} takes finite numbers separated by commas, got {s!r}")
    return vals


def _refuse_csv_options(a, without: str) -> None:
    """A --csv reading option given without --csv is a usage error (it would
    be ignored, silently: ``without`` says what runs instead)."""
    for name in ("target", "sep", "decimal", "na_values", "drop_missing"):
        flags, kw = SHARED[name]
        opt, value = flags[0], getattr(a, name)
        if value != kw.get("default", False if kw.get("action") == "store_true" else None):
            raise UsageError(f"{opt} says how --csv is read, but no --csv was given ({without}): "
                             f"give --csv, or leave {opt} out")


def _check_n(n: int, designs: List[str], option: str = "--n"):
    need = max(DESIGNS[d].min_n for d in designs)
    if n < need:
        raise UsageError(f"{option}: the design(s) {', '.join(designs)} need at least {need} records, got {n}")


def _cli_words(msg: str) -> str:
    """A message of pybcv.datasets in the command line's words (options, not
    keyword arguments)."""
    for py, cli in (("pass it in na_values with drop_missing=True",
                     "pass it with --na-values and add --drop-missing"),
                    ("pass drop_missing=True", "add --drop-missing"),
                    ("drop_missing=True", "--drop-missing"),
                    ("decimal=','", "--decimal ,"),
                    ("target='<column>'", "--target <column>"),
                    (" or a callable (y_true, y_pred) -> per-record losses", "")):
        msg = msg.replace(py, cli)
    msg = re.sub(r"\bsep=('[^']*')", r"--sep \1", msg)
    msg = re.sub(r"\bdesign='(\w+)'", r"--design \1", msg)
    # loss='squared' or 'absolute' -> --loss squared or absolute (not in "compare(..., loss='log')")
    return re.sub(r"(?<!\.\.\., )\bloss='(\w+)'(?: or '(\w+)')?",
                  lambda m: f"--loss {m[1]}" + (f" or {m[2]}" if m[2] else ""), msg)


def _load_csv(a):
    """The --csv data of ``compare``: every violation of the input contract
    (``pybcv.datasets.load_csv``) is a usage error naming column and line."""
    markers = [m for m in (a.na_values or "").split(",") if m != ""] if a.na_values else []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            data = D.load_csv(a.csv, a.target, sep=a.sep, na_values=markers,
                              drop_missing=a.drop_missing, groups=a.groups, decimal=a.decimal)
    except (D.DataError, ValueError) as e:
        raise UsageError(f"--csv: {_cli_words(str(e))}") from None
    # how the data were read (decimal commas, categorical columns): never hidden by
    # --quiet (progress only); the comparison's warnings carry them into --json
    a.data_notes = [_cli_words(str(w.message)) for w in caught if issubclass(w.category, UserWarning)]
    for note in a.data_notes:
        print(f"pybcv: note: {note}", file=sys.stderr)
    return data


def _backend_note(backend, spec, requested: str) -> str:
    """Where one learner ran, said of that learner alone (its own parenthesis
    in the backend line): the paper's R learner, a Python fallback, or a
    scikit-learn estimator, which runs in Python whatever --backend says."""
    name = spec.get("name")
    if is_import_path(name):
        return "a scikit-learn estimator: always runs in Python"
    parts = set(str(backend).split("/"))
    if parts == {"r"}:
        return "the paper's R learner"
    if name in LEARNERS and not LEARNERS[name].has_r:
        return "a Python-only learner"
    if parts == {"python"}:
        why = "--backend python asks for it" if requested == "python" else "R is unavailable"
        return f"Python fallback, as {why}; results differ from the paper's R learner"
    return "partly R, partly the Python fallback"


def _sim_backends(res, requested: str) -> str:
    """Where A and B ran over a simulation's repetitions (each stores "a/b")."""
    pairs = [str(b).split("/") for b in res.backends]
    if not all(len(p) == 2 for p in pairs):
        return "/".join(sorted(set(res.backends)))
    sides = ["/".join(sorted({p[i] for p in pairs})) for i in (0, 1)]
    specs = (res.config.learner_a or {}, res.config.learner_b or {})
    return ", ".join(f"{side} {b} ({_backend_note(b, sp, requested)})"
                     for side, b, sp in zip("AB", sides, specs))


def _print_command_json(command: str, data: str, body: dict):
    """One JSON object of schema pybcv.comparison.JSON_SCHEMA (docs/guide/json.md):
    "schema", "command", "data", then the command's own fields."""
    def clean(x):
        if isinstance(x, float) and not math.isfinite(x):
            return None
        if isinstance(x, dict):
            return {str(k): clean(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [clean(v) for v in x]
        if hasattr(x, "item"):        # numpy scalars
            return clean(x.item())
        return x
    obj = {"schema": JSON_SCHEMA, "command": command, "data": data,
           **{k: v for k, v in body.items() if k != "schema"}}
    print(json.dumps(clean(obj), indent=1, allow_nan=False))


# ------------------------------------------------------------------ compare
def cmd_compare(a) -> int:
    tests = _tests(a.tests)
    options = _options(a, tests)
    if a.learners and (a.a or a.b):
        raise UsageError("--learners replaces --a/--b; give one or the other")
    if a.learners:
        specs = _learner_list(a.learners, a.backend)
    else:
        defaults = COMPARE_DEFAULTS if a.csv else DEMO_LEARNERS      # pybcv.experiments
        specs = [_learner(a.a, "--a", a.backend) or dict(defaults["learner_a"]),
                 _learner(a.b, "--b", a.backend) or dict(defaults["learner_b"])]
    if a.plot and not a.learners:
        raise UsageError("--plot draws the k-learner comparison; use it with --learners")
    if a.plot:
        a.plot = _plot_file(a.plot)
    if a.csv:
        if a.n is not None:
            raise UsageError("--n sets the size of the built-in EXP6 data; it does not apply to --csv")
        data = _load_csv(a)
        src = f"{a.csv} (target {a.target!r}, n = {data.n})"
    else:
        if a.groups:
            raise UsageError("--groups names a column of --csv; the built-in EXP6 data has no groups")
        _refuse_csv_options(a, "pybcv compare runs on the built-in EXP6 data")
        need = max([D.MIN_RECORDS] + [DESIGNS[d].min_n for d in designs_for(tests)])
        if a.n is not None and a.n < need:
            raise UsageError(f"--n: a comparison on {', '.join(designs_for(tests))} needs at least "
                             f"{need} records, got {a.n}")
        data = D.exp6(a.seed, n=EXPERIMENTS["exp6"].n if a.n is None else a.n)
        src = f"EXP6 (n = {data.n}, drawn from seed {a.seed})"
    _check_n(data.n, designs_for(tests), "--csv" if a.csv else "--n")
    if a.stratify and a.groups:
        raise UsageError("--stratify and --groups cannot be combined: give one of them")
    folds = {"stratify": a.stratify, "groups": data.groups}
    for d in designs_for(tests):
        try:
            design_splitter(d, a.stratify, data.groups is not None)
        except ValueError as e:
            why = str(e).split(": ", 1)[-1]
            raise UsageError(f"{'--stratify' if a.stratify else '--groups'} with --tests {a.tests}: "
                             f"{why}") from None
    if a.stratify:
        src += "; folds stratified by class"
    elif a.groups:
        src += f"; folds of whole groups of column {a.groups!r} ({len(set(data.groups.tolist()))} groups)"
    progress = not (a.quiet or a.json)
    with warnings.catch_warnings(record=True):   # said in the comparison's warnings
        warnings.simplefilter("always")
        kw = dict(tests=a.tests, seed=a.seed, loss=a.loss, profile=a.profile, backend=a.backend,
                  n_jobs=a.jobs, progress=progress, alpha=a.alpha, alternative=a.alternative,
                  options=options, timeout=a.timeout, **folds)
        try:
            res = (compare_many(data, None, specs, adjust=a.adjust, **kw) if a.learners
                   else compare(data, None, *specs, **kw))   # data read and checked: noted above
        except TextColumnsError as e:       # a trial fit, before any fold
            raise UsageError(f"{'--learners' if a.learners else '--a/--b'}: {e}") from None
        except ArgumentError as e:          # named by the argument it is about
            msg, given = str(e), "--learners" if a.learners else "--a/--b"
            if e.argument == "groups" and a.groups:
                raise UsageError(f"--groups {a.groups}: {e}") from None
            if e.argument == "stratify":
                raise UsageError("--stratify: " + msg.replace("stratify=True", "it", 1)
                                 .replace("leave stratify False", "drop --stratify")) from None
            named = {"y": f"--target {a.target}: {e}", "tests": f"--tests {a.tests}: {e}",
                     "options": f"--option: {msg.removeprefix('options: ')}"}
            if e.argument in named:
                raise UsageError(named[e.argument]) from None
            if e.argument in ("learners", "loss"):
                msg = msg.replace("the target y", f"--target {a.target}" if a.csv else "y")
                if not a.learners and (a.a is None) != (a.b is None):
                    side = "b" if a.b is None else "a"
                    msg += f" (--{side} was not given: it defaults to {learner_label(specs[side == 'b'])})"
                raise UsageError(f"{'--loss' if a.loss is not None else given}: {msg}") from None
            raise
    # the learners' own warnings (scikit-learn's ConvergenceWarning, glm's, ...) are in the
    # comparison's warnings, once per learner and message (printed with it, and in --json)
    for c in (res.comparisons.values() if a.learners else [res]):
        c.warnings[:] = getattr(a, "data_notes", []) + c.warnings
    if a.plot:                       # (--plot comes with --learners only)
        res.plot(path=a.plot)
    if a.json:
        _print_command_json("compare --learners" if a.learners else "compare", src, res.to_json())
        return 0
    print(f"data: {src}")
    if a.learners:
        print(res)
        if a.plot:
            print(f"wrote {a.plot}", file=sys.stderr)
        return 0
    print("backend: " + ", ".join(f"{side} ran in {b} ({_backend_note(b, sp, a.backend)})"
                                  for side, b, sp in zip("AB", res.backends, specs))
          + f"; requested --backend {a.backend}")
    print(res)
    A, E = res.averaged_table, res.effective_table
    if A is not None:
        print()
        print(f"5x2 BCV averaged table (mean of 10 folds)      effective table (t = {res.bcv_t:.4f})")
        print("              B wrong   B right                  B wrong   B right")
        print(f"  A wrong  {A[0,0]:8.2f}  {A[0,1]:8.2f}               {E[0,0]:8.2f}  {E[0,1]:8.2f}")
        print(f"  A right  {A[1,0]:8.2f}  {A[1,1]:8.2f}               {E[1,0]:8.2f}  {E[1,1]:8.2f}")
    return 0


# ------------------------------------------------------------------ folds, test
def cmd_folds(a) -> int:
    design = a.design
    data = None
    if (a.stratify or a.groups) and not a.csv:
        raise UsageError(f"{'--stratify' if a.stratify else '--groups'} reads the "
                         f"{'classes (--target)' if a.stratify else 'groups column'} of --csv: "
                         f"give --csv")
    if a.stratify and a.groups:
        raise UsageError("--stratify and --groups cannot be combined: give one of them")
    if not a.csv:
        _refuse_csv_options(a, "pybcv folds numbers the records 0..n-1 of --n")
    try:
        design_splitter(design, a.stratify, bool(a.groups))
    except ValueError as e:
        raise UsageError(f"--design {design}: {str(e).split(': ', 1)[-1]}") from None
    if a.csv:                         # the classes or groups come from --csv, as in compare
        data = _load_csv(a)
        if a.n is not None and a.n != data.n:
            raise UsageError(f"--n {a.n}, but --csv has {data.n} records; leave --n out")
        a.n = data.n
    elif a.n is None:
        raise UsageError("give --n (the number of records) or --csv")
    _check_n(a.n, [design])
    _output_file(a.out)
    try:              # exactly the (train, test) pairs compare(seed=...) fits
        splits = design_splitter(design, a.stratify, bool(a.groups)).splits(
            a.n, design_generator(a.seed, design), y=data.y if a.stratify else None,
            groups=data.groups if a.groups else None)
    except ValueError as e:
        raise UsageError(f"--groups {a.groups}: {e}" if a.groups else f"--stratify: {e}") from None
    for note in design_notes({design: splits}, data.y if data else None, a.stratify,
                             data.groups if a.groups else None):
        print(f"note: {note}", file=sys.stderr)
    if a.train:
        lines = ["fold,row,set"] + [f"{f},{int(r)},{side}" for f, (tr, te) in enumerate(splits)
                                    for side, rows in (("train", tr), ("test", te)) for r in rows]
    else:
        lines = ["fold,row"] + [f"{f},{int(r)}" for f, (_, te) in enumerate(splits) for r in te]
    text = "\n".join(lines) + "\n"
    if a.out:
        with open(a.out, "w") as fh:
            fh.write(text)
        training = ("set says which rows train and which test each fold" if a.train else
                    "the training rows are NOT the other rows: the first 15 folds train on the "
                    "other rows, the half-sample folds on part of a half; write them with --train"
                    if design == "conservative_z" else
                    "each fold's training rows are all the other rows")
        print(f"wrote {a.out}: {len(splits)} folds of design {design} (n = {a.n}, seed {a.seed}); "
              f"rows are 0-based (the first record is row 0); {training}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


PREDICTION_COLUMNS = ("fold", "row", "y", "pred_a", "pred_b")


def read_predictions(path: str, sep: str = ",", n: Optional[int] = None, decimal: str = "."):
    """(y[n], pred_a per fold, pred_b per fold, test sets) from a CSV with
    columns fold,row,y,pred_a,pred_b (folds 0..F-1, rows 0-based); labels
    are compared as text.  ValueError naming the column and line."""
    if not os.path.exists(path):
        raise ValueError(f"predictions file not found: {path}")
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            header = [h.strip() for h in next(csv.reader(fh, delimiter=sep), [])]
        df = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False)
    except Exception as e:
        raise ValueError(f"cannot read {path} as CSV: {e}") from None
    dup = sorted({h for h in header if header.count(h) > 1})
    if dup:
        raise ValueError(f"{path}: column {dup[0]!r} appears {header.count(dup[0])} times in the "
                         f"header (line 1); every column needs its own name")
    missing = [c for c in PREDICTION_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {', '.join(missing)}; need {','.join(PREDICTION_COLUMNS)}"
                         f" (columns are: {', '.join(map(str, df.columns))})")
    extra = [str(c) for c in df.columns if c not in PREDICTION_COLUMNS]
    if extra:
        raise ValueError(f"{path}: column(s) {', '.join(map(repr, extra))} would be ignored: the file "
                         f"holds exactly {','.join(PREDICTION_COLUMNS)} (two models' predictions; "
                         f"to compare more models, pybcv compare --learners); remove the others")
    if len(df) == 0:
        raise ValueError(f"{path}: no records")
    ints = {}
    for c in ("fold", "row"):
        v = pd.to_numeric(df[c], errors="coerce")
        bad = np.flatnonzero(~(v.notna() & (v == v.round()) & (v >= 0)).to_numpy())
        if bad.size:
            raise ValueError(f"{path}: column {c!r}, line {bad[0] + 2}: {df[c].iloc[bad[0]]!r} is not a "
                             f"non-negative integer")
        big = np.flatnonzero((v >= 2 ** 31).to_numpy())
        if big.size:
            raise ValueError(f"{path}: column {c!r}, line {big[0] + 2}: {df[c].iloc[big[0]]!r} is "
                             f"far too large for a {c} number (0-based, below the number of "
                             f"{'folds' if c == 'fold' else 'records'})")
        ints[c] = v.to_numpy().astype(np.int64)
    for c in ("y", "pred_a", "pred_b"):
        if decimal == ",":               # numbers with decimal commas (a regression's)
            df[c] = df[c].str.replace(",", ".", regex=False)
        empty = np.flatnonzero((df[c].str.strip() == "").to_numpy())
        if empty.size:
            raise ValueError(f"{path}: column {c!r}, line {empty[0] + 2}: empty value")
    fold, row = ints["fold"], ints["row"]
    one_based = " (folds and rows are 0-based, as pybcv folds writes them: if yours start at 1, " \
                "subtract 1)"
    F = int(fold.max()) + 1
    if F > len(df):      # every fold has a line at least
        raise ValueError(f"{path}: fold {F - 1} on line {int(np.argmax(fold)) + 2}, but the file "
                         f"has {len(df)} lines: folds are numbered 0, 1, ... without gaps")
    present = np.unique(fold)
    if present.size != F:
        gap = int(np.setdiff1d(np.arange(F), present)[0])
        raise ValueError(f"{path}: folds must be numbered 0..{present.size - 1 if gap == 0 else F - 1}; "
                         f"fold {gap} has no line" + (one_based if gap == 0 else ""))
    # a design tests at least a third of the records, so n <= 3 (lines + 1)
    most = 3 * (len(df) + 1)
    if n is not None and n > most:
        raise ValueError(f"n = {n}, but the file has {len(df)} predictions, which no design of "
                         f"{n} records can have (at most n = {most})")
    if n is None:
        if row.max() >= most:
            raise ValueError(f"{path}: column 'row', line {int(np.argmax(row)) + 2}: row "
                             f"{int(row.max())} cannot be a record of a data set of which the file "
                             f"lists {len(df)} predictions (rows are 0-based record numbers)")
        if row.min() >= 1:
            raise ValueError(f"{path}: no line has row 0" + one_based)
        n = int(row.max()) + 1
    if row.max() >= n:
        raise ValueError(f"{path}: column 'row' holds {row.max()}, but n = {n}, so rows are "
                         f"0..{n - 1}" + (one_based if row.max() == n else ""))
    y = np.full(n, df["y"].iloc[0], dtype=object)
    seen = np.zeros(n, bool)
    for i, (r, lab) in enumerate(zip(row, df["y"])):
        if seen[r] and y[r] != lab:
            raise ValueError(f"{path}: row {r} has label {y[r]!r} and, on line {i + 2}, {lab!r}")
        y[r], seen[r] = lab, True
    idx = [np.flatnonzero(fold == f) for f in range(F)]      # each fold's lines
    pa, pb = ([df[c].to_numpy(object)[i] for i in idx] for c in ("pred_a", "pred_b"))
    return y, pa, pb, [row[i] for i in idx]


def cmd_test(a) -> int:
    design = a.design
    tests = None
    if a.tests is not None:
        tests = _tests(a.tests)
        wrong = [k for k in tests if TESTS[k].design != design]
        if wrong:
            need = sorted({TESTS[k].design for k in wrong})
            raise UsageError(f"--tests: {wrong_design_message(wrong, design)}: write the folds "
                             f"with pybcv folds --design {need[0]}, predict on them and give "
                             f"--design {need[0]}"
                             + ("" if len(need) == 1 else " (one design per pybcv test run)"))
    options = _options(a, tests if tests is not None else _tests(design))
    if a.loss in ("log", "log_loss"):
        raise UsageError("--loss log: a predictions file holds one label (or number) per record "
                         "in pred_a and pred_b, not class probabilities, which the log loss "
                         "reads; give Python's compare_predictions(..., loss='log') each fold's "
                         "probabilities (records x classes), or let pybcv compare fit the "
                         "learners (pybcv compare --loss log)")
    if a.decimal == "," and a.sep == ",":
        raise UsageError("--decimal , needs another field separator, such as --sep ';'")
    try:
        y, pa, pb, test_sets = read_predictions(a.predictions, a.sep, a.n, a.decimal)
    except ValueError as e:
        raise UsageError(f"--predictions: {e}") from None
    try:
        res = compare_predictions(y, pa, pb, test_sets=test_sets, design=design, tests=tests,
                                  profile=a.profile, alpha=a.alpha, alternative=a.alternative,
                                  options=options, loss=a.loss or "zero_one")
    except ValueError as e:
        where = "--loss" if str(e).startswith("loss") else "--predictions"
        comma = next((x for x in (D.decimal_comma_example(v) for v in (y, pa[0], pb[0]))
                      if x is not None), None) if a.decimal == "." else None
        if comma is not None:             # said first: the other advice follows from it
            raise UsageError(f"--predictions: the values are numbers with decimal commas (e.g. "
                             f"{comma!r}): add --decimal , (with --sep ';'); read with decimal "
                             f"points they fail: {e}") from None
        raise UsageError(f"{where}: {_cli_words(str(e))}") from None
    src = f"{a.predictions} ({len(test_sets)} folds of {design}, n = {res.n})"
    if a.json:
        _print_command_json("test", src, res.to_json())
        return 0
    print(f"predictions: {src}")
    print(res)
    return 0


# ------------------------------------------------------------------ simulate
def cmd_simulate(a) -> int:
    ds = a.dataset.lower()
    if ds not in EXPERIMENTS:
        raise UsageError(f"--dataset: unknown data set {a.dataset!r}; known: {', '.join(EXPERIMENTS)}")
    experiment = EXPERIMENTS[ds]
    tests = _tests(a.tests)
    la, lb = _learner(a.a, "--a", a.backend), _learner(a.b, "--b", a.backend)
    if experiment.learner_free and (la or lb):
        raise UsageError(f"--a/--b: {ds} is learner-free (fixed per-record losses or "
                         f"predictions); they do not apply")
    n = a.n if a.n is not None else experiment.n
    _check_n(n, designs_for(tests))
    if n > MAX_N:
        raise UsageError(f"--n: at most {MAX_N:,} records, got {n:,}")
    values = _floats(a.param, "--param") if a.param else [None]
    try:
        check_curve_values([v for v in values if v is not None])
    except ValueError as e:
        raise UsageError(str(e)) from None
    if experiment.varies == "learner_b" and a.param and lb and experiment.varied in lb:
        raise UsageError(f"--b sets {experiment.varied}, which --param varies: leave it out of --b")
    try:
        base = RunConfig(ds, a.tests, seed=a.seed, n=a.n, learner_a=la, learner_b=lb,
                         profile=a.profile, backend=a.backend, share_designs=not a.no_share,
                         loss=a.loss)
        check_scheduler(a.scheduler, "--scheduler")     # reached before any work
    except (ValueError, OSError) as e:
        raise UsageError(str(e)) from None
    for v in values:                 # every point checked before any work
        try:
            point = base if v is None else base.at(v)
            if experiment.learner_free and not point.zero_one:
                score(point, learner_free_batch(point, [0]))    # its losses' range: one repetition
            elif v is not None and experiment.varies == "data":
                point.datasets_for([0])          # the data parameters: one data set drawn
            elif v is not None:
                as_learner(point.learner_b, a.backend)      # the learner parameter
        except (ValueError, TypeError) as e:
            raise UsageError(f"--param {v:g}: {e}" if v is not None else str(e)) from None
    _writable_dir(a.out)

    def announce(v, folder):
        if not (a.quiet or a.json):
            print(f"--- {experiment.varied} = {v:g} -> {folder}", file=sys.stderr)
    options = dict(jobs=a.jobs, resume=a.resume, scheduler=a.scheduler,
                   progress=not (a.quiet or a.json), timeout=a.timeout)
    try:
        if values == [None]:
            runs = [(None, simulate(base, a.reps, out=a.out, **options))]
        else:
            runs = simulate_curve(base, values, a.reps, out=a.out, announce=announce, **options)
    except ConfigMismatch as e:
        raise UsageError(str(e)) from None
    for v, res in runs:             # --resume with fewer --reps than stored (said under --json too)
        held = len(res.reps) + len(res.failures)
        if held > a.reps:
            failed = f" ({len(res.failures)} failed)" if res.failures else ""
            print(f"pybcv: note: {res.out or a.out} holds {held} repetitions{failed}, more than "
                  f"--reps {a.reps}: all of them are reported", file=sys.stderr)
    curve = len(values) > 1 or (values != [None] and os.path.exists(os.path.join(a.out, "power.csv")))
    written = os.path.join(a.out, "power.csv" if curve else "summary.csv")
    if a.json:
        _print_command_json("simulate", ds, {
            "alpha": ALPHA, "param": experiment.varied, "out": written,
            "runs": [{"param_value": v, **res.to_json()} for v, res in runs]})
        return 0
    for v, res in runs:
        head = f"{ds}" + ("" if v is None else f" {experiment.varied}={v:g}")
        truth = res.config.true_difference()
        print(f"# {head}: {len(res.reps)} repetitions, profile {a.profile}, seed {a.seed}, "
              f"fits per repetition A {res.fits_per_rep[0]:.0f} / B {res.fits_per_rep[1]:.0f}"
              + (f", backend {_sim_backends(res, a.backend)}" if res.backends != ("none",) else ""))
        rate = "type-I error" if truth is not None else "rejection rate"
        print(f"{'test':<22} {rate:>12}  {'MC SE':>6}" + ("  95% CI coverage" if truth is not None else ""))
        for row in res.summary_rows():
            cov = row["ci_coverage"]
            print(f"{row['test']:<22} {row['rejection_rate']:>12.3f}  {row['mc_se']:>6.3f}"
                  + (("  " + ("-" if math.isnan(cov) else f"{cov:.3f}")) if truth is not None else ""))
        for line in failure_lines(res.failures, "{n} repetition(s) failed and are left out of "
                                  "the rates above (stored; listed by `pybcv report`):", "  "):
            print(line, file=sys.stderr)
    print(f"wrote {written}", file=sys.stderr)
    return 0


# ------------------------------------------------------------------ rq1
def _file_errors(fn):
    """A command on files (``pybcv rq1``, ``pybcv archive``): a missing
    folder, a bad data set, a damaged store or archive is a plain message,
    exit 2."""
    def run(a):
        try:
            return fn(a)
        except (ValueError, TypeError, OSError, StoreError) as e:
            raise UsageError(str(e)) from None
    run.__doc__ = fn.__doc__
    return run


@_file_errors
def cmd_rq1_run(a) -> int:
    """Run or resume the experiment record ``rq1`` on each data set (one
    engine run each, ``--out/runs/<dataset>``), then write the report."""
    names = [D.check_name(d, "--datasets") for d in a.datasets.split(",") if d]
    check_scheduler(a.scheduler, "--scheduler")     # its errors: exit 2 (_file_errors)
    files = a.data or D.uci_dir()
    for d in names:
        if not os.path.exists(os.path.join(files, d + ".csv.gz")):
            raise UsageError(f"data set {d!r}: no file {d}.csv.gz in {files}")
    record = EXPERIMENTS["rq1"]
    configs = {d: RunConfig("rq1", record.tests, seed=a.seed, n=a.n_sample,
                            data_params={"file": d}, backend=a.backend, data_dir=a.data)
               for d in names}
    done = {}
    for d, cfg in configs.items():
        folder = rq1.run_folder(a.out, d)
        if archive.is_run(folder) and not os.path.exists(os.path.join(folder, archive.SQLITE_NAME)):
            print(f"[rq1] {d}: unpacking {folder}/{archive.FILE_NAME} to resume from it",
                  file=sys.stderr, flush=True)
            archive.to_sqlite(folder)
        if a.progress:
            print(f"[rq1] {d}", file=sys.stderr, flush=True)
        res = simulate(cfg, a.reps, jobs=a.jobs, out=folder, resume=True, progress=a.progress,
                       scheduler=a.scheduler, chunk=a.chunk, stop_after=a.stop_after)
        done[d] = int(len(res.reps))
    print(json.dumps(done))
    return cmd_rq1_report(a)


@_file_errors
def cmd_rq1_report(a) -> int:
    df, obs = rq1.report(a.out, a.report or a.out)
    print(json.dumps(obs, indent=1))
    return 0


# ------------------------------------------------------------------ report
def cmd_report(a) -> int:
    for d in a.dirs:
        if not os.path.isdir(d):
            raise UsageError(f"not a folder: {d}")
    _output_file(a.out)
    try:
        text = build_report(a.dirs, profile=a.profile, out=a.out, title=a.title)
    except (FileNotFoundError, ValueError) as e:
        raise UsageError(str(e)) from None
    if a.out:
        print(f"wrote {a.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


# ------------------------------------------------------------------ validity
def _until(s: str) -> float:
    """HH:MM (UTC) -> seconds since the epoch of its next occurrence (a time
    already past today is tomorrow's: ``--until 00:25`` given at 22:40)."""
    try:
        h, m = (int(x) for x in s.split(":"))
        now = _dt.datetime.now(_dt.timezone.utc)
        at = now.replace(hour=h, minute=m, second=0, microsecond=0)
        if at <= now:
            at += _dt.timedelta(days=1)
        return at.timestamp()
    except ValueError:
        raise argparse.ArgumentTypeError(f"--until takes HH:MM (UTC), got {s!r}") from None


def cmd_validity(a) -> int:
    say = (lambda s: None) if a.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    names = a.families or None
    unknown = [f for f in names or () if f not in V.FAMILY]
    if unknown:
        raise UsageError(f"--families: unknown {unknown}; known: {', '.join(V.FAMILY)}")
    if a.action == "run":
        lf = {"all": None, "learner-free": True, "learners": False}[a.kind]
        V.run(_writable_dir(a.runs, "--runs"), names, a.until, lf, a.jobs, say)
    elif a.action == "score":
        if not os.path.isdir(a.runs):
            raise UsageError(f"--runs: no folder {a.runs!r} (the stores that `pybcv validity run "
                             f"--runs FOLDER` writes)")
        if not os.path.isdir(os.path.join(a.rq1, "runs")):
            raise UsageError(f"--rq1: no RQ1 runs in {a.rq1!r} (a folder holding runs/<data set>/, "
                             f"as `pybcv rq1 run --out FOLDER` writes)")
        missing = [f for f in (V.RESULTS, "families.csv", "candidates.csv")
                   if names and not os.path.exists(os.path.join(a.out, f))]
        if missing:
            raise UsageError(f"--families re-scores some families into the results in --out, "
                             f"but {a.out!r} has no {', '.join(missing)}: score every family first")
        V.score(a.runs, _writable_dir(a.out), say, names)
        V.candidates(a.runs, a.out, say, names, a.rq1)
        if names is None:
            V.rq1_coverage(a.rq1, a.out, say)
    else:
        V.report(_writable_dir(a.out))
        say(f"wrote {os.path.join(a.out, 'README.md')}")
    return 0


# ------------------------------------------------------------------ truth
def cmd_truth(a) -> int:
    ds = a.dataset.lower()
    if ds == "mnist":
        return _truth_mnist(a)
    if ds not in TUNING:
        raise UsageError(f"--dataset: true-error tuning is defined for {', '.join([*TUNING, 'mnist'])}; "
                         f"got {a.dataset!r}")
    a.sets = 100 if a.sets is None else a.sets
    grid = _floats(a.grid, "--grid") if a.grid else list(EXPERIMENTS[ds].truth_grid)
    _output_file(a.out)
    res = tune(ds, grid, n_sets=a.sets, n_train=a.train_n, seed=a.seed, backend=a.backend,
               progress=not a.quiet, backend_b=a.backend_b)
    _save_json(a.out, res)
    print(f"{ds}: mu_A = {res['mu_a']:.4f} (SE {res['mu_a_se']:.4f}); "
          f"{res['param']} at H0 = {res['param_h0']:.4f}")
    for g, m in zip(res["grid"], res["mu_b"]):
        print(f"  {res['param']} = {g:g}: mu_B = {m:.4f}")
    for t in res["targets"]:
        print(f"  lambda = {t['lambda']:.1f}: target {t['mu_target']:.4f} -> {res['param']} = {t[res['param']]:.4f}")
    return 0


def _save_json(path: Optional[str], obj):
    """Write ``obj`` as JSON to ``path`` (nothing when no path)."""
    if path:
        with open(path, "w") as f:
            f.write(json.dumps(obj, indent=1) + "\n")


def _truth_mnist(a) -> int:
    """True error rates of the MNIST CNNs as the paper computes them (train on
    --sets data sets, error on the population), at the reduced defaults of
    :mod:`pybcv.mnist`; --grid: B's dropout rates."""
    sets = mnist.TRUTH_DATA_SETS if a.sets is None else a.sets
    rates = _floats(a.grid, "--grid") if a.grid else list(EXPERIMENTS["mnist"].power_grid)
    if any(not 0 <= g < 1 for g in rates):
        raise UsageError(f"--grid: dropout rates must lie in [0, 1), got {a.grid!r}")
    _output_file(a.out)
    epochs = EXPERIMENTS["mnist"].learner_a.get("epochs", mnist.DEFAULT_EPOCHS)
    n = a.train_n if a.train_n is not None else EXPERIMENTS["mnist"].n // 2
    res = mnist.true_errors(n, epochs, rates, sets, a.seed, eval_size=a.eval_size,
                            progress=None if a.quiet else (lambda s: print(s, file=sys.stderr)))
    _save_json(a.out, res)
    print(f"mnist: true errors over {sets} data sets of {n} images, {epochs} epochs, "
          f"evaluated on {res['eval_size']} images")
    for k, v in res["errors"].items():
        print(f"  {k}: {v['error']:.4f} (SE {v['se']:.4f})")
    return 0


# ------------------------------------------------------------------ archive
def _folders_with(name: str, folders: Sequence[str]) -> List[str]:
    found = []
    for top in folders:
        if not os.path.isdir(top):
            raise FileNotFoundError(f"not a folder: {top}")
        for d, subdirs, files in os.walk(top):
            subdirs.sort()
            if name in files:
                found.append(d)
    return found


@_file_errors
def cmd_archive_convert(a) -> int:
    stores = _folders_with(archive.SQLITE_NAME, a.folders)
    if not stores:
        print(f"no {archive.SQLITE_NAME} under {', '.join(a.folders)}", file=sys.stderr)
        return 1
    store_files = [archive.SQLITE_NAME + s for s in ("", "-wal", "-shm")]
    before = after = 0
    for d in stores:
        t0 = time.perf_counter()
        path = archive.from_sqlite(d)
        present = [os.path.join(d, f) for f in store_files if os.path.exists(os.path.join(d, f))]
        b, n = sum(map(os.path.getsize, present)), os.path.getsize(path)
        before, after = before + b, after + n
        if a.delete_sqlite:
            for f in present:
                os.remove(f)
        print(f"{d}: {b / 1e6:.2f} MB -> {n / 1e6:.3f} MB, identical, {time.perf_counter() - t0:.1f} s"
              + (" (store deleted)" if a.delete_sqlite else ""))
    print(f"{len(stores)} run(s): {before / 1e6:.2f} MB -> {after / 1e6:.2f} MB")
    return 0


@_file_errors
def cmd_archive_verify(a) -> int:
    bad = 0
    stores = _folders_with(archive.SQLITE_NAME, a.folders)
    if not stores:                   # nothing verified is not "identical"
        print(f"no {archive.SQLITE_NAME} under {', '.join(a.folders)}", file=sys.stderr)
        return 1
    for d in stores:
        if not archive.is_run(d):
            print(f"{d}: no {archive.FILE_NAME}")
            bad += 1
            continue
        diff = archive.differences(archive.read_sqlite(d), archive.read_run(d))
        print(f"{d}: " + ("identical" if not diff else "DIFFERS: " + ", ".join(diff)))
        bad += bool(diff)
    return 1 if bad else 0


@_file_errors
def cmd_archive_show(a) -> int:
    for d in a.folders:
        run = archive.read_run(d)
        cfg = run["config"]
        print(f"{d}: {cfg.get('dataset')} seed {cfg.get('seed')} profile {cfg.get('profile')}, "
              f"{len(run['reps'])} repetitions, {len(run['results'])} tests, "
              f"designs {', '.join(f'{k} {v.shape[1]} folds' for k, v in run['tables'].items()) or 'none'}")
    return 0


@_file_errors
def cmd_archive_unpack(a) -> int:
    stores = {d: os.path.join(d, archive.SQLITE_NAME) for d in _folders_with(archive.FILE_NAME, a.folders)}
    todo = [d for d, s in stores.items() if not os.path.exists(s)]
    odd = [s for s in stores.values() if os.path.exists(s) and not os.path.isfile(s)]
    if odd:
        raise ValueError(f"{odd[0]} is not a file (a folder?): cannot be a store; move it away "
                         f"to unpack the archive there")
    for d in todo:
        print(archive.to_sqlite(d))
    print(f"{len(todo)} archive(s) unpacked")
    return 0


# ------------------------------------------------------------------ parser
class _Parser(argparse.ArgumentParser):
    def error(self, message):
        _say_error(f"{message} (see: {self.prog} --help)", EXIT_USAGE)
        sys.exit(EXIT_USAGE)


_LOSS_HELP = ("per-record loss: zero_one (classifiers' default), squared (regressors' default), "
              "absolute, log (the log loss of scikit-learn classifiers with predict_proba), or a "
              "cost matrix such as 0,1;5,0 (rows the true class, labels sorted); under any loss "
              "but zero_one the McNemar tests and the proportion z (0/1 outcomes only) do not run "
              "(docs/guide/losses.md)")

#: The options several subcommands share, each declared once: name -> (flags,
#: argparse keywords).  A subcommand picks them with :func:`_shared`.
SHARED = {
    "seed": (("--seed",), dict(type=_seed, default=0, help=(
        "seed of every partition and drawn data set (default %(default)s); the same seed gives "
        "the same folds in Python, the CLI and R"))),
    "alpha": (("--alpha",), dict(type=_alpha, help="level of the decisions: reject H0 when "
                                                   "p < alpha (default %(default)s)")),
    "backend": (("--backend",), dict(default="auto", choices=list(BACKENDS), help=(
        "where the registry learners run: auto (R where available, else the Python fallback), "
        "r or python (default %(default)s); scikit-learn estimators always run in Python"))),
    "profile": (("--profile",), dict(type=_profile, help=(
        "option profile: " + ", ".join(PROFILES) + ' (docs/conventions.md, "The paper profile")'))),
    "tests": (("--tests",), dict(help="all, table5 (default), a design or k1,k2,...")),
    "loss": (("--loss",), dict(type=_loss, help=_LOSS_HELP)),
    "timeout": (("--timeout",), dict(type=_seconds, metavar="SECONDS", help=(
        "time limit of one fit; a longer fit fails naming learner, design and fold (a "
        "Python fit is stopped between Python instructions: one long compiled call, such "
        "as libsvm's, runs to its end first)"))),
    "jobs": (("--jobs",), dict(type=_positive, default=1, help="worker processes (default 1)")),
    "json": (("--json",), dict(action="store_true", help="one JSON object on stdout")),
    "quiet": (("--quiet",), dict(action="store_true", help="no progress bar")),
    "scheduler": (("--scheduler",), dict(help="dask.distributed scheduler address")),
    "alternative": (("--alternative",), dict(choices=ALTERNATIVES, help=(
        "H1 on error(A) - error(B) for every selected test that has one (default: each test's "
        "own, two-sided); the one-sided 5x2 BCV McNemar test holds alpha where the "
        "two-sided one does in the validity battery (docs/validity); the one-sided "
        "10-fold t, corrected RHO t, CV-CI z and proportion z were liberal where their "
        "two-sided tests hold, and the one-sided corrected 10x10 CV t more liberal than its "
        "two-sided test, so they are withdrawn and those tests run two-sided, with a note"))),
    "option": (("--option",), dict(type=_test_option, action="append", metavar="TEST.OPTION=VALUE",
                                   help="a test's option, e.g. mcnemar_5x2bcv.t=1.5 (repeatable)")),
    "design": (("--design",), dict(default="bcv5x2", type=_design,
                                   help="partition design (default bcv5x2)")),
    # how --csv is read (compare, folds; test reads --predictions with --sep and --decimal)
    "target": (("--target",), dict(default="class", help=(
        "target column of --csv: classes, or numbers for regressors (default: class)"))),
    "sep": (("--sep",), dict(type=_separator, default=",",
                             help="field separator of --csv (default ,)")),
    "decimal": (("--decimal",), dict(choices=(".", ","), default=".",
                                     help="decimal mark of numbers in --csv (default .; with , "
                                          "use e.g. --sep ';')")),
    "na_values": (("--na-values",), dict(help=(
        "extra missing-value markers of --csv, comma separated (always missing: empty, ?, NA, "
        "NaN, ...); a missing value is an error naming its column and line unless "
        "--drop-missing"))),
    "drop_missing": (("--drop-missing",), dict(action="store_true", help=(
        "drop the records of --csv that hold a missing value (reported); rows are then "
        "numbered among the records kept"))),
    "stratify": (("--stratify",), dict(action="store_true", help=(
        "stratified 5x2 BCV: the blocks are formed within the classes"))),
    "groups": (("--groups",), dict(metavar="COLUMN", help=(
        "grouped 5x2 BCV: the blocks are whole groups of this --csv column (not a predictor); "
        "no group is on both sides of a fold"))),
}


def _shared(p, names: str, defaults: Optional[dict] = None, **own):
    """Add the shared options ``names`` (:data:`SHARED`) to subcommand ``p``:
    the default from ``defaults`` (the command's record) where it has the
    name, and ``own[name]`` on top (keywords, or a text: the help in the
    command's words)."""
    for name in names.split():
        flags, kw = SHARED[name]
        kw = {**kw, **({"default": defaults[name]} if name in (defaults or {}) else {})}
        extra = own.get(name, {})
        p.add_argument(*flags, **{**kw, **({"help": extra} if isinstance(extra, str) else extra)})


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="pybcv", description="Is classifier A really better than classifier B? "
                "The 5x2 BCV McNemar test and its rival tests.")
    p.add_argument("--version", action="version", version=f"pybcv {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    cd, dl = COMPARE_DEFAULTS, DEMO_LEARNERS

    def spec(d):
        return d["name"] + "".join(f":{k}={v}" for k, v in d.items() if k != "name")

    c = sub.add_parser("compare", help="compare two (or k) learners on a data set")
    c.add_argument("--csv", help="CSV file with your data (default: an EXP6 data set)")
    _shared(c, "target sep decimal na_values drop_missing stratify groups")
    c.add_argument("--a", help=f"learner A (default with --csv {spec(cd['learner_a'])}, on the "
                   f"EXP6 demonstration {spec(dl['learner_a'])}), e.g. kknn:k=5, or any "
                   f"scikit-learn classifier by import path, e.g. "
                   f"sklearn.ensemble.RandomForestClassifier:n_estimators=200")
    c.add_argument("--b", help=f"learner B (default with --csv {spec(cd['learner_b'])}, on the "
                   f"EXP6 demonstration {spec(dl['learner_b'])})")
    c.add_argument("--learners", help="k learners, comma separated: every pair is tested, "
                   "p-values adjusted (--adjust)")
    c.add_argument("--adjust", choices=ADJUSTMENTS, default="holm",
                   help="multiplicity adjustment for --learners (default holm)")
    c.add_argument("--plot", help="with --learners: write the matrix of adjusted p-values (PNG)")
    _shared(c, "tests loss seed", cd, tests=(
        f"a design's tests (default {cd['tests']}: 10 fits per learner), all, table5 (the "
        f"paper's Table 5) or keys k1,k2,...: " + ", ".join(TESTS)))
    c.add_argument("--n", type=_n, help=f"size of the built-in EXP6 data set (default {EXPERIMENTS['exp6'].n})")
    _shared(c, "profile backend alpha timeout jobs json quiet alternative option", cd,
            jobs="processes fitting the designs",
            quiet="no progress bar (notes on how --csv was read are still printed)")
    c.set_defaults(fn=cmd_compare)

    f = sub.add_parser(
        "folds", help="write a design's folds (fold,row) to fit your own models on",
        description="Writes one line per test record of every fold: fold,row.  Folds are numbered "
                    "0..F-1 in the design's order and rows are 0-based (the first data record is "
                    "row 0).  A fold's training rows are all the other rows, except in "
                    "conservative_z, whose half-sample folds train on part of a half: --train "
                    "writes fold,row,set with every training and test row.  The folds are those "
                    "of pybcv compare --seed S; pybcv test reads the predictions made on them.")
    f.add_argument("--n", type=_n, help="number of records (with --csv: its records)")
    f.add_argument("--csv", help="with --stratify or --groups: the data whose classes or groups "
                   "form the blocks (read as pybcv compare reads it)")
    _shared(f, "target sep decimal na_values drop_missing stratify groups",
            decimal="decimal mark of numbers in --csv (default .; as in pybcv compare)",
            stratify="the folds of pybcv compare --stratify (blocks within the classes)",
            groups="the folds of pybcv compare --groups COLUMN (blocks of whole groups)")
    f.add_argument("--train", action="store_true",
                   help="also write each fold's training rows (fold,row,set; set = train or test)")
    _shared(f, "seed design", cd)
    f.add_argument("--out", help="CSV file (default: stdout)")
    f.set_defaults(fn=cmd_folds)

    t = sub.add_parser("test", help="the tests of a design from your own per-fold predictions")
    t.add_argument("--predictions", required=True, help="CSV with columns fold,row,y,pred_a,pred_b "
                   "(folds and rows 0-based, as pybcv folds writes them)")
    _shared(t, "design", design="the design of the folds (default bcv5x2)")
    t.add_argument("--n", type=_n, help="number of records (default: largest row + 1)")
    _shared(t, "tests sep decimal loss profile alpha json alternative option", cd,
            tests={"default": None, "help": "keys of tests of the design (default: all of them)"},
            sep="field separator of --predictions (default ,)",
            decimal="decimal mark of numeric y and predictions (default .; with , use --sep ';')",
            loss=_LOSS_HELP.replace("regressors' default", "for numeric predictions").replace(
                "log (the log loss of scikit-learn classifiers with predict_proba), ", ""),
            json="one JSON object keyed by test")
    t.set_defaults(fn=cmd_test)

    sd = SIMULATE_DEFAULTS
    s = sub.add_parser("simulate", help="type-I error / power simulation, stored durably")
    s.add_argument("--dataset", required=True, help=", ".join(EXPERIMENTS))
    s.add_argument("--param", help="; ".join(f"{k}: {e.varied}" for k, e in EXPERIMENTS.items()
                                             if e.varied)
                   + ". Several values (comma separated) give a power curve in --out/param=<v>/")
    s.add_argument("--n", type=_n, help="data set size (default: the experiment's)")
    _shared(s, "tests", sd)
    s.add_argument("--reps", type=_reps, default=sd["reps"],
                   help="repetitions (data sets drawn) per point (default %(default)s)")
    _shared(s, "seed jobs timeout", sd, jobs="worker processes (joblib)", timeout=(
        "time limit of one fit; a repetition with a longer fit is recorded as failed"))
    s.add_argument("--out", required=True, help="folder for results.sqlite and summary.csv")
    s.add_argument("--resume", action="store_true", help="continue a stored run")
    _shared(s, "scheduler profile backend", sd,
            scheduler="dask.distributed scheduler address (tcp://host:port)")
    s.add_argument("--a", help="learner A (default: the experiment's)")
    s.add_argument("--b", help="learner B")
    s.add_argument("--no-share", action="store_true", help="each test fits its own partition")
    _shared(s, "loss json quiet", loss=(
        "per-record loss (default: the experiment's): zero_one, squared, absolute or a cost "
        "matrix such as 0,1;5,0; under a real-valued loss only the t, F and z tests run "
        "(docs/guide/losses.md)"))
    s.set_defaults(fn=cmd_simulate)

    r = sub.add_parser("report", help="Markdown report of simulation folders, beside the paper")
    r.add_argument("dirs", nargs="+", help="simulate --out folders (type-I runs or power curves)")
    r.add_argument("--out", help="write the report to this file (PNG power curves next to it)")
    _shared(r, "profile", profile="re-score the runs under this profile (default: as run)")
    r.add_argument("--title", default="pybcv replication report",
                   help="title of the report (default: %(default)s)")
    r.set_defaults(fn=cmd_report)

    u = sub.add_parser("truth", help="true error rates: the FNN parameter (exp6, letter), "
                       "the CNNs (mnist)")
    u.add_argument("--dataset", required=True, help="exp6, letter or mnist")
    u.add_argument("--grid", help="values of B's parameter, comma separated (default: the experiment's)")
    u.add_argument("--sets", type=int_at_least(2), help="training data sets (default 100; mnist 3; paper: 1000, "
                   "mnist 100)")
    u.add_argument("--train-n", type=_n, help="training-set size (default: the data set's n; "
                   "mnist: n/2, a 5x2 fold)")
    u.add_argument("--eval-size", type=_n, help="mnist: score on this many population images "
                   "(a fixed random subset; default all 60,000)")
    _shared(u, "seed backend")
    u.add_argument("--backend-b", choices=list(BACKENDS),
                   help="backend of B only (the FNNs' Python twins equal the R code)")
    u.add_argument("--out", help="write the result as JSON")
    _shared(u, "quiet")
    u.set_defaults(fn=cmd_truth)

    v = sub.add_parser("validity", help="the validity battery (docs/validity): run, score, report")
    v.add_argument("action", choices=("run", "score", "report"),
                   help="run: the families (resumable); score: counts from the stored runs; "
                   "report: docs/validity/README.md and the plot")
    v.add_argument("--runs", default="validity_runs", help="folder of the stores (default %(default)s)")
    v.add_argument("--out", default=os.path.join("docs", "validity"),
                   help="folder of the results (default %(default)s)")
    v.add_argument("--families", nargs="*", help="run or score only these families (names as "
                   "in docs/validity/README.md); score: re-scores them into the results already "
                   "in --out, the other families' rows and RQ1's coverage kept")
    v.add_argument("--kind", default="all", choices=("all", "learner-free", "learners"),
                   help="which families: the learner-free ones, those with learners, or all "
                        "(default %(default)s)")
    v.add_argument("--until", type=_until, help="stop starting new work at HH:MM UTC")
    v.add_argument("--rq1", default=V.RQ1_RUNS, help="score: the RQ1 runs whose coverage is "
                   "scored (a `pybcv rq1 run --out` folder; default the committed archive "
                   "%(default)s)")
    _shared(v, "jobs quiet")
    v.set_defaults(fn=cmd_validity)
    ar = sub.add_parser("archive", help="compact run archives (run.npz) of simulate --out folders")
    asub = ar.add_subparsers(dest="archive_cmd", required=True, parser_class=_Parser)
    for name, fn, text in (
            ("convert", cmd_archive_convert, "results.sqlite -> run.npz in every run folder under "
                                             "FOLDER, checked bit for bit"),
            ("verify", cmd_archive_verify, "compare results.sqlite and run.npz wherever both exist"),
            ("show", cmd_archive_show, "summary of archived runs"),
            ("unpack", cmd_archive_unpack, "run.npz -> results.sqlite in every run folder under "
                                           "FOLDER that has none (so that simulate --resume "
                                           "continues the run)")):
        x = asub.add_parser(name, help=text)
        x.add_argument("folders", nargs="+", metavar="FOLDER")
        x.set_defaults(fn=fn)
    asub.choices["convert"].add_argument("--delete-sqlite", action="store_true", help=(
        "delete each store once its archive reads back identical"))

    q = sub.add_parser("rq1", help="the paper's RQ1 on the UCI data sets (run|report)",
                       description="The paper's RQ1: the distribution of rho1 and rho2 on UCI "
                       "data sets (the engine's experiment record rq1; report: pybcv.rq1).")
    qsub = q.add_subparsers(dest="rq1_cmd", required=True, parser_class=_Parser)
    x = qsub.add_parser("run", help="run or resume the experiment, then write the report")
    x.add_argument("--data", help="folder with <dataset>.csv.gz files (default: the offline UCI "
                   "folder, $PYBCV_DATA/uci)")
    x.add_argument("--out", required=True, help="output folder (one engine run per data set "
                   "in runs/<dataset>; resumable, also from their run.npz archives)")
    x.add_argument("--reps", type=_reps, default=1000,
                   help="repetitions per data set (default %(default)s)")
    _shared(x, "seed")
    x.add_argument("--datasets", default=",".join(RQ1_DATASETS),
                   help=f"comma-separated data set names (default: all {len(RQ1_DATASETS)})")
    x.add_argument("--n-sample", type=int_at_least(4), default=EXPERIMENTS["rq1"].n,
                   help="records drawn from each data set per repetition (default %(default)s)")
    _shared(x, "backend jobs scheduler", {"backend": "r"})
    x.add_argument("--chunk", type=_positive, default=5, help="repetitions per work unit")
    x.add_argument("--stop-after", type=_positive,
                   help="run at most this many repetitions of each data set in this call")
    x.add_argument("--report", help="folder for rho.csv and the scatter (default: --out)")
    x.add_argument("--progress", action="store_true", help="show a progress bar")
    x.set_defaults(fn=cmd_rq1_run)
    x = qsub.add_parser("report", help="rho.csv, rho_scatter.png, observations.json from the "
                        "runs under --out/runs (stores or run.npz archives)")
    x.add_argument("--out", required=True, help="the folder given to pybcv rq1 run --out")
    x.add_argument("--report", help="folder for the report files (default: --out)")
    x.set_defaults(fn=cmd_rq1_report)
    return p


def _known_errors() -> tuple:
    """Errors whose message names the problem in full (no traceback hint)."""
    known = [LearnerContext, DataError, StoreError]
    try:
        from r_bridge import RUnavailableError
        known.append(RUnavailableError)
    except ImportError:
        pass
    return tuple(known)


#: seconds Ctrl-C waits for R (or Java inside R) to return before the
#: command line ends itself (a long C routine does not check for interrupts)
INTERRUPT_GRACE_S = 3.0


def _end_on_stuck_interrupt():
    """The program (not main() called from Python) ends within
    INTERRUPT_GRACE_S of Ctrl-C even when R is inside a long C routine
    (``r_bridge.session.exit_on_stuck_interrupt``)."""
    try:
        from r_bridge import session
    except ImportError:       # pragma: no cover
        return
    session.exit_on_stuck_interrupt = (
        INTERRUPT_GRACE_S, f"pybcv: interrupted (R had not stopped {INTERRUPT_GRACE_S:g} s after "
                           f"Ctrl-C; ended; finished repetitions of a simulation are stored)",
        EXIT_INTERRUPTED)


def main(argv: Optional[List[str]] = None) -> int:
    if argv is None:
        _end_on_stuck_interrupt()
        _malloc.tune()                  # the command only (pybcv/_malloc.py)
        # the command's bars are all drawn by this process (its workers draw
        # none), so tqdm needs no multiprocessing lock: making one imports
        # multiprocessing and a semaphore, ~13 ms of every start (issue 23)
        tqdm.set_lock(threading.RLock())
    words = list(sys.argv[1:] if argv is None else argv)
    _JSON_ERRORS["command"] = (None if "--json" not in words else
                               next((w for w in words if not w.startswith("-")), "pybcv")
                               + (" --learners" if any(w.startswith("--learners") for w in words) else ""))
    try:
        args = build_parser().parse_args(argv)      # None: sys.argv[1:]
    except SystemExit as e:          # --help, --version (0) or a bad argument (2)
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    developer = bool(os.environ.get("PYBCV_TRACEBACK"))
    try:
        interrupts.end_quiet_start()     # from here Ctrl-C is a KeyboardInterrupt, handled below
        rc = args.fn(args)
        sys.stdout.flush()
        return rc
    except UsageError as e:
        return _fail(str(e))
    except KeyboardInterrupt:
        hint = {"simulate": " (finished repetitions are stored; continue with --resume)",
                "rq1": " (finished repetitions are stored; the same command resumes)"}
        print("pybcv: interrupted" + hint.get(args.cmd, ""), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader went away (pybcv compare | head): no noise, no flush error at exit
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_BROKEN_PIPE
    except Exception as e:
        if developer:
            raise
        if isinstance(e, PermissionError):
            return _fail(str(e))
        if isinstance(e, MemoryError):
            return _fail(f"out of memory ({e or 'MemoryError'}): the data (--n, --csv) or the "
                         f"designs need more memory than this machine has; use fewer records")
        if isinstance(e, _known_errors()):
            # a learner that fails on the data (R, Java, predictions that are not
            # labels), a damaged results file, R missing: the message says it all
            return _say_error(str(e), EXIT_RUNTIME)
        # anything else: the message, and where to look further
        notes = " ".join(getattr(e, "__notes__", []))
        return _say_error(f"{e}{' ' + notes if notes else ''}\n"
                          f"(set PYBCV_TRACEBACK=1 to see the traceback)", EXIT_RUNTIME)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
