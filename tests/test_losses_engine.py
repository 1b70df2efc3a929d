"""Real-valued losses in the engine (issue 21): ``RunConfig(loss=...)``
scores the t, F and z tests from per-fold loss sums, vectorised over
repetitions (``TestSpec.batch_losses``), for learner runs (regressors,
classifiers under a cost matrix) and learner-free fixed-prediction twins;
the validity battery's loss families run through it."""
import numpy as np
import pytest

from pybcv import validity as V
from pybcv.datasets import FIXED_PREDICTIONS, make_dataset
from pybcv.engine import RunConfig, simulate
from pybcv.stats._common import admit_withdrawn
from pybcv.engine.repetition import learner_free_batch, run_repetition
from pybcv.engine.store import pack_tables, unpack_tables
from pybcv.fold_tables import loss_sums_batch
from pybcv.outcomes import loss_sums
from pybcv.partitions import DESIGNS
from pybcv.pipeline import draw_splits, learner_from_spec, spec_dict
from pybcv.stats import TESTS

LOSS_TESTS = [k for k in TESTS if not TESTS[k].needs_zero_one]


def _sums(rng, R, F, nte):
    S = np.empty((R, F, 4))
    S[..., 0] = nte
    la, lb = rng.gamma(2.0, 1.0, (R, F)), rng.gamma(2.0, 1.0, (R, F))
    S[..., 1], S[..., 2] = la * nte, lb * nte
    S[..., 3] = ((la - lb) ** 2 + 1.0) * nte
    return S


@pytest.mark.parametrize("key", LOSS_TESTS)
def test_batch_losses_is_from_loss_sums_repetition_by_repetition(key):
    spec = TESTS[key]
    ntr, nte = DESIGNS[spec.design].sizes(300)
    S = _sums(np.random.default_rng(1), 3, spec.n_folds, nte)
    for opts in [{}] + ([{"alternative": "less"}] if "alternative" in spec.defaults else []):
        with admit_withdrawn():
            stat, p, lo, hi = spec.batch_losses(S, ntr, nte, **opts)
        for r in range(3):
            with admit_withdrawn():             # the battery scores withdrawn values too
                res = spec.from_loss_sums(S[r], ntr, nte, **opts)
            assert np.allclose([res.statistic, res.pvalue, *res.confidence_interval()],
                               [stat[r], p[r], lo[r], hi[r]], equal_nan=True)


def test_batch_losses_refuses_tests_that_need_zero_one():
    with pytest.raises(ValueError, match="0/1 outcomes"):
        TESTS["mcnemar_5x2bcv"].batch_losses(np.ones((2, 10, 4)), 150, 150)
    with pytest.raises(ValueError, match=r"shape \(R, 10, 4\)"):
        TESTS["calibrated_f_5x2bcv"].batch_losses(np.ones((2, 9, 4)), 150, 150)


def test_runconfig_loss_is_checked_and_part_of_the_identity():
    base = RunConfig("linear", ["kfold_t"], loss="squared", backend="python")
    assert base.identity()["loss"] == "squared"
    assert "loss" not in RunConfig("simple", ["kfold_t"]).identity()   # old runs resume
    cost = RunConfig("simple", ["kfold_t"], loss=np.array([[0, 1], [5, 0]]))
    assert cost.loss == [[0.0, 1.0], [5.0, 0.0]] and cost.loss_name == "cost_matrix"
    with pytest.raises(ValueError, match="0/1 outcomes"):
        RunConfig("linear", ["mcnemar_5x2bcv"], loss="squared")
    with pytest.raises(ValueError, match="loss must be one of"):
        RunConfig("linear", ["kfold_t"], loss="hinge")
    with pytest.raises(ValueError, match="no callable"):
        RunConfig("linear", ["kfold_t"], loss=lambda t, p: t - p)
    with pytest.raises(ValueError, match="fixed 0/1 losses"):
        RunConfig("epsilon", ["kfold_t"], loss="squared")
    with pytest.raises(ValueError, match="predicts numbers"):
        RunConfig("twin-residuals", ["kfold_t"], loss="zero_one")
    assert RunConfig("linear", ["kfold_t"]).loss == "squared"      # the record's loss


def test_a_learner_repetition_stores_the_loss_sums_of_its_folds():
    """The engine's sums are the per-fold absolute errors of the two
    regressors, refitted here by hand on the repetition's folds."""
    cfg = RunConfig("linear", ["kfold_t", "calibrated_f_5x2bcv"], n=60, loss="absolute",
                    backend="python", seed=4)
    rec = run_repetition(cfg, 1)
    d = cfg.dataset_for(1)
    units = dict(cfg.units())
    splits = draw_splits(d.n, units, {u: cfg.unit_rng(1, u) for u in units})
    for u in units:
        pa, pb = (learner_from_spec(s, "python").predict_splits(d.X, d.y, splits[u])
                  for s in (cfg.learner_a, cfg.learner_b))
        want = np.array([loss_sums(np.abs(d.y[te] - a), np.abs(d.y[te] - b),
                                   [np.arange(te.size)])[0]
                         for (_, te), a, b in zip(splits[u], pa, pb)])
        assert np.allclose(rec.tables[u], want)
    p = TESTS["kfold_t"].from_loss_sums(rec.tables["cv10"], *DESIGNS["cv10"].sizes(60)).pvalue
    assert np.isclose(rec.results["kfold_t"][1], p)


