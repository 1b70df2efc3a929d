"""Command line: compare, folds, test, simulate, report; every bad argument
exits with code 2 before any work, naming the argument; no tracebacks."""
import json
import os
import signal
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from pybcv.stats import TESTS

from pybcv.cli import main
from conftest import terminal_sigint, wait_for_stored_reps

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
ENV.pop("PYBCV_TRACEBACK", None)


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def pybcv(*argv, **kw):
    """The command through a subprocess (python -m pybcv)."""
    return subprocess.run([sys.executable, "-m", "pybcv", *argv], env=kw.pop("env", ENV), cwd=ROOT,
                          capture_output=True, text=True, **kw)


def _csv(tmp_path, n=80, target="class", sep=","):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, 2))
    y = np.where(x[:, 0] + 0.5 * rng.standard_normal(n) > 0, "pos", "neg")
    df = pd.DataFrame({"f1": x[:, 0], "f2": x[:, 1], target: y})
    p = tmp_path / ("data.csv" if sep == "," else "data.tsv")
    df.to_csv(p, index=False, sep=sep)
    return str(p)


# ------------------------------------------------------------------ bad input -> exit 2, before any work
def _sim(*args, dataset="epsilon"):
    return ["simulate", "--dataset", dataset, *args, "--out", "{tmp}/o"]


