"""The validity battery (docs/validity, pybcv.validity): the committed
results re-scored against the documented warnings, and the pieces the
battery adds to the engine (noisy learners, epsilon's shift, UCI sets)."""
import os
import shutil

import numpy as np
import pandas as pd
import pytest

from pybcv import validity as V
from pybcv.engine import RunConfig, simulate
from pybcv.learners import make_learner, parse_spec
from pybcv.stats import PROFILES, TESTS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, V.DOCS)


# ------------------------------------------------------------------ the rule
def test_every_flag_of_the_committed_battery_is_documented():
    """No shipped option's type-I interval lies above alpha, nor its coverage
    interval below 0.95, on any family or RQ1 experiment, without a
    documented warning (docs/validity/warnings.csv)."""
    missing = [f for f in V.flags(DOCS) if f["reason"] is None]
    assert not missing, f"{len(missing)} undocumented flag(s), e.g. {missing[:5]}"


def test_every_test_and_option_is_scored():
    df = V.read_csv(os.path.join(DOCS, V.RESULTS))
    scored = set(zip(df.test, df.variant))
    for k in TESTS:
        for label, _ in V.variants(k):
            assert (k, label) in scored, (k, label)


def test_the_readme_is_the_report_of_the_committed_counts(tmp_path):
    for f in (V.RESULTS, "families.csv", V.RQ1_COVERAGE, "candidates.csv",
              "candidates_rq1.csv", "warnings.csv", "notes.md"):
        shutil.copy(os.path.join(DOCS, f), tmp_path / f)
    text = V.report(str(tmp_path))
    assert text == open(os.path.join(DOCS, "README.md")).read()


def _one_row(tmp_path, rejections, reps=10000, kind="null", covered=None):
    row = {"family": "epsilon n=300 eps=0.1", "kind": kind, "role": "choose",
           "test": "mcnemar_5x2bcv", "variant": "default", "truth": 0.0, "reps": reps,
           "rejections": rejections, "intervals": reps,
           "covered": reps if covered is None else covered}
    V.write_gz(pd.DataFrame([row]), str(tmp_path / V.RESULTS))


def test_a_liberal_option_without_a_warning_is_caught(tmp_path):
    (tmp_path / "warnings.csv").write_text("test,variant,family,flag,reason\n")
    _one_row(tmp_path, rejections=600)             # 0.060 [0.0554, 0.0649] at R = 10,000
    fl = V.flags(str(tmp_path))
    assert [(f["flag"], f["reason"]) for f in fl] == [("liberal", None)]
    _one_row(tmp_path, rejections=540)             # 0.054 [0.0497, 0.0586]: not flagged
    assert V.flags(str(tmp_path)) == []
    _one_row(tmp_path, rejections=0, covered=9400)  # 0.94 [0.935, 0.945]
    assert [f["flag"] for f in V.flags(str(tmp_path))] == ["undercovers"]
    (tmp_path / "warnings.csv").write_text(
        "test,variant,family,flag,reason\nmcnemar_5x2bcv,*,epsilon*,undercovers,why\n")
    assert [f["reason"] for f in V.flags(str(tmp_path))] == ["why"]


def test_a_warning_needs_a_reason(tmp_path):
    p = tmp_path / "w.csv"
    p.write_text("test,variant,family,flag,reason\nkfold_t,default,*,liberal,\n")
    with pytest.raises(ValueError, match="reason"):
        V.read_warnings(str(p))


def test_clopper_pearson_is_scipys_exact_interval():
    from scipy.stats import binomtest
    for k, n in ((0, 50), (3, 50), (500, 10000), (50, 50)):
        ci = binomtest(k, n).proportion_ci(0.95, method="exact")
        assert np.allclose(V.clopper_pearson(k, n), (ci.low, ci.high), atol=1e-10)


# ------------------------------------------------------------------ the options
def test_variants_read_the_registry():
    v = dict(V.variants("mcnemar_5x2bcv"))
    assert v["default"] == {} and v["clamp_correction=True"] == {"clamp_correction": True}
    assert all(v[f"t={t}"] == {"t": t} for t in V.T_VALUES)
    for prof, opts in PROFILES.items():
        for k, o in opts.items():
            assert o in [x for _, x in V.variants(k)], (prof, k)
    for k, spec in TESTS.items():
        if "alternative" in spec.defaults:
            opts = [o for _, o in V.variants(k)]
            assert {"alternative": "less"} in opts and {"alternative": "greater"} in opts