def test_stored_loss_sums_keep_their_decimals_and_rescore(tmp_path):
    S = {"cv10": np.array([[6.0, 1.25, 0.5, 0.125]] * 10)}
    assert np.array_equal(unpack_tables(pack_tables(S))["cv10"], S["cv10"])
    res = simulate("linear", reps=2, tests=["kfold_t"], n=60, loss="squared",
                   backend="python", out=str(tmp_path))
    from pybcv.engine import load_result
    again = load_result(str(tmp_path), profile="paper")       # re-scored from the store
    assert np.allclose(again.pvalue["kfold_t"], res.pvalue["kfold_t"])


@pytest.mark.parametrize("batch", [None, 1])
def test_learner_free_loss_sums_are_those_of_the_designs_folds(batch, monkeypatch):
    if batch:       # the repetitions one at a time, as for a large n
        monkeypatch.setattr("pybcv.fold_tables.BATCH_VALUES", batch)
    rng = np.random.default_rng(3)
    la, lb = rng.gamma(2.0, 1.0, (2, 40)), rng.gamma(2.0, 1.0, (2, 40))
    la[0, 3], lb[1, 7] = np.inf, 0.0          # shuffled as one complex number: kept exactly
    for design in sorted(DESIGNS):
        S = loss_sums_batch(design, la, lb, [np.random.default_rng(s) for s in (5, 6)])
        for r, s in enumerate((5, 6)):
            tests = DESIGNS[design].test_sets(40, np.random.default_rng(s))
            np.testing.assert_allclose(S[r], loss_sums(la[r], lb[r], tests))


def test_fixed_prediction_twins_are_exchangeable_draws():
    for name in FIXED_PREDICTIONS:
        d1, d2 = make_dataset(name, 7, n=50), make_dataset(name, 7, n=50)
        assert d1.learner_free and d1.n == 50
        assert np.array_equal(d1.pred_a, d2.pred_a) and not np.array_equal(d1.pred_a, d1.pred_b)
    big = make_dataset("twin-residuals", 1, n=200000, df=3.0)
    e = (big.y - big.pred_a) ** 2 - (big.y - big.pred_b) ** 2
    assert abs(e.mean()) < 4 * e.std() / np.sqrt(e.size)
    lab = make_dataset("twin-labels", 2, n=200000)
    assert set(np.unique(lab.pred_a)) == {0, 1, 2}
    assert abs(np.mean(lab.pred_a != lab.y) - 0.2) < 0.005


def test_regression_twins_with_a_bias_have_a_known_true_difference():
    """bias shifts A's predictions on the same draws; mu_A - mu_B = bias^2 under
    the squared loss, which RunConfig.true_difference (the summary's coverage,
    the battery's coverage families) reads; under another loss it is unknown."""
    d0, d1 = make_dataset("twin-residuals", 4, n=50), make_dataset("twin-residuals", 4, n=50, bias=0.5)
    assert np.array_equal(d1.pred_b, d0.pred_b) and np.allclose(d1.pred_a - d0.pred_a, 0.5)
    big = make_dataset("twin-residuals", 5, n=400000, bias=0.5)
    e = (big.y - big.pred_a) ** 2 - (big.y - big.pred_b) ** 2
    assert abs(e.mean() - 0.25) < 4 * e.std() / np.sqrt(e.size)
    assert RunConfig("twin-residuals", ["kfold_t"], data_params={"bias": 0.5}).true_difference() == 0.25
    assert RunConfig("twin-residuals", ["kfold_t"], data_params={"bias": 0.5},
                     loss="absolute").true_difference() is None
    assert RunConfig("twin-residuals", ["kfold_t"]).true_difference() == 0.0
    for name in ("twin-residuals squared bias=0.5 n=300", "twin-residuals squared bias=0.5 t5 n=1000"):
        assert set(V.truths(V.FAMILY[name]).values()) == {0.25}
    with pytest.raises(ValueError, match="bias must be a finite number"):
        make_dataset("twin-residuals", 1, n=20, bias=float("nan"))


def test_learner_free_runs_under_a_loss_are_reproducible():
    cfg = RunConfig("twin-labels", ["kfold_t", "cvci_z"], loss=V.COST, seed=2)
    r1, r2 = simulate(cfg, 30), simulate(cfg, 30)
    assert np.array_equal(r1.pvalue["cvci_z"], r2.pvalue["cvci_z"])
    T = learner_free_batch(cfg, range(3))["cv10"]
    assert T.shape == (3, 10, 4) and np.all(T[..., 0] == 30)