@pytest.mark.parametrize("argv,msg", [
    (_sim(dataset="iris"), "unknown data set"),
    (_sim("--tests", "nope"), "unknown test"),
    (_sim("--b", "svm9", dataset="simple"), "--b: unknown learner"),
    (_sim("--b", "fnn-weighted:gamma=2", dataset="exp6"), "no parameter"),
    *[(_sim(option, value), f"argument {option}")
      for option, value in [("--reps", "0"), ("--reps", "-3"), ("--reps", "many"), ("--jobs", "0"),
                            ("--seed", "-1"), ("--n", "1"), ("--n", "0")]],
    (["simulate", "--dataset", "epsilon", "--out", "{tmp}/afile/sub"], "not writable"),
    (_sim("--profile", "weird"), "unknown profile"),
    (_sim("--n", "9"), "--n: the design(s)"),
    (_sim("--param", "abc"), "--param"),
    (_sim("--scheduler", "tcp://127.0.0.1:1"), "--scheduler: cannot reach"),
    (_sim("--scheduler", "nonsense"), "--scheduler"),
    (["simulate", "--dataset", "epsilon"], "--out"),
    (["compare", "--csv", "{csv}", "--target", "label", "--backend", "python"], "no target column 'label'"),
    (["compare", "--csv", "{tmp}/missing.csv", "--backend", "python"], "not found"),
    (["compare", "--a", "nosuch", "--backend", "python"], "--a: unknown learner"),
    (["compare", "--a", "kknn:k=abc", "--backend", "python"], "--a"),
    (["compare", "--tests", "mcnemar_ho,bogus", "--backend", "python"], "unknown test"),
    *[(["compare", option, value], f"argument {option}")
      for option, value in [("--alpha", "1.5"), ("--alpha", "0"), ("--seed", "-1"), ("--n", "1"),
                            ("--n", "0")]],
    (["compare", "--n", "5"], "--n: a comparison on bcv5x2 needs at least 20 records, got 5"),
    (["compare", "--learners", "glm"], "--learners: give at least 2"),
    (["compare", "--learners", "glm,majority", "--a", "glm"], "--learners replaces"),
    (["compare", "--sep", "ab"], "argument --sep"),
    (["folds", "--n", "100", "--design", "bcv7x2"], "--design: unknown partition design"),
    (["folds", "--n", "1"], "argument --n"),
    (["test", "--predictions", "{tmp}/nope.csv"], "not found"),
    (["test", "--predictions", "{csv}"], "missing column(s) fold"),
    (["report", "{tmp}/empty"], "neither a simulation folder"),
    (["report", "{tmp}/nofolder"], "not a folder"),
    (["report", "{tmp}/empty", "--out", "{tmp}/full"], "is a folder"),
    (["truth", "--dataset", "simple", "--grid", "1"], "defined for"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_exits_2(tmp_path, capsys, argv, msg):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "empty").mkdir()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.md").write_text("keep me")
    csv = _csv(tmp_path)
    argv = [a.format(tmp=tmp_path, csv=csv) for a in argv]
    rc, out, err = run(capsys, *argv)
    assert rc == 2, err
    assert msg in err and err.startswith("pybcv: error:"), err
    assert "Traceback" not in err and out == ""
    assert not os.path.exists(tmp_path / "o" / "results.sqlite")      # no work was done
    assert (tmp_path / "full" / "x.md").read_text() == "keep me"


def test_bad_input_exits_2_through_a_subprocess(tmp_path):
    r = pybcv("compare", "--alpha", "1.5")
    assert r.returncode == 2 and "argument --alpha" in r.stderr and "Traceback" not in r.stderr
    r = pybcv("simulate", "--dataset", "nope", "--out", str(tmp_path))
    assert r.returncode == 2 and "unknown data set" in r.stderr


def test_version(capsys):
    import pybcv
    rc, out, _ = run(capsys, "--version")
    assert rc == 0 and out.strip() == f"pybcv {pybcv.__version__}"


def test_learner_failure_exits_1_naming_learner_fold_and_design(capsys, monkeypatch):
    monkeypatch.delenv("PYBCV_TRACEBACK", raising=False)
    # glm is a 2-class learner; the built-in EXP6 data has 6 classes
    rc, out, err = run(capsys, "compare", "--a", "glm", "--backend", "python", "--tests", "mcnemar_ho",
                       "--quiet")
    assert rc == 1 and out == ""
    assert err.startswith("pybcv: error: learner 'glm', design 'holdout': glm failed on fold 1 of 1")
    assert "6 classes" in err and "Traceback" not in err and "PYBCV_TRACEBACK" not in err


def test_developer_view_keeps_the_traceback(monkeypatch):
    monkeypatch.setenv("PYBCV_TRACEBACK", "1")
    with pytest.raises(ValueError, match="glm failed"):
        main(["compare", "--a", "glm", "--backend", "python", "--tests", "mcnemar_ho", "--quiet"])


def test_resume_with_other_config_exits_2(tmp_path, capsys):
    out = str(tmp_path / "r")
    assert run(capsys, "simulate", "--dataset", "epsilon", "--reps", "5", "--out", out, "--quiet")[0] == 0
    rc, _, err = run(capsys, "simulate", "--dataset", "epsilon", "--reps", "5", "--out", out, "--quiet")
    assert rc == 2 and "--resume" in err
    rc, _, err = run(capsys, "simulate", "--dataset", "epsilon", "--reps", "5", "--seed", "3",
                     "--out", out, "--resume", "--quiet")
    assert rc == 2 and "configuration differs" in err and "seed" in err


# ------------------------------------------------------------------ simulate + report
def test_simulate_writes_summary_and_report(tmp_path, capsys):
    out = str(tmp_path / "eps")
    rc, stdout, err = run(capsys, "simulate", "--dataset", "epsilon", "--tests", "table5", "--reps", "200",
                          "--seed", "1", "--out", out)
    assert rc == 0
    assert "200/200" in err                                  # tqdm progress on stderr
    s = pd.read_csv(os.path.join(out, "summary.csv"))
    assert {"test", "rejection_rate", "reps", "mc_se", "ci_coverage"} <= set(s.columns)
    assert len(s) == 14 and (s["reps"] == 200).all()
    assert "mcnemar_5x2bcv" in stdout and "type-I error" in stdout and "95% CI coverage" in stdout
    rep = str(tmp_path / "report.md")
    rc, _, _ = run(capsys, "report", out, "--out", rep, "--profile", "paper")
    text = open(rep).read()
    assert rc == 0
    assert "profile: **paper**" in text
    assert "| 5x2 BCV McNemar's test |" in text and "0.025" in text      # paper's value beside ours
    assert "MC SE" in text


def test_simulate_json(tmp_path, capsys):
    rc, out, err = run(capsys, "simulate", "--dataset", "epsilon", "--tests", "mcnemar_5x2bcv,kfold_t",
                       "--reps", "30", "--seed", "2", "--out", str(tmp_path / "j"), "--json")
    assert rc == 0
    obj = json.loads(out)
    run_ = obj["runs"][0]
    assert run_["reps"] == 30 and set(run_["tests"]) == {"mcnemar_5x2bcv", "kfold_t"}
    from pybcv.engine import load_result
    res = load_result(str(tmp_path / "j"))
    assert run_["tests"]["kfold_t"]["rejection_rate"] == res.rejection_rate()["kfold_t"]


def test_power_curve_and_png(tmp_path, capsys):
    out = str(tmp_path / "pw")
    rc, stdout, _ = run(capsys, "simulate", "--dataset", "simple", "--param", "0,1", "--n", "200",
                        "--tests", "mcnemar_5x2bcv,mcnemar_ho", "--reps", "6", "--backend", "python",
                        "--out", out, "--quiet")
    assert rc == 0
    p = pd.read_csv(os.path.join(out, "power.csv"))
    assert sorted(p["param_value"].unique()) == [0.0, 1.0]
    assert "simple delta=1: 6 repetitions" in stdout and "rejection rate" in stdout
    rep = str(tmp_path / "rep" / "r.md")
    os.makedirs(os.path.dirname(rep))
    assert run(capsys, "report", out, "--out", rep)[0] == 0
    assert os.path.exists(os.path.join(os.path.dirname(rep), "power_simple_default.png"))
    assert "power curve" in open(rep).read()


def test_ctrl_c_exits_130_with_finished_repetitions_stored(tmp_path):
    out = str(tmp_path / "int")
    proc = subprocess.Popen([sys.executable, "-m", "pybcv", "simulate", "--dataset", "simple", "--reps",
                             "2000", "--n", "200", "--backend", "python", "--seed", "1", "--quiet",
                             "--out", out], env=ENV, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=terminal_sigint)
    done = wait_for_stored_reps(proc, out, 8)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip().splitlines() == ["pybcv: interrupted (finished repetitions are stored; "
                                        "continue with --resume)"]
    from pybcv.engine import load_result
    assert len(load_result(out).reps) >= done


# ------------------------------------------------------------------ compare
def test_compare_csv(tmp_path, capsys):
    csv = _csv(tmp_path)
    rc, out, _ = run(capsys, "compare", "--csv", csv, "--a", "glm", "--b", "majority",
                     "--backend", "python", "--tests", "table5", "--seed", "2", "--quiet")
    assert rc == 0
    assert "5x2 BCV McNemar's test" in out and "effective table" in out
    assert "backend: A ran in python" in out
    assert out.count("reject H0") + out.count("keep H0") == 14
    assert out.index("* 5x2 BCV McNemar") < out.index("RHO paired")   # the paper's test first, marked


def test_compare_csv_with_another_separator(tmp_path, capsys):
    comma = run(capsys, "compare", "--csv", _csv(tmp_path), "--a", "glm", "--b", "majority",
                "--backend", "python", "--json")
    tab = run(capsys, "compare", "--csv", _csv(tmp_path, sep="\t"), "--sep", "\\t", "--a", "glm",
              "--b", "majority", "--backend", "python", "--json")
    assert comma[0] == tab[0] == 0
    assert json.loads(comma[1])["tests"] == json.loads(tab[1])["tests"]


def test_compare_defaults_come_from_the_experiment_record(capsys):
    """The CLI's demonstration: EXP6's learners at H0, seed 0, 5x2 BCV tests, as
    Python's compare() with those learners."""
    from pybcv import datasets as D
    from pybcv.comparison import compare
    from pybcv.experiments import DEMO_LEARNERS, EXPERIMENTS
    assert DEMO_LEARNERS["learner_b"] == {"name": "fnn-weighted", "omega": 0.29}
    assert EXPERIMENTS["exp6"].h0_value == 0.29
    rc, out, _ = run(capsys, "compare", "--backend", "python", "--json")
    assert rc == 0
    obj = json.loads(out)
    assert obj["comparison"]["learner_b"] == "fnn-weighted:omega=0.29"
    assert obj["comparison"]["seed"] == 0 and obj["comparison"]["fits"] == [10, 10]
    assert list(obj["tests"]) == ["mcnemar_5x2bcv", "calibrated_f_5x2bcv"]
    d = D.exp6(0, n=300)
    py = compare(d.X, d.y, DEMO_LEARNERS["learner_a"], DEMO_LEARNERS["learner_b"], backend="python")
    assert py.learner_b == obj["comparison"]["learner_b"]
    for k, r in py.results.items():
        assert obj["tests"][k]["pvalue"] == pytest.approx(r.pvalue, rel=1e-12)
        assert {"statistic", "pvalue", "df", "estimate", "ci_low", "ci_high"} <= set(obj["tests"][k])


def test_compare_all_tests_is_one_word_away(capsys):
    rc, out, _ = run(capsys, "compare", "--backend", "python", "--seed", "1", "--tests", "all", "--quiet")
    assert rc == 0
    assert "EXP6 (n = 300" in out and "J48-unpruned" in out and "fnn-weighted" in out
    assert out.count("reject H0") + out.count("keep H0") == len(TESTS)
    assert "Python fallback" in out


def test_compare_k_learners_json_and_plot(tmp_path, capsys):
    png = str(tmp_path / "k.png")
    rc, out, _ = run(capsys, "compare", "--learners", "majority,fnn-weighted,fnn-weighted:omega=0.29",
                     "--backend", "python", "--json", "--plot", png)
    assert rc == 0 and os.path.getsize(png) > 1000
    obj = json.loads(out)
    assert len(obj["pairs"]) == 3 * 2                   # 3 pairs x the 2 tests of the 5x2 BCV
    p = obj["pairs"][0]
    assert {"a", "b", "test", "pvalue", "pvalue_holm", "pvalue_shaffer"} <= set(p)
    rc, out, _ = run(capsys, "compare", "--learners", "majority,fnn-weighted", "--backend", "python",
                     "--quiet")
    assert rc == 0 and "majority vs fnn-weighted" in out and "holm" in out


def test_compare_output_into_a_closed_pipe_is_quiet():
    """pybcv compare | head -1: no BrokenPipe traceback."""
    p = subprocess.Popen(f"{sys.executable} -m pybcv compare --backend python --quiet --tests all | head -1",
                         shell=True, env=ENV, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    out, err = p.communicate(timeout=300)
    assert out.startswith("data: EXP6")
    assert "BrokenPipe" not in err and "Traceback" not in err and "Exception ignored" not in err


# ------------------------------------------------------------------ folds out, predictions in
def test_folds_then_own_predictions_equal_compare(tmp_path, capsys):
    """Export the folds, 'fit' on them outside pybcv, feed the predictions back:
    the same tables and p-values as compare() with the same seed."""
    from sklearn.neighbors import KNeighborsClassifier
    from pybcv import datasets as D
    from pybcv.comparison import compare
    folds_csv = str(tmp_path / "folds.csv")
    assert run(capsys, "folds", "--n", "120", "--seed", "7", "--out", folds_csv)[0] == 0
    folds = pd.read_csv(folds_csv)
    assert list(folds.columns) == ["fold", "row"] and sorted(folds["fold"].unique()) == list(range(10))
    assert (folds.groupby("fold").size() == 60).all()
    d = D.exp6(3, n=120)
    rows = []
    for f, g in folds.groupby("fold"):
        te = g["row"].to_numpy()
        tr = np.setdiff1d(np.arange(120), te)
        pa = KNeighborsClassifier(1).fit(d.X[tr], d.y[tr]).predict(d.X[te])
        pb = KNeighborsClassifier(7).fit(d.X[tr], d.y[tr]).predict(d.X[te])
        rows += list(zip([f] * len(te), te, d.y[te], pa, pb))
    pred_csv = tmp_path / "pred.csv"
    pd.DataFrame(rows, columns=["fold", "row", "y", "pred_a", "pred_b"]).to_csv(pred_csv, index=False)
    rc, out, err = run(capsys, "test", "--predictions", str(pred_csv), "--json")
    assert rc == 0, err
    obj = json.loads(out)
    assert obj["schema"] == "pybcv/1" and obj["command"] == "test"
    got = obj["tests"]
    assert set(got) == {"mcnemar_5x2bcv", "calibrated_f_5x2bcv"}
    ref = compare(d.X, d.y, KNeighborsClassifier(1), KNeighborsClassifier(7), seed=7)
    for k, r in ref.results.items():
        assert got[k]["pvalue"] == pytest.approx(r.pvalue, rel=1e-12)
        assert got[k]["statistic"] == pytest.approx(r.statistic, rel=1e-12)
        assert {"df", "estimate", "ci_low", "ci_high"} <= set(got[k])
    rc, out, _ = run(capsys, "test", "--predictions", str(pred_csv))
    assert rc == 0 and "* 5x2 BCV McNemar's test" in out
    r = pybcv("test", "--predictions", str(pred_csv), "--json")
    assert r.returncode == 0 and json.loads(r.stdout) == obj


def test_predictions_that_are_not_the_design_are_refused(tmp_path, capsys):
    """A repeated 2-fold CV that is not a 5x2 BCV, or a fold missing, is refused with the reason."""
    from pybcv.partitions import DESIGNS
    n = 60
    y = np.arange(n) % 2
    rng = np.random.default_rng(0)
    good = [np.sort(t) for t in DESIGNS["bcv5x2"].test_sets(n, rng)]

    def write(folds, name):
        rows = [(f, r, y[r], y[r], 1 - y[r]) for f, te in enumerate(folds) for r in te]
        p = tmp_path / name
        pd.DataFrame(rows, columns=["fold", "row", "y", "pred_a", "pred_b"]).to_csv(p, index=False)
        return str(p)

    rc, out, err = run(capsys, "test", "--predictions", write(good[:8], "short.csv"))
    assert rc == 2 and "cannot be the design 'bcv5x2'" in err and "10 folds" in err
    half = good[:]
    half[1] = good[0]                                   # not complementary halves
    rc, out, err = run(capsys, "test", "--predictions", write(half, "overlap.csv"))
    assert rc == 2 and "cannot be the design" in err
    p = write(good, "one_based.csv")                    # folds numbered 1..10: 0..9 expected
    pd.read_csv(p).assign(fold=lambda d: d.fold + 1).to_csv(p, index=False)
    rc, out, err = run(capsys, "test", "--predictions", p)
    assert rc == 2 and "folds must be numbered 0..9; fold 0 has no line" in err, err


def test_python_dash_m(tmp_path):
    r = pybcv("simulate", "--dataset", "epsilon", "--reps", "20", "--out", str(tmp_path / "e"), "--quiet")
    assert r.returncode == 0 and os.path.exists(tmp_path / "e" / "summary.csv")


def test_compare_csv_missing_values_error_or_dropped(tmp_path, capsys):
    p = tmp_path / "m.csv"
    lines = open(_csv(tmp_path)).read().splitlines()
    lines[5] = lines[5].replace(lines[5].split(",")[1], "-999", 1)   # f2 of file line 6
    lines[9] = lines[9].replace(lines[9].split(",")[0], "?", 1)      # f1 of file line 10
    p.write_text("\n".join(lines) + "\n")
    base = ["compare", "--csv", str(p), "--a", "glm", "--b", "majority", "--backend", "python"]
    rc, out, err = run(capsys, *base, "--quiet")
    assert rc == 2 and out == "" and "f1" in err and "line 10" in err
    rc, out, err = run(capsys, *base, "--na-values", "-999", "--drop-missing", "--json")
    assert rc == 0
    assert json.loads(out)["data"].endswith("n = 78)")     # lines 6 and 10 dropped
    rc, out, err = run(capsys, *base, "--drop-missing")
    assert rc == 0 and "n = 79" in out and "pybcv: note:" in err and "10" in err


def test_rq1_is_a_subcommand(capsys, tmp_path):
    rc, out, _ = run(capsys, "rq1", "--help")
    assert rc == 0 and "rho1 and rho2" in out
    rc, _, err = run(capsys, "rq1", "run", "--data", str(tmp_path), "--out", str(tmp_path), "--reps", "0")
    assert rc == 2 and "--reps: must be an integer >= 1, got 0" in err


def test_compare_and_test_take_alternative_and_test_options(tmp_path, capsys):
    """--alternative reaches every selected test that has one (the one-sided
    5x2 BCV McNemar test included); --option sets one test's option; a bad
    option is a usage error naming the test and the option."""
    rc, out, _ = run(capsys, "compare", "--backend", "python", "--quiet", "--a", "majority",
                     "--alternative", "greater", "--option", "mcnemar_5x2bcv.t=1.5")
    assert rc == 0
    assert "5x2 BCV McNemar's test (H1: greater)" in out and "effective table (t = 1.5000)" in out
    rc, out, _ = run(capsys, "compare", "--backend", "python", "--quiet", "--a", "majority", "--json",
                     "--alternative", "less")
    obj = json.loads(out)
    assert obj["tests"]["mcnemar_5x2bcv"]["pvalue"] > 0.99          # A is worse: "less" keeps H0
    rc, _, err = run(capsys, "compare", "--backend", "python", "--quiet",
                     "--option", "mcnemar_5x2bcv.tt=1")
    assert rc == 2 and "takes no option" in err and "tt" in err
    rc, _, err = run(capsys, "compare", "--backend", "python", "--quiet", "--option", "t=1")
    assert rc == 2 and "test.option=value" in err


@pytest.mark.parametrize("header,row", [
    ("x,class", lambda i: f"{i % 7},{'ab'[i % 3 == 0]}"),                      # one predictor
    ("a,b,c,d,e,class", lambda i: f"{i},{i % 5},{i % 3},k{i % 4},{i * 7 % 11},{'ab'[i % 2]}"),
    ("city,class", lambda i: f"c{i % 40},{'ab'[i % 3 == 0]}"),                 # one categorical
])
def test_csv_with_the_default_learners_works_on_any_csv(tmp_path, capsys, header, row):
    """pybcv compare --csv with the default learners (J48 vs kknn,
    pybcv.experiments.COMPARE_DEFAULTS) on CSVs of 1, 5 and categorical predictors."""
    p = tmp_path / "d.csv"
    p.write_text(header + "\n" + "\n".join(row(i) for i in range(80)) + "\n")
    rc, out, err = run(capsys, "compare", "--csv", str(p), "--backend", "python", "--quiet")
    assert rc == 0, err
    assert "A = J48" in out and "B = kknn" in out


def test_a_predictions_file_with_another_column_is_refused(tmp_path, capsys):
    """A third model's column (pred_c) was silently ignored: the file holds exactly the five
    columns, and the error names the others."""
    from pybcv.partitions import DESIGNS
    n = 60
    y = np.arange(n) % 2
    folds = [np.sort(t) for t in DESIGNS["bcv5x2"].test_sets(n, np.random.default_rng(0))]
    rows = [(f, r, y[r], y[r], 1 - y[r], y[r]) for f, te in enumerate(folds) for r in te]
    p = tmp_path / "three.csv"
    pd.DataFrame(rows, columns=["fold", "row", "y", "pred_a", "pred_b", "pred_c"]).to_csv(p, index=False)
    rc, out, err = run(capsys, "test", "--predictions", str(p))
    assert rc == 2 and "'pred_c' would be ignored" in err and "Traceback" not in err, err


# ------------------------------------------------------------------ --plot paths
def test_plot_without_extension_reports_the_file_it_writes(tmp_path, capsys):
    """--plot x used to say "wrote x" while matplotlib wrote x.png."""
    csv = _csv(tmp_path)
    out = tmp_path / "pairs"
    rc, _, err = run(capsys, "compare", "--csv", csv, "--learners", "majority,kknn,majority",
                     "--backend", "python", "--plot", str(out), "--quiet")
    assert rc == 0 and f"wrote {out}.png" in err
    assert (tmp_path / "pairs.png").is_file() and not out.exists()


@pytest.mark.parametrize("name,msg", [
    ("nonexist/dir/x.png", r"--plot: the folder '.*nonexist/dir' of '.*x\.png' does not exist"),
    ("x.foo", r"--plot: cannot write a \.foo file; give a name ending in one of .*\.pdf.*\.png"),
])
def test_plot_to_a_missing_folder_or_unknown_format_is_refused_before_any_fit(tmp_path, capsys,
                                                                            name, msg):
    import re
    csv = _csv(tmp_path)
    rc, out, err = run(capsys, "compare", "--csv", csv, "--learners", "majority,kknn",
                       "--backend", "python", "--plot", str(tmp_path / name), "--quiet")
    assert rc == 2 and re.search(msg, err) and out == ""
    assert not (tmp_path / "nonexist").exists()          # no folder created


def test_out_file_in_a_missing_folder_is_refused(tmp_path, capsys):
    rc, _, err = run(capsys, "folds", "--n", "40", "--out", str(tmp_path / "no" / "f.csv"))
    assert rc == 2 and "--out: the folder" in err and "does not exist" in err
    assert not (tmp_path / "no").exists()


def test_test_with_tests_of_another_design_says_which_design_and_how(tmp_path, capsys):
    from pybcv.comparison import design_generator
    from pybcv.partitions import DESIGNS
    y = np.arange(60) % 2
    te = [t for _, t in DESIGNS["bcv5x2"].splits(60, design_generator(0, "bcv5x2"))]
    p = tmp_path / "pred.csv"
    p.write_text("fold,row,y,pred_a,pred_b\n" + "".join(
        f"{f},{r},{y[r]},{y[r]},{1 - y[r]}\n" for f, t in enumerate(te) for r in t))
    rc, _, err = run(capsys, "test", "--predictions", str(p), "--tests", "kfold_t,mcnemar_ho")
    assert rc == 2
    assert ("--tests: kfold_t runs on design cv10; mcnemar_ho runs on design holdout, not on "
            "'bcv5x2' (the design of these predictions): write the folds with pybcv folds "
            "--design cv10, predict on them and give --design cv10") in err


@pytest.mark.parametrize("loss", [[], ["--loss", "squared"]])
def test_test_on_decimal_comma_predictions_says_decimal_first(tmp_path, capsys, loss):
    """Regression predictions written with decimal commas, read without
    --decimal ,: the first advice is --decimal , (it used to be --loss)."""
    from pybcv.comparison import design_generator
    from pybcv.partitions import DESIGNS
    rng = np.random.default_rng(1)
    y = rng.standard_normal(60)
    te = [t for _, t in DESIGNS["bcv5x2"].splits(60, design_generator(0, "bcv5x2"))]
    p = tmp_path / "pred.csv"
    p.write_text("fold;row;y;pred_a;pred_b\n" + "".join(
        f"{f};{r};{y[r]};{y[r] + 0.1};{y[r] - 0.3}\n".replace(".", ",")
        for f, t in enumerate(te) for r in t))
    rc, _, err = run(capsys, "test", "--predictions", str(p), "--sep", ";", *loss)
    assert rc == 2
    assert err.startswith("pybcv: error: --predictions: the values are numbers with decimal "
                          "commas (e.g. '") and "): add --decimal , (with --sep ';')" in err
    rc, out, _ = run(capsys, "test", "--predictions", str(p), "--sep", ";", "--decimal", ",",
                     "--loss", "squared")
    assert rc == 0 and "Calibrated 5x2 BCV F-test" in out


def test_backend_line_gives_each_learner_its_own_parenthesis(tmp_path, capsys):
    """'A ran in r, B ran in python (R (the paper's learners))' read as if B
    ran in R: each learner now says where it ran and why, in its own words."""
    import re
    csv = _csv(tmp_path)
    rc, out, _ = run(capsys, "compare", "--csv", csv, "--a", "majority", "--b",
                     "sklearn.tree.DecisionTreeClassifier", "--quiet")
    assert rc == 0
    assert re.search(r"^backend: A ran in (r \(the paper's R learner\)|python \(Python fallback, "
                     r"as R is unavailable; results differ from the paper's R learner\)), B ran "
                     r"in python \(a scikit-learn estimator: always runs in Python\); requested "
                     r"--backend auto$", out, re.M), out
    rc, out, _ = run(capsys, "compare", "--csv", csv, "--a", "glm", "--b", "majority",
                     "--backend", "python", "--quiet")
    assert rc == 0
    fb = "python (Python fallback, as --backend python asks for it; results differ from the " \
         "paper's R learner)"
    assert f"backend: A ran in {fb}, B ran in {fb}; requested --backend python" in out


def test_folds_takes_decimal_as_compare_does(tmp_path, capsys):
    """folds advised '--decimal ,' for a decimal-comma --csv but refused the
    option; it now reads --csv as compare does, with the same folds."""
    dot = pd.read_csv(_csv(tmp_path))
    p = tmp_path / "comma.csv"
    dot.to_csv(p, sep=";", decimal=",", index=False)
    rc, ref, _ = run(capsys, "folds", "--csv", str(tmp_path / "data.csv"), "--stratify")
    assert rc == 0
    rc, out, err = run(capsys, "folds", "--csv", str(p), "--sep", ";", "--decimal", ",",
                       "--stratify")
    assert rc == 0 and out == ref and "decimal commas" not in err


def test_folds_reads_missing_values_as_compare_does(tmp_path, capsys):
    """folds lacked --na-values / --drop-missing (walk27 C12): on a CSV with
    missing values it numbered other records than compare fits.  Now both
    read --csv the same way: folds writes exactly compare's folds."""
    from pybcv.comparison import _draw_splits
    from pybcv.datasets import load_csv
    d = pd.read_csv(_csv(tmp_path))
    d[d.columns[0]] = d[d.columns[0]].astype(object)
    d.loc[[3, 17], d.columns[0]] = "-999"
    d.loc[40, d.columns[1]] = None
    p = tmp_path / "na.csv"
    d.to_csv(p, index=False)
    how = ["--csv", str(p), "--na-values", "-999", "--drop-missing", "--stratify"]
    rc, out, err = run(capsys, "folds", *how)
    assert rc == 0 and "dropped 3 record(s) with missing values" in err, err
    rc, js, _ = run(capsys, "compare", *how, "--a", "majority", "--b", "mean", "--backend",
                    "python", "--json")
    assert rc == 0 and json.loads(js)["comparison"]["n"] == len(d) - 3
    with pytest.warns(UserWarning, match="dropped 3 record"):
        data = load_csv(str(p), "class", na_values=["-999"], drop_missing=True)
    want = _draw_splits(data, ["mcnemar_5x2bcv"], 0, stratify=True)["bcv5x2"]
    assert out == "fold,row\n" + "".join(f"{f},{r}\n" for f, (_, te) in enumerate(want) for r in te)


def test_every_option_of_every_subcommand_has_help():
    """pybcv compare --help listed --seed, --alpha and --backend bare."""
    import argparse
    from pybcv.cli import build_parser

    bare = []

    def walk(parser, path):
        for act in parser._actions:
            if isinstance(act, argparse._SubParsersAction):
                for name, sub in act.choices.items():
                    walk(sub, f"{path} {name}")
            elif act.option_strings and not act.help:
                bare.append(f"{path} {act.option_strings[-1]}")
    walk(build_parser(), "pybcv")
    assert bare == []


def test_a_shared_option_reads_the_same_in_every_subcommand():
    """An option several subcommands take (--seed, --backend, --jobs, ...) is
    declared once (pybcv.cli.SHARED): the same flags, type, choices and action
    wherever it appears (rq1 run listed --backend's choices in its own order)."""
    import argparse
    from pybcv.cli import SHARED, build_parser
    seen = {}

    def walk(parser, path):
        for act in parser._actions:
            if isinstance(act, argparse._SubParsersAction):
                for name, sub in act.choices.items():
                    walk(sub, f"{path} {name}")
            elif act.option_strings and act.dest != "help":
                key = (type(act).__name__, act.type, act.metavar,
                       None if act.choices is None else tuple(act.choices))
                seen.setdefault(act.option_strings[-1], {}).setdefault(key, []).append(path)
    walk(build_parser(), "pybcv")
    for flags, _ in SHARED.values():
        assert flags[-1] in seen
    differ = {o: list(v.values()) for o, v in seen.items() if len(v) > 1}
    assert differ == {}, differ


@pytest.mark.parametrize("argv,message", [
    (["compare", "--n", "10"], "--n: a comparison on bcv5x2 needs at least 20 records, got 10"),
    (["compare", "--target", "Species"], "--target says how --csv is read, but no --csv was given"),
    (["compare", "--sep", ";"], "--sep says how --csv is read"),
    (["compare", "--decimal", ","], "--decimal says how --csv is read"),
    (["compare", "--drop-missing"], "--drop-missing says how --csv is read"),
    (["folds", "--n", "40", "--na-values", "x"], "--na-values says how --csv is read"),
])
def test_csv_options_without_csv_and_a_small_n_are_usage_errors(capsys, argv, message):
    """A new-user walk: `compare --target Species` (no --csv) ran the EXP6
    demonstration with the option ignored, and `compare --n 10` exited 1
    with "y: too few records"; both are usage errors (exit 2) naming the
    option, before any fit."""
    rc, out, err = run(capsys, *argv, "--quiet") if argv[0] == "compare" else run(capsys, *argv)
    assert rc == 2 and message in err and not out, (rc, out, err)


def test_a_one_hot_y_is_named_as_such():
    """compare(X, one_hot) said "X has 150 records but y has 450"; a 2-d y is
    refused as such (a column vector is still one label per record)."""
    from pybcv.comparison import compare
    X = np.random.default_rng(0).random((60, 2))
    y = np.arange(60) % 3
    with pytest.raises(ValueError, match=r"y must be 1-d, one label per record, got shape \(60, 3\) "
                                         r"\(one-hot rows\? pass y.argmax\(axis=1\)\)"):
        compare(X, np.eye(3)[y], "majority", "mean", backend="python")
    assert compare(X, y[:, None], "majority", "mean", backend="python").n == 60
    assert compare(X, y[None, :], "majority", "mean", backend="python").n == 60
    with pytest.raises(ValueError, match=r"got shape \(60, 2\)$"):     # not one-hot: no hint
        compare(X, np.c_[y % 2, y % 2], "majority", "mean", backend="python")


@pytest.mark.parametrize("argv,message", [
    (["--dataset", "twin-probs", "--param", "0"], "--param 0: noise must be a finite number > 0"),
    (["--dataset", "epsilon", "--param", "0.1,1.5"], "--param 1.5: eps must lie in"),
    (["--dataset", "exp6", "--param", "-0.1"], "--param -0.1: learner 'fnn-weighted': parameter omega"),
    (["--dataset", "exp6", "--b", "kknn", "--param", "0.5"], "--param 0.5: learner 'kknn' has no parameter"),
    (["--dataset", "exp6", "--b", "fnn-weighted:omega=0.3", "--param", "0.5,0.6"],
     "--b sets omega, which --param varies"),
    (["--dataset", "epsilon", "--param", "0.1,0.1000001"], "are the same point (folder param=0.1)"),
    (["--dataset", "epsilon", "--reps", "100000000000000"], "--reps: must be at most 10,000,000"),
    (["--dataset", "epsilon", "--n", "10000000000"], "--n: at most 10,000,000 records"),
])
def test_simulate_checks_its_points_and_sizes_before_any_work(tmp_path, capsys, argv, message):
    """An outside review: a bad --param failed during the run (exit 1) and left
    a store that then refused the corrected command; a huge --reps was
    OOM-killed.  Each is a usage error before any work, writing nothing."""
    out = tmp_path / "o"
    assert main(["simulate", *argv, "--reps", "5", "--out", str(out), "--quiet"]
                if "--reps" not in argv else ["simulate", *argv, "--out", str(out), "--quiet"]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists() or not any(out.iterdir())


def test_a_curve_folder_holds_one_curve(tmp_path, capsys):
    """An outside review: a second curve of another seed (or data set) went
    into the same folder and `report` showed the points as one curve; a
    single run and a curve could share a folder; a point already stored was
    found after the other points had run.  All refused before any work."""
    pc, sr = str(tmp_path / "pc"), str(tmp_path / "sr")
    def sim(*argv):
        return main(["simulate", "--reps", "5", "--quiet", *argv])
    assert sim("--dataset", "epsilon", "--param", "0,0.1", "--out", pc) == 0
    for argv, message in [
            (("--dataset", "epsilon", "--param", "0.3,0.4", "--seed", "9"),
             "holds a power curve of another configuration (param=0: seed: stored 0, given 9)"),
            (("--dataset", "twin-labels", "--param", "0.5,0.6"), "dataset: stored 'epsilon'"),
            (("--dataset", "epsilon",), "holds a power curve (its points in param=... folders)"),
            (("--dataset", "epsilon", "--param", "0.2,0.1"), "param=0.1 already holds a run")]:
        capsys.readouterr()
        assert sim(*argv, "--out", pc) == 2
        assert message in capsys.readouterr().err, argv
    assert sorted(os.listdir(pc)) == ["param=0", "param=0.1", "power.csv"]
    assert sim("--dataset", "epsilon", "--param", "0.1,0.4", "--out", pc, "--resume") == 0  # extends it
    assert sim("--dataset", "epsilon", "--out", sr) == 0
    capsys.readouterr()
    assert sim("--dataset", "epsilon", "--param", "0.1,0.2", "--out", sr) == 2
    assert "holds a single run" in capsys.readouterr().err


def test_a_curve_is_extended_by_one_point_and_resumed_at_any_precision(tmp_path, capsys):
    """A second review: the curve check read a point's value from its folder
    name (param=1.23457 for 1.2345678) and refused the curve's own --resume;
    one more point (--param 3 --out <curve>) was refused as a single run, and
    power.csv listed only the points of the last call.  A learner-free point
    whose losses leave float64's range is refused before any work."""
    from pybcv.engine import RunConfig
    from pybcv.engine.simulation import simulate_curve
    c1 = str(tmp_path / "c1")
    def sim(*argv):
        return main(["simulate", "--dataset", "twin-residuals", "--reps", "3", "--quiet",
                     "--out", c1, *argv])
    assert sim("--param", "1.0,1.2345678") == 0
    assert sim("--param", "1.0,1.2345678", "--resume") == 0
    assert sim("--param", "3") == 0
    assert sorted(os.listdir(c1)) == ["param=1", "param=1.23457", "param=3", "power.csv"]
    power = pd.read_csv(os.path.join(c1, "power.csv"))
    assert sorted(set(power.param_value)) == [1.0, 1.2345678, 3.0]
    capsys.readouterr()
    assert main(["simulate", "--dataset", "twin-residuals", "--reps", "3", "--quiet", "--out",
                 str(tmp_path / "c3"), "--param", "1,1e80"]) == 2
    assert "--param 1e+80: loss: the loss differences are too large" in capsys.readouterr().err
    assert not (tmp_path / "c3").exists()
    with pytest.raises(ValueError, match="1 and 1 are the same point"):     # the engine's own check
        simulate_curve(RunConfig("epsilon", ["mcnemar_ho"]), [1.0, 1.0000001], 2,
                       out=str(tmp_path / "c7"))
    assert not (tmp_path / "c7").exists()


def test_resume_with_fewer_reps_says_that_all_stored_ones_are_reported(tmp_path, capsys):
    out = str(tmp_path / "r")
    assert main(["simulate", "--dataset", "epsilon", "--reps", "12", "--out", out, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["simulate", "--dataset", "epsilon", "--reps", "5", "--out", out, "--quiet",
                 "--resume"]) == 0
    out_text, err = capsys.readouterr()
    assert f"{out} holds 12 repetitions, more than --reps 5: all of them are reported" in err
    assert "12 repetitions" in out_text