def test_learner_free_counts_are_the_engines(tmp_path, monkeypatch):
    """The battery's learner-free families run through the engine into its
    store, which keeps their tables: every option of every test (the 100
    folds of the 10x10 CV too) is re-scored from it, chunk by chunk, to the
    counts of the drawn tables; the default counts equal simulate()'s
    rejections and coverage."""
    from pybcv.engine.repetition import learner_free_batch
    monkeypatch.setattr(V, "SCORE_CHUNK", 25)
    fam = V.Family("t", "null", "epsilon", 120, 60, {"eps": 0.2},
                   tests=("mcnemar_5x2bcv", "kfold_t", "proportion_z", "corrected_10x10cv_t"))
    V.run_family(fam, str(tmp_path), progress=lambda s: None)
    assert "results.sqlite" in os.listdir(V.family_dir(str(tmp_path), fam))
    rows, facts = V.score_family(fam, str(tmp_path))
    want = V.count(fam.config(), learner_free_batch(fam.config(), range(60)), V.truths(fam))
    assert {(r["test"], r["variant"]): {k: r[k] for k in ("reps", "rejections", "intervals",
                                                           "covered")} for r in rows} == want
    res = simulate(fam.config(), fam.reps)
    got = {r["test"]: r for r in rows if r["variant"] == "default"}
    for k in fam.config().tests:
        assert got[k]["rejections"] == int(np.sum(res.pvalue[k] < V.ALPHA)), k
        lo, hi = res.interval[k]
        assert got[k]["covered"] == int(np.sum((lo <= 0) & (0 <= hi))), k
    assert facts["reps"] == 60


def test_learner_counts_are_rescored_from_the_store(tmp_path):
    fam = V.Family("s", "null", "simple", 60, 3, {"delta": 0.0},
                   tests=("mcnemar_5x2bcv", "kfold_t"))
    V.run_family(fam, str(tmp_path), progress=lambda s: None)
    rows, facts = V.score_family(fam, str(tmp_path))
    res = simulate(fam.config(), fam.reps)
    got = {r["test"]: r for r in rows if r["variant"] == "default"}
    for k in fam.config().tests:
        assert got[k]["rejections"] == int(np.sum(res.pvalue[k] < V.ALPHA))
    t2 = [r for r in rows if r["variant"] == "t=2.0"][0]
    assert t2["reps"] == 3 and facts["reps"] == 3


def test_scoring_some_families_gives_the_files_of_a_full_score(tmp_path, monkeypatch):
    """`validity score --families`: the named families re-scored, the others'
    rows kept, the files byte for byte those of scoring every family."""
    fams = [V.Family(f"e{k}", "null", "epsilon", 60, 20 + 10 * k, {"eps": 0.2},
                     tests=("mcnemar_5x2bcv", "kfold_t")) for k in range(3)]
    monkeypatch.setattr(V, "FAMILIES", fams)
    runs, full, part = (str(tmp_path / x) for x in ("runs", "full", "part"))
    for f in fams:
        V.run_family(f, runs, progress=lambda s: None)
    quiet = lambda s: None                      # noqa: E731
    monkeypatch.setattr(V, "rq1_candidates", lambda *a, **kw: None)
    V.score(runs, full, quiet)
    V.candidates(runs, full, quiet)
    # the middle family was missing from the files, and the last scored from other runs
    os.makedirs(part)
    old = V.read_csv(os.path.join(full, V.RESULTS))
    V.write_gz(old[old.family == "e0"], os.path.join(part, V.RESULTS))
    for f in ("families.csv", "candidates.csv"):
        d = V.read_csv(os.path.join(full, f))
        d[d.family == "e0"].to_csv(os.path.join(part, f), index=False)
    V.score(runs, part, quiet, names=["e1", "e2"])
    V.candidates(runs, part, quiet, names=["e1", "e2"])
    for f in (V.RESULTS, "families.csv", "candidates.csv"):
        assert open(os.path.join(part, f), "rb").read() == open(os.path.join(full, f), "rb").read()


def test_scoring_a_store_without_runs_writes_empty_counts(tmp_path, monkeypatch):
    monkeypatch.setattr(V, "rq1_candidates", lambda *a, **kw: None)
    quiet = lambda s: None                      # noqa: E731
    V.score(str(tmp_path / "runs"), str(tmp_path / "out"), quiet)
    V.candidates(str(tmp_path / "runs"), str(tmp_path / "out"), quiet)
    assert (tmp_path / "out" / V.RESULTS).exists() and (tmp_path / "out" / "candidates.csv").exists()
    assert set(V.read_csv(tmp_path / "out" / "families.csv").reps) == {0}