def test_import_path_learners_take_the_noise_parameters():
    s = spec_dict("sklearn.linear_model.Ridge:alpha=2.0,noise=0.5,noise_stream=1")
    assert s == {"name": "sklearn.linear_model.Ridge", "alpha": 2.0, "noise": 0.5,
                 "noise_stream": 1}
    lrn = learner_from_spec(s, "python")
    assert lrn.is_regressor
    X = np.random.default_rng(0).normal(size=(40, 3))
    y = X.sum(1)
    sp = [(np.arange(20), np.arange(20, 40))]
    other = learner_from_spec({**s, "noise_stream": 2}, "python")
    assert not np.allclose(lrn.predict_splits(X, y, sp)[0], other.predict_splits(X, y, sp)[0])
    with pytest.raises(ValueError, match="noise must be"):
        spec_dict("sklearn.linear_model.Ridge:noise=-1")


def test_regression_data_sets():
    d = make_dataset("linear", 3, n=80, df=4.0)
    assert d.X.shape == (80, 4) and d.y.dtype.kind == "f"
    m = make_dataset("magic-length", 3, n=50)
    assert m.X.shape == (50, 9) and m.y.dtype.kind == "f"
    with pytest.raises(ValueError, match="sigma"):
        make_dataset("linear", 3, n=80, sigma=0.0)


def test_the_loss_families_score_every_loss_capable_test():
    df = V.read_csv(V.os.path.join(V.DOCS, V.RESULTS))
    lossy = {f.name for f in V.FAMILIES if f.loss != "zero_one"}
    scored = set(zip(df[df.family.isin(lossy)].test, df[df.family.isin(lossy)].variant))
    for k in LOSS_TESTS:
        for label, _ in V.variants(k):
            assert (k, label) in scored, (k, label)


LOG_FAMILIES = [f for f in V.FAMILIES if f.loss == "log"]


def test_log_loss_families_are_scored():
    """The battery scores the log loss: a learner-free and a learner family,
    each with every option variant of every test it runs, in results.csv.gz."""
    assert {f.learner_free for f in LOG_FAMILIES} == {True, False}
    df = V.read_csv(V.os.path.join(V.DOCS, V.RESULTS))
    for fam in LOG_FAMILIES:
        rows = df[df.family == fam.name]
        assert len(rows) and (rows.reps > 0).all(), fam.name
        scored = set(zip(rows.test, rows.variant))
        for k in fam.config().tests:
            for label, _ in V.variants(k):
                assert (k, label) in scored, (fam.name, k, label)


def test_a_learner_repetition_under_the_log_loss_reads_probabilities():
    """The engine's sums are the per-fold log losses of the two logistic
    twins' class probabilities, refitted here by hand."""
    fam = next(f for f in LOG_FAMILIES if not f.learner_free)
    cfg = RunConfig("simple", ["kfold_t"], n=60, data_params={"delta": 1.0},
                    learner_a=fam.learner_a, learner_b=fam.learner_b, loss="log",
                    backend="python", seed=4)
    rec = run_repetition(cfg, 1)
    d = cfg.dataset_for(1)
    splits = draw_splits(d.n, {"cv10": "cv10"}, {"cv10": cfg.unit_rng(1, "cv10")})["cv10"]
    pa, pb = (learner_from_spec(s, "python").predict_proba_splits(d.X, d.y, splits)
              for s in (cfg.learner_a, cfg.learner_b))
    nll = lambda P, te: -np.log(P[np.arange(te.size), d.y[te]])  # noqa: E731
    want = np.array([loss_sums(nll(a, te), nll(b, te), [np.arange(te.size)])[0]
                     for (_, te), a, b in zip(splits, pa, pb)])
    assert np.allclose(rec.tables["cv10"], want)


def test_probability_twins_take_the_log_loss_only():
    cfg = RunConfig("twin-probs", ["kfold_t"], seed=2)
    assert cfg.loss == "log"                                        # the record's loss
    T = learner_free_batch(cfg, range(2))["cv10"]
    assert T.shape == (2, 10, 4) and np.all(T[..., 1:3] > 0)
    with pytest.raises(ValueError, match="class probabilities"):
        RunConfig("twin-probs", ["kfold_t"], loss="squared")
    with pytest.raises(ValueError, match="class labels"):
        RunConfig("twin-labels", ["kfold_t"], loss="log")
    big = make_dataset("twin-probs", 1, n=200000)
    e = np.log(big.pred_b[np.arange(big.n), big.y]) - np.log(big.pred_a[np.arange(big.n), big.y])
    assert abs(e.mean()) < 4 * e.std() / np.sqrt(e.size)


def test_cli_simulate_takes_a_loss(tmp_path, capsys):
    from pybcv.cli import main
    rc = main(["simulate", "--dataset", "simple", "--reps", "2", "--n", "60", "--tests",
               "bcv5x2", "--loss", "0,1;5,0", "--backend", "python", "--out", str(tmp_path),
               "--json", "--quiet"])
    import json
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert rc == 0 and run["config"]["loss"] == [[0.0, 1.0], [5.0, 0.0]]
    assert run["config"]["tests"] == ["calibrated_f_5x2bcv"]   # McNemar dropped from bcv5x2
    rc = main(["simulate", "--dataset", "linear", "--reps", "2", "--tests", "mcnemar_ho",
               "--out", str(tmp_path / "x")])
    assert rc == 2 and "need 0/1 outcomes" in capsys.readouterr().err
