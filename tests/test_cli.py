"""Command line: compare, simulate, report; bad input exits with code 2."""
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from pybcv.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _csv(tmp_path, n=80, target="class"):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, 2))
    y = np.where(x[:, 0] + 0.5 * rng.standard_normal(n) > 0, "pos", "neg")
    df = pd.DataFrame({"f1": x[:, 0], "f2": x[:, 1], target: y})
    p = tmp_path / "data.csv"
    df.to_csv(p, index=False)
    return str(p)


# ------------------------------------------------------------------ bad input -> exit 2
@pytest.mark.parametrize("argv,msg", [
    (["simulate", "--dataset", "iris", "--out", "{tmp}/o"], "unknown data set"),
    (["simulate", "--dataset", "epsilon", "--tests", "nope", "--out", "{tmp}/o"], "unknown test"),
    (["simulate", "--dataset", "simple", "--b", "svm9", "--out", "{tmp}/o"], "unknown learner"),
    (["simulate", "--dataset", "exp6", "--b", "fnn-weighted:gamma=2", "--out", "{tmp}/o"], "no parameter"),
    (["simulate", "--dataset", "epsilon", "--reps", "0", "--out", "{tmp}/o"], "--reps must be at least 1"),
    (["simulate", "--dataset", "epsilon", "--reps", "-3", "--out", "{tmp}/o"], "--reps must be at least 1"),
    (["simulate", "--dataset", "epsilon", "--out", "{tmp}/afile/sub"], "not writable"),
    (["simulate", "--dataset", "epsilon", "--profile", "weird", "--out", "{tmp}/o"], "unknown profile"),
    (["simulate", "--dataset", "epsilon", "--jobs", "0", "--out", "{tmp}/o"], "--jobs"),
    (["compare", "--csv", "{csv}", "--target", "label", "--backend", "python"], "no target column 'label'"),
    (["compare", "--csv", "{tmp}/missing.csv", "--backend", "python"], "not found"),
    (["compare", "--a", "nosuch", "--backend", "python"], "unknown learner"),
    (["compare", "--tests", "mcnemar_ho,bogus", "--backend", "python"], "unknown test"),
    (["report", "{tmp}/empty"], "neither a simulation folder"),
    (["report", "{tmp}/nofolder"], "not a folder"),
    (["truth", "--dataset", "simple", "--grid", "1"], "defined for"),
])
def test_bad_input_exits_2(tmp_path, capsys, argv, msg):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "empty").mkdir()
    csv = _csv(tmp_path)
    argv = [a.format(tmp=tmp_path, csv=csv) for a in argv]
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert msg in err and err.startswith("pybcv: error:")


def test_learner_failure_exits_1_naming_learner_fold_and_design(capsys, monkeypatch):
    monkeypatch.delenv("PYBCV_TRACEBACK", raising=False)
    # glm is a 2-class learner; the built-in EXP6 data has 6 classes
    rc, out, err = run(capsys, "compare", "--a", "glm", "--backend", "python", "--tests", "mcnemar_ho")
    assert rc == 1 and out == ""
    assert err.startswith("pybcv: error: glm failed on fold 1 of 1")
    assert "6 classes" in err and "partition design 'holdout'" in err and "Traceback" not in err


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--dataset", "epsilon"])          # --out missing
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--dataset", "epsilon", "--out", "x", "--reps", "many"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["frobnicate"])
    assert e.value.code == 2


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
    assert "200/200" in err                                  # progress on stderr
    s = pd.read_csv(os.path.join(out, "summary.csv"))
    assert {"test", "rejection_rate", "reps", "mc_se"} <= set(s.columns)
    assert len(s) == 14 and (s["reps"] == 200).all()
    assert "mcnemar_5x2bcv" in stdout
    rep = str(tmp_path / "report.md")
    rc, _, _ = run(capsys, "report", out, "--out", rep, "--profile", "paper")
    text = open(rep).read()
    assert rc == 0
    assert "profile: **paper**" in text
    assert "| 5x2 BCV McNemar's test |" in text and "0.025" in text      # paper's value beside ours
    assert "MC SE" in text


def test_power_curve_and_png(tmp_path, capsys):
    out = str(tmp_path / "pw")
    rc, stdout, _ = run(capsys, "simulate", "--dataset", "simple", "--param", "0,1", "--n", "200",
                        "--tests", "mcnemar_5x2bcv,mcnemar_ho", "--reps", "6", "--backend", "python",
                        "--out", out, "--quiet")
    assert rc == 0
    p = pd.read_csv(os.path.join(out, "power.csv"))
    assert sorted(p["param_value"].unique()) == [0.0, 1.0]
    rep = str(tmp_path / "rep" / "r.md")
    os.makedirs(os.path.dirname(rep))
    assert run(capsys, "report", out, "--out", rep)[0] == 0
    assert os.path.exists(os.path.join(os.path.dirname(rep), "power_simple_default.png"))
    assert "power curve" in open(rep).read()


# ------------------------------------------------------------------ compare
def test_compare_csv(tmp_path, capsys):
    csv = _csv(tmp_path)
    rc, out, _ = run(capsys, "compare", "--csv", csv, "--a", "glm", "--b", "majority",
                     "--backend", "python", "--tests", "table5", "--seed", "2")
    assert rc == 0
    assert "5x2 BCV McNemar's test" in out and "effective table" in out
    assert "backend: A ran in python" in out
    assert out.count("reject H0") + out.count("keep H0") == 14


def test_compare_default_exp6_all_tests(capsys):
    rc, out, _ = run(capsys, "compare", "--backend", "python", "--seed", "1")
    assert rc == 0
    assert "EXP6 (n = 300" in out and "J48-unpruned" in out and "fnn-weighted" in out
    assert out.count("reject H0") + out.count("keep H0") == 17
    assert "Python fallback" in out


def test_python_dash_m(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "pybcv", "simulate", "--dataset", "nope", "--out",
                        str(tmp_path)], env=env, cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and "unknown data set" in r.stderr
    r = subprocess.run([sys.executable, "-m", "pybcv", "simulate", "--dataset", "epsilon", "--reps", "20",
                        "--out", str(tmp_path / "e"), "--quiet"], env=env, cwd=ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0 and os.path.exists(tmp_path / "e" / "summary.csv")