def test_rq1_candidates_read_the_rq1_runs_scored(tmp_path, monkeypatch):
    """`validity score --rq1 FOLDER` scores RQ1's t candidates from FOLDER, as
    its coverage (they read the committed archive whatever --rq1 said)."""
    seen = []
    monkeypatch.setattr(V, "rq1_candidates", lambda path, dest: seen.append(path))
    os.makedirs(tmp_path / "out")
    V.candidates(str(tmp_path / "runs"), str(tmp_path / "out"), lambda s: None, rq1="/some/rq1")
    assert seen == ["/some/rq1"]


def test_the_rq1_runs_are_found_from_any_folder(tmp_path, monkeypatch):
    """`pybcv validity score` reads the committed RQ1 archive wherever it is
    started; a folder without RQ1 runs is an error, not an empty table."""
    monkeypatch.chdir(tmp_path)
    assert os.path.isfile(os.path.join(V.RQ1_RUNS, "runs", "pima", "run.npz"))
    with pytest.raises(ValueError, match="no RQ1 run in"):
        V.rq1_coverage(str(tmp_path), str(tmp_path))
    assert not os.path.exists(tmp_path / V.RQ1_COVERAGE)


def test_simple_truth_is_zero_without_signal_and_negative_with_it():
    assert abs(V.simple_truth(100, 0.0, sets=20)) < 1e-9     # every classifier errs 1/2
    assert -0.15 < V.simple_truth(100, 0.5, sets=20) < -0.05  # glm beats the majority


def test_family_names_and_roles():
    assert len(V.FAMILY) == len(V.FAMILIES)
    assert {f.kind for f in V.FAMILIES} == {"null", "coverage"}
    assert any(f.role == "choose" for f in V.FAMILIES)
    assert any(f.role == "check" and f.kind == "null" for f in V.FAMILIES)


# ------------------------------------------------------------------ engine pieces
def test_noisy_twins_are_reproducible_and_independent():
    X = np.random.default_rng(0).normal(size=(80, 2))
    y = (X[:, 0] > 0).astype(int)
    splits = [(np.arange(40), np.arange(40, 80))]
    a = make_learner("glm", backend="python", noise=1.0, noise_stream=1)
    a2 = make_learner("glm", backend="python", noise=1.0, noise_stream=1)
    b = make_learner("glm", backend="python", noise=1.0, noise_stream=2)
    pa = a.predict_splits(X, y, splits)[0]
    assert np.array_equal(pa, a2.predict_splits(X, y, splits)[0])
    assert not np.array_equal(pa, b.predict_splits(X, y, splits)[0])
    plain = make_learner("glm", backend="python").predict_splits(X, y, splits)[0]
    assert not np.array_equal(pa, plain)


def test_noise_parameters_are_checked():
    assert parse_spec("glm:noise=0.5,noise_stream=2") == {"name": "glm", "noise": 0.5,
                                                          "noise_stream": 2}
    with pytest.raises(ValueError, match="parameter noise must be a finite number > 0"):
        parse_spec("glm:noise=-1")
    with pytest.raises(ValueError, match="noise_stream must be an integer >= 0"):
        parse_spec("mean:noise_stream=x")


def test_noise_needs_numeric_predictors():
    X = np.array([["a"], ["b"]] * 10, dtype=object)
    lrn = make_learner("majority", backend="python", noise=1.0)
    with pytest.raises(ValueError, match="noise needs numeric predictors"):
        lrn.predict_splits(X, np.arange(20) % 2, [(np.arange(10), np.arange(10, 20))])


def test_epsilon_shift_is_the_true_difference():
    from pybcv.datasets import epsilon
    cfg = RunConfig("epsilon", "mcnemar_5x2bcv", data_params={"shift": 0.05})
    assert cfg.true_difference() == 0.05
    assert RunConfig("epsilon", "mcnemar_5x2bcv").true_difference() == 0.0
    d = [epsilon(s, 1000, 0.1, shift=0.05) for s in range(200)]
    diff = np.mean([x.loss_a.mean() - x.loss_b.mean() for x in d])
    assert abs(diff - 0.05) < 0.005
    with pytest.raises(ValueError, match="shift"):
        epsilon(0, 100, 0.1, shift=0.9)


def test_shift_twins_err_where_their_draw_is_below_their_training_rate():
    from pybcv.datasets import make_dataset
    d = make_dataset("shift-twins", 3, n=200)
    y, z, u = d.X[:, 0], d.X[:, [1, 3]], d.X[:, [2, 4]]
    assert np.array_equal(y, d.y) and set(np.unique(d.y)) == {0, 1}
    tr, te = np.arange(120), np.arange(120, 200)
    for view in (0, 1):
        t = V.ShiftTwin(view=view, c=0.5).fit(d.X[tr], d.y[tr])
        assert t.rate_ == pytest.approx(0.3 + 0.5 * z[tr, view].mean())
        wrong = t.predict(d.X[te]) != d.y[te]
        assert np.array_equal(wrong, u[te, view] < t.rate_)
    # through the engine: the family's twins are learners fitted on each design's folds
    cfg = V.FAMILY["shift-twins c=0.5 n=300"].config()
    assert cfg.learner_a["view"] == 0 and cfg.learner_b["view"] == 1
    rows = simulate(cfg, reps=4)
    assert rows.fits_per_rep[0] > 0 and set(rows.pvalue) == set(V.MID) and len(rows.reps) == 4


def test_uci_sets_are_experiments_with_h0_records():
    from pybcv.datasets import make_dataset
    d1, d2 = make_dataset("pima", 3, n=50), make_dataset("pima", 3, n=50)
    assert np.array_equal(d1.X, d2.X) and np.array_equal(d1.y, d2.y) and d1.X.shape == (50, 8)
    cfg = RunConfig("pima", "mcnemar_5x2bcv")
    assert cfg.learner_a["noise"] == cfg.learner_b["noise"] and cfg.true_difference() == 0.0


def test_cli_validity_refuses_an_unknown_family(capsys):
    from pybcv.cli import main
    assert main(["validity", "run", "--families", "nope"]) != 0
    assert "unknown" in capsys.readouterr().err
    assert main(["validity", "score", "--families", "nope"]) != 0
    assert "--families: unknown ['nope']" in capsys.readouterr().err


def test_cli_validity_score_of_some_families_needs_the_full_results(tmp_path, capsys):
    from pybcv.cli import main
    (tmp_path / "runs").mkdir()
    assert main(["validity", "score", "--runs", str(tmp_path / "runs"), "--out",
                 str(tmp_path / "out"), "--families", V.FAMILIES[0].name]) != 0
    err = capsys.readouterr().err
    assert "has no results.csv.gz, families.csv, candidates.csv: score every family first" in err


def test_cli_validity_score_reads_the_rq1_runs_it_is_given(tmp_path, capsys, monkeypatch):
    """--rq1 FOLDER: the RQ1 runs whose coverage is scored (a `pybcv rq1 run
    --out` folder with more repetitions than the committed archive); checked
    before anything is scored, and passed on to rq1_coverage."""
    from pybcv.cli import main
    (tmp_path / "runs").mkdir()
    assert main(["validity", "score", "--runs", str(tmp_path), "--rq1", str(tmp_path / "none"),
                 "--out", str(tmp_path / "o")]) == 2
    assert "--rq1: no RQ1 runs in" in capsys.readouterr().err
    seen = []
    for f in ("score", "candidates"):
        monkeypatch.setattr(V, f, lambda *a, **k: None)
    monkeypatch.setattr(V, "rq1_coverage", lambda path, *a, **k: seen.append(path))
    assert main(["validity", "score", "--runs", str(tmp_path), "--rq1", str(tmp_path),
                 "--out", str(tmp_path / "o"), "--quiet"]) == 0
    assert seen == [str(tmp_path)]


def test_cli_simulate_takes_the_noise_parameters(tmp_path):
    from pybcv.cli import main
    rc = main(["simulate", "--dataset", "simple", "--reps", "2", "--tests", "mcnemar_5x2bcv",
               "--n", "60", "--a", "glm:noise=1,noise_stream=1", "--b",
               "glm:noise=1,noise_stream=2", "--backend", "python", "--out", str(tmp_path)])
    assert rc == 0


def test_until_is_the_next_occurrence_of_the_time():
    """``--until 00:25`` given before midnight is tonight's 00:25, not the
    past one of today (which stopped the battery before it started)."""
    import datetime as dt
    import time
    from pybcv.cli import _until
    now = dt.datetime.now(dt.timezone.utc)
    past = now - dt.timedelta(minutes=5)
    at = _until(f"{past.hour:02d}:{past.minute:02d}")
    assert time.time() < at <= time.time() + 24 * 3600
