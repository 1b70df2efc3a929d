"""Simulation engine: shared designs, seeds, vectorised epsilon, durable
store and resume, parallel determinism, compare()."""
import math
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

from conftest import requires_r, wait_for_stored_reps
from pybcv import paper
from pybcv import seeds
from pybcv.comparison import compare, compare_losses, fit_counts
from pybcv.engine import ConfigMismatch, RunConfig, load_result, run_chunk, simulate
from pybcv.fold_tables import tables_batch
from pybcv.outcomes import tables_from_losses
from pybcv.partitions import DESIGNS
from pybcv.stats import TABLE5_TESTS, TESTS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ------------------------------------------------------------------ vectorised tables
@pytest.mark.parametrize("design", sorted(DESIGNS))
@pytest.mark.parametrize("n", [300, 301])
@pytest.mark.parametrize("packed, batch", [(True, None), (False, None), (True, 1)])
def test_fast_tables_equal_generic_tables(design, n, packed, batch, monkeypatch):
    """The vectorised path draws the same partitions as Design.splits, with
    the counts packed in one integer per record or (data sets of 2**21
    records and more; forced here) counted one code at a time, and with the
    repetitions all at once or (large n; forced here) one at a time."""
    if not packed:
        monkeypatch.setattr("pybcv.fold_tables._BITS", 4)
    if batch:
        monkeypatch.setattr("pybcv.fold_tables.BATCH_VALUES", batch)
    rng = np.random.default_rng(n)
    la = (rng.random((3, n)) < 0.2).astype(np.int64)
    lb = (rng.random((3, n)) < 0.3).astype(np.int64)
    gens = [np.random.default_rng(s) for s in range(3)]
    T = tables_batch(design, 2 * la + lb, gens)
    for r in range(3):
        splits = DESIGNS[design].splits(n, np.random.default_rng(r))
        assert np.array_equal(T[r], tables_from_losses(la[r], lb[r], splits))


def test_epsilon_vectorised_equals_generic_per_rep():
    """run_chunk's batch scores equal TESTS[k].from_tables on Design.splits."""
    cfg = RunConfig("epsilon", "table5", seed=11)
    records = run_chunk(cfg, [0, 5])
    for rec in records:
        r = rec.rep
        d = cfg.dataset_for(r)
        for k in TABLE5_TESTS:
            des = TESTS[k].design
            sp = DESIGNS[des].splits(300, seeds.rng(seeds.design_seq(11, r, des)))
            ntr, nte = DESIGNS[des].sizes(300)
            res = TESTS[k].from_tables(tables_from_losses(d.loss_a, d.loss_b, sp), ntr, nte)
            s, p = rec.results[k]
            assert math.isclose(res.pvalue, p, rel_tol=1e-9, abs_tol=1e-12), k
            assert (math.isinf(s) and math.isinf(res.statistic)) or math.isclose(res.statistic, s, rel_tol=1e-9, abs_tol=1e-12)


# ------------------------------------------------------------------ the paper's epsilon column
@pytest.mark.parametrize("profile", ["default", "paper"])
def test_epsilon_type1_errors_match_the_paper(profile):
    """All 14 tests of Table 5 lie within 3 combined MC standard errors of
    the paper's epsilon column (2000 repetitions here, 1000 in the paper)."""
    res = simulate("epsilon", tests="table5", reps=2000, seed=2024, profile=profile)
    ref = paper.table5("epsilon")
    rates = res.rejection_rate()
    bad = []
    for k in TABLE5_TESTS:
        r, pv = rates[k], ref[k]
        se = math.sqrt(r * (1 - r) / 2000 + paper.paper_se(pv, "epsilon") ** 2)
        if se == 0:
            ok = r == pv
        else:
            ok = abs(r - pv) <= 3 * se
        if not ok:
            bad.append((k, r, pv))
    assert not bad, bad


def test_results_do_not_depend_on_the_selection_of_tests():
    a = simulate("epsilon", tests=["mcnemar_5x2bcv"], reps=50, seed=3)
    b = simulate("epsilon", tests="all", reps=50, seed=3)
    assert np.array_equal(a.pvalue["mcnemar_5x2bcv"], b.pvalue["mcnemar_5x2bcv"])
    c = simulate("simple", tests=["mcnemar_ho"], reps=3, seed=3, backend="python")
    d = simulate("simple", tests=["mcnemar_ho", "kfold_t"], reps=3, seed=3, backend="python")
    assert np.array_equal(c.pvalue["mcnemar_ho"], d.pvalue["mcnemar_ho"])


# ------------------------------------------------------------------ fits
def test_fit_count_is_the_union_of_designs():
    assert fit_counts("table5", share_designs=True) == 167
    assert fit_counts("table5", share_designs=False) == 218
    shared = simulate("simple", tests="table5", reps=2, seed=1, backend="python")
    own = simulate("simple", tests="table5", reps=2, seed=1, backend="python", share_designs=False)
    assert shared.fits_per_rep == (167, 167)
    assert own.fits_per_rep == (218, 218)
    # every test: + pseudo-bootstrap (240) and conservative Z (315)
    assert fit_counts("all") == 167 + 240 + 315


class _Recorder:
    """A learner that predicts the first label and records its batches."""

    def __init__(self, fail_test_size=None):
        self.calls, self.fail = [], fail_test_size

    def predict_splits(self, X, y, splits):
        self.calls.append(len(splits))
        for f, (_, te) in enumerate(splits):
            if len(te) == self.fail:
                raise ValueError(f"boom on fold {f + 1} of {len(splits)}")
        return [np.full(len(te), y[0]) for _, te in splits]


def test_one_batch_per_learner_and_errors_name_their_design():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(300, 2)), rng.integers(0, 2, 300)
    rec = _Recorder()
    compare(X, y, rec, "majority", tests="table5")
    assert rec.calls == [167]                      # the union of 8 designs in one batch
    rec = _Recorder()
    compare(X, y, rec, "majority")                 # default: the 5x2 BCV design's tests
    assert rec.calls == [10]
    bad = _Recorder(fail_test_size=30)              # 10-fold CV's folds (n = 300)
    with pytest.raises(ValueError, match=r"fold 1 of 10\b") as ei:
        compare(X, y, bad, "majority", tests=["kfold_t"])
    assert "design 'cv10'" in str(ei.value)
    assert bad.calls == [10, 10]                    # the batch (cv10 only), then cv10 alone


# ------------------------------------------------------------------ parallel determinism
def test_one_and_two_processes_give_identical_results():
    kw = dict(tests="table5", reps=8, seed=5, backend="python", chunk=2)
    a = simulate("simple", jobs=1, **kw)
    b = simulate("simple", jobs=2, **kw)
    for k in TABLE5_TESTS:
        assert np.array_equal(a.pvalue[k], b.pvalue[k], equal_nan=True)
        assert np.array_equal(a.statistic[k], b.statistic[k], equal_nan=True)
    e1 = simulate("epsilon", reps=300, seed=5, jobs=1)
    e2 = simulate("epsilon", reps=300, seed=5, jobs=2, chunk=64)
    for k in TABLE5_TESTS:
        assert np.array_equal(e1.pvalue[k], e2.pvalue[k])


def test_dask_cluster_gives_identical_results():
    distributed = pytest.importorskip("distributed")
    kw = dict(tests="table5", reps=6, seed=8, backend="python")
    ref = simulate("simple", **kw)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cl, distributed.Client(cl) as client:
        got = simulate("simple", scheduler=client, chunk=1, **kw)
    for k in TABLE5_TESTS:
        assert np.array_equal(ref.pvalue[k], got.pvalue[k], equal_nan=True)


# ------------------------------------------------------------------ store, resume
def _stored(out):
    res = load_result(out)
    return res.reps, res.statistic, res.pvalue


def test_interrupt_and_resume_equals_uninterrupted(tmp_path):
    kw = dict(tests="table5", reps=10, seed=9, backend="python")
    full = simulate("simple", out=str(tmp_path / "full"), **kw)
    part = str(tmp_path / "part")
    simulate("simple", out=part, stop_after=4, **kw)
    assert len(load_result(part).reps) == 4
    simulate("simple", out=part, resume=True, **kw)
    r1, s1, p1 = _stored(str(tmp_path / "full"))
    r2, s2, p2 = _stored(part)
    assert np.array_equal(r1, r2) and np.array_equal(r1, np.arange(10))
    for k in TABLE5_TESTS:
        assert np.array_equal(p1[k], p2[k], equal_nan=True)
        assert np.array_equal(s1[k], s2[k], equal_nan=True)
    assert np.array_equal(full.pvalue["mcnemar_5x2bcv"], p2["mcnemar_5x2bcv"])
    assert os.path.exists(os.path.join(part, "summary.csv"))


def test_killed_process_resumes_to_identical_results(tmp_path):
    """SIGKILL a CLI run mid-way, resume it, compare with an uninterrupted run."""
    # enough repetitions that the kill lands after the first batch commit
    # (the store commits about once a second) and well before the last
    REPS = 240
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    args = ["--dataset", "simple", "--param", "0.3", "--n", "300", "--tests", "table5", "--reps", str(REPS),
            "--seed", "4", "--backend", "python", "--quiet"]
    killed = str(tmp_path / "killed")
    proc = subprocess.Popen([sys.executable, "-m", "pybcv", "simulate", *args, "--out", killed],
                            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_stored_reps(proc, killed, 8)
    was_running = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_at_kill = len(load_result(killed).reps)
    assert done_at_kill >= (8 if was_running else REPS) or not was_running
    if was_running:
        assert done_at_kill < REPS
    rc = subprocess.run([sys.executable, "-m", "pybcv", "simulate", *args, "--out", killed, "--resume"],
                        env=env, cwd=ROOT, capture_output=True, text=True).returncode
    assert rc == 0
    whole = str(tmp_path / "whole")
    simulate("simple", tests="table5", reps=REPS, seed=4, backend="python", data_params={"delta": 0.3}, n=300,
             out=whole)
    r1, s1, p1 = _stored(killed)
    r2, s2, p2 = _stored(whole)
    assert np.array_equal(r1, r2) and len(r1) == REPS
    for k in TABLE5_TESTS:
        assert np.array_equal(p1[k], p2[k], equal_nan=True)
        assert np.array_equal(s1[k], s2[k], equal_nan=True)


def test_resume_refuses_another_config(tmp_path):
    out = str(tmp_path / "run")
    simulate("epsilon", reps=20, seed=1, out=out)
    with pytest.raises(ConfigMismatch, match="use --resume"):
        simulate("epsilon", reps=20, seed=1, out=out)
    with pytest.raises(ConfigMismatch, match="seed"):
        simulate("epsilon", reps=20, seed=2, out=out, resume=True)
    with pytest.raises(ConfigMismatch, match="profile"):
        simulate("epsilon", reps=20, seed=1, out=out, resume=True, profile="paper")
    # more repetitions with the same config extend the run
    res = simulate("epsilon", reps=30, seed=1, out=out, resume=True)
    assert len(res.reps) == 30
    ref = simulate("epsilon", reps=30, seed=1)
    assert np.array_equal(res.pvalue["kfold_t"], ref.pvalue["kfold_t"])


def test_rescore_under_another_profile_from_stored_tables(tmp_path):
    out = str(tmp_path / "run")
    simulate("simple", reps=4, seed=2, out=out, backend="python")
    again = load_result(out, profile="paper")
    direct = simulate("simple", reps=4, seed=2, backend="python", profile="paper")
    for k in TABLE5_TESTS:
        assert np.array_equal(again.pvalue[k], direct.pvalue[k], equal_nan=True)
    assert again.config.profile == "paper"


def test_bad_arguments():
    with pytest.raises(ValueError, match="reps"):
        simulate("epsilon", reps=0)
    with pytest.raises(ValueError, match="unknown data set"):
        simulate("nope", reps=1)
    with pytest.raises(ValueError, match="unknown test"):
        simulate("epsilon", tests=["nope"], reps=1)


# ------------------------------------------------------------------ compare
def test_compare_gives_all_tests_and_bcv_tables():
    from pybcv import datasets as D
    d = D.exp6(1)
    cmp = compare(d.X, d.y, "J48-unpruned", "fnn-weighted:omega=0.29", tests="table5", seed=3,
                  backend="python")
    assert sorted(cmp.results) == sorted(TABLE5_TESTS)
    assert list(cmp.results)[0] == "mcnemar_5x2bcv"          # the paper's test first
    assert np.isclose(cmp.averaged_table.sum(), 150)
    assert np.allclose(cmp.effective_table, cmp.averaged_table * 20 / 11)
    bcv = cmp.results["mcnemar_5x2bcv"]
    assert cmp.averaged_table is bcv.averaged_table
    assert cmp.backends == ("python", "python")
    # the same seed gives the same results; a plain sklearn classifier works too
    again = compare(d.X, d.y, "J48-unpruned", {"name": "fnn-weighted", "omega": 0.29}, tests="table5",
                    seed=3, backend="python")
    assert all(again.results[k].pvalue == cmp.results[k].pvalue for k in TABLE5_TESTS)
    from sklearn.neighbors import KNeighborsClassifier
    c2 = compare(d.X, d.y, KNeighborsClassifier(1), "majority", tests=["mcnemar_5x2bcv"], backend="python")
    assert list(c2.results) == ["mcnemar_5x2bcv"]


def test_compare_losses_reads_fixed_losses():
    from pybcv import datasets as D
    d = D.epsilon(4)
    cmp = compare_losses(d.loss_a, d.loss_b, tests="all", seed=1)
    assert set(cmp.results) == set(TESTS)
    with pytest.raises(ValueError, match="profile 'paper' sets cvci_z"):   # for simulations only
        compare_losses(d.loss_a, d.loss_b, tests="all", seed=1, profile="paper")
    assert np.isclose(cmp.averaged_table.sum(), 150)
    res = simulate("epsilon", reps=1, seed=0)
    assert set(res.pvalue) == set(TABLE5_TESTS)


@pytest.mark.parametrize("design", sorted(DESIGNS))
@pytest.mark.parametrize("n", [40, 301, 1000])
def test_tables_from_predictions_equal_per_fold_tables(design, n):
    from pybcv.outcomes import contingency_table, tables_from_predictions
    a = DESIGNS[design].splits(n, np.random.default_rng(1))
    rng = np.random.default_rng(n)
    y = rng.integers(0, 3, n)
    pa = [rng.integers(0, 3, len(te)) for _, te in a]
    pb = [rng.integers(0, 3, len(te)) for _, te in a]
    per_fold = np.stack([contingency_table(x != y[te], u != y[te]) for x, u, (_, te) in zip(pa, pb, a)])
    assert np.array_equal(tables_from_predictions(y, pa, pb, a), per_fold)


# The committed replication is reproduced bit for bit in tests/test_replication_archive.py.


# ------------------------------------------------------------------ CI coverage next to the type-I error
def _fake_interval(half_width):
    """A stand-in TestSpec.batch_with_intervals: the test's statistic and
    p-value, and the mean fold difference +- half_width."""
    def batch_with_intervals(self, tables, n_train, n_test, level=0.95, **opts):
        from pybcv.outcomes import differences
        stat, p = self.batch(tables, n_train, n_test, **opts)
        d = differences(tables).mean(-1)
        return stat, p, d - half_width, d + half_width
    return batch_with_intervals


@pytest.mark.parametrize("half_width,expected", [(1.0, 1.0), (0.0, 0.0)])
def test_coverage_is_reported_where_the_true_difference_is_known(monkeypatch, tmp_path, half_width,
                                                                 expected):
    from pybcv.stats.registry import TestSpec
    monkeypatch.setattr(TestSpec, "batch_with_intervals", _fake_interval(half_width), raising=False)
    res = simulate("epsilon", tests=["mcnemar_5x2bcv", "kfold_t"], reps=40, seed=1)
    cov = res.coverage()
    # epsilon: mu_A = mu_B by construction; a +-1 interval always covers 0, a +-0 one
    # covers it only when the fold differences average exactly 0
    if expected == 1.0:
        assert cov == {"mcnemar_5x2bcv": 1.0, "kfold_t": 1.0}
    else:
        assert all(v < 0.5 for v in cov.values()) and set(cov) == {"mcnemar_5x2bcv", "kfold_t"}
    s = res.summary()
    assert list(s["ci_coverage"]) == [cov["mcnemar_5x2bcv"], cov["kfold_t"]]
    stored = simulate("simple", tests=["mcnemar_5x2bcv"], reps=3, seed=1, backend="python",
                      out=str(tmp_path / "s"))
    assert set(stored.coverage()) == {"mcnemar_5x2bcv"}
    again = load_result(str(tmp_path / "s"))                       # from the stored fold tables
    assert again.coverage() == stored.coverage()
    off = simulate("simple", tests=["mcnemar_5x2bcv"], reps=2, seed=1, backend="python",
                   data_params={"delta": 1.0})
    assert off.coverage() == {} and np.isnan(off.summary()["ci_coverage"][0])     # truth unknown


@pytest.mark.parametrize("experiment, chunk, runs", [("epsilon", None, 1), ("simple", None, 1),
                                                     ("simple", 1, 2)])
def test_each_kernel_runs_once_per_chunk_for_score_and_interval(monkeypatch, experiment, chunk,
                                                                 runs):
    """The statistic, p-value and interval of a chunk's repetitions come
    from one run of each test's kernel (not one for the score and one for the
    interval, nor one per repetition): learner-free repetitions all at once,
    fitted ones once per chunk (simple's chunk is 4: the 2 repetitions in
    one; a chunk of 1: one run each)."""
    import dataclasses
    from pybcv.stats import registry
    calls = {}
    for k in ("mcnemar_5x2bcv", "kfold_t"):
        spec = registry.TESTS[k]

        def counted(*a, _kernel=spec.kernel, _k=k, **o):
            calls[_k] = calls.get(_k, 0) + 1
            return _kernel(*a, **o)
        monkeypatch.setitem(registry.TESTS, k, dataclasses.replace(spec, kernel=counted))
    res = simulate(experiment, tests=["mcnemar_5x2bcv", "kfold_t"], reps=2, seed=1,
                   backend="python", chunk=chunk)
    assert set(res.interval) == {"mcnemar_5x2bcv", "kfold_t"}
    assert calls == {"mcnemar_5x2bcv": runs, "kfold_t": runs}


def test_no_coverage_where_a_test_gives_no_interval():
    """The naive K-fold McNemar has no interval (NaN bounds): no coverage
    for it, while the paired t on the same folds has one."""
    res = simulate("epsilon", tests=["mcnemar_kfold_naive", "kfold_t"], reps=20, seed=1)
    lo, hi = res.interval["mcnemar_kfold_naive"]
    assert np.isnan(lo).all() and np.isnan(hi).all()
    assert set(res.coverage()) == {"kfold_t"}
    s = res.summary().set_index("test")
    assert np.isnan(s.loc["mcnemar_kfold_naive", "ci_coverage"]) and s.loc["kfold_t", "ci_coverage"] > 0.5


def test_simulate_takes_a_run_config():
    cfg = RunConfig("epsilon", ["kfold_t"], seed=3)
    a = simulate(cfg, 25)
    b = simulate("epsilon", reps=25, tests=["kfold_t"], seed=3)
    assert np.array_equal(a.pvalue["kfold_t"], b.pvalue["kfold_t"])
    with pytest.raises(TypeError, match="not both"):
        simulate(cfg, 5, seed=4)


# ------------------------------------------------------------------ compact archive folders
def test_load_result_reads_an_archive_folder_like_a_store(tmp_path):
    """A compact archive folder (pybcv.engine.archive) is read exactly as its store."""
    from pybcv.engine import archive
    src = str(tmp_path / "src")
    simulate("simple", tests=["mcnemar_5x2bcv", "kfold_t"], reps=3, seed=2, backend="python", out=src)
    arch = os.path.dirname(archive.from_sqlite(src, str(tmp_path / "arch")))
    assert not os.path.exists(os.path.join(arch, "results.sqlite"))
    a, b = load_result(src), load_result(arch)
    assert np.array_equal(a.reps, b.reps) and a.config == b.config and a.backends == b.backends
    for k in a.pvalue:
        assert np.array_equal(a.pvalue[k], b.pvalue[k], equal_nan=True)
    p1, p2 = load_result(src, profile="paper"), load_result(arch, profile="paper")
    assert np.array_equal(p1.pvalue["kfold_t"], p2.pvalue["kfold_t"])
    from pybcv.report import build_report
    assert "simple: type-I error" in build_report([arch])


# ------------------------------------------------------------------ stratify (issue 21)
def test_stratified_run_draws_the_stratified_5x2_bcv():
    """RunConfig(stratify=True): the run's fold tables are those of the
    stratified 5x2 BCV drawn from the design's stream (the plain run's are
    not); the plain run's identity is unchanged."""
    from pybcv import seeds
    from pybcv.engine.repetition import run_repetition
    from pybcv.partitions import StratifiedBlockRegularizedMx2CV
    kw = dict(n=120, data_params={"delta": 1.0}, learner_a={"name": "glm"},
              learner_b={"name": "majority"}, backend="python", seed=3)
    strat = RunConfig("simple", "mcnemar_5x2bcv", stratify=True, **kw)
    plain = RunConfig("simple", "mcnemar_5x2bcv", **kw)
    assert "stratify" not in plain.identity() and strat.identity()["stratify"] is True
    d = strat.dataset_for(0)
    want = StratifiedBlockRegularizedMx2CV(m=5).splits(d.n, seeds.rng(seeds.design_seq(3, 0, "bcv5x2")),
                                                        y=d.y)
    from pybcv.learners import make_learner
    from pybcv.pipeline import fold_tables
    expected = fold_tables(make_learner("glm", backend="python"),
                           make_learner("majority", backend="python"), d.X, d.y,
                           {"bcv5x2": want})["bcv5x2"]
    assert np.array_equal(run_repetition(strat, 0).tables["bcv5x2"], expected)
    assert not np.array_equal(run_repetition(plain, 0).tables["bcv5x2"], expected)


def test_grouped_run_draws_the_grouped_5x2_bcv():
    """RunConfig(group_size=g): the run's fold tables are those of the
    grouped 5x2 BCV with the groups arange(n) // g, and no group is on both
    sides of a fold."""
    from pybcv import seeds
    from pybcv.engine.repetition import run_repetition
    from pybcv.learners import make_learner
    from pybcv.partitions import GroupBlockRegularizedMx2CV
    from pybcv.pipeline import fold_tables
    cfg = RunConfig("simple", "mcnemar_5x2bcv", n=160, data_params={"delta": 1.0},
                    learner_a={"name": "glm"}, learner_b={"name": "majority"},
                    backend="python", seed=4, group_size=4)
    assert cfg.identity()["group_size"] == 4
    d = cfg.dataset_for(0)
    groups = np.arange(160) // 4
    want = GroupBlockRegularizedMx2CV(m=5).splits(160, seeds.rng(seeds.design_seq(4, 0, "bcv5x2")),
                                                  groups=groups)
    for tr, te in want:
        assert not set(groups[tr]) & set(groups[te])
    expected = fold_tables(make_learner("glm", backend="python"),
                           make_learner("majority", backend="python"), d.X, d.y,
                           {"bcv5x2": want})["bcv5x2"]
    assert np.array_equal(run_repetition(cfg, 0).tables["bcv5x2"], expected)


def test_stratify_refuses_what_it_cannot_draw():
    with pytest.raises(ValueError, match="learner-free"):
        RunConfig("epsilon", "mcnemar_5x2bcv", stratify=True)
    with pytest.raises(ValueError, match="block-regularized"):
        RunConfig("simple", "t_5x2cv", stratify=True)
    with pytest.raises(ValueError, match="stratify must be True or False"):
        RunConfig("simple", "mcnemar_5x2bcv", stratify="yes")
    with pytest.raises(ValueError, match="group_size must be a non-negative integer"):
        RunConfig("simple", "mcnemar_5x2bcv", group_size=-2)
    with pytest.raises(ValueError, match="cannot be combined"):
        RunConfig("simple", "mcnemar_5x2bcv", stratify=True, group_size=2)
    with pytest.raises(ValueError, match="grouped"):
        RunConfig("simple", "t_5x2cv", group_size=2)


def test_a_learner_free_run_keeps_its_tables_when_asked(tmp_path, monkeypatch):
    """RunConfig(keep_tables=True): the store keeps the learner-free run's
    drawn fold tables, and reading it re-scores them without redrawing, to
    the numbers of a plain run (which redraws them)."""
    from pybcv.engine import Store, simulation
    from pybcv.engine.repetition import learner_free_batch
    tests = ["mcnemar_5x2bcv", "corrected_10x10cv_t"]
    kept = RunConfig("epsilon", tests, seed=3, n=100, keep_tables=True)
    assert kept.identity()["keep_tables"] is True
    assert "keep_tables" not in RunConfig("epsilon", tests).identity()
    assert not RunConfig("simple", tests, keep_tables=True).keep_tables   # learner runs: always
    with pytest.raises(ValueError, match="keep_tables must be True or False"):
        RunConfig("epsilon", tests, keep_tables="yes")
    simulate(kept, 5, out=str(tmp_path / "kept"))
    plain = load_result(simulate(RunConfig("epsilon", tests, seed=3, n=100), 5,
                                 out=str(tmp_path / "plain")).out, profile="paper")
    st = Store(str(tmp_path / "kept"), readonly=True)
    reps, T = st.tables([1, 3])
    st.close()
    drawn = learner_free_batch(kept, [1, 3])
    assert list(reps) == [1, 3] and all(np.array_equal(T[u], drawn[u]) for u in drawn)
    monkeypatch.setattr(simulation, "learner_free_batch", None)   # nothing is redrawn
    again = load_result(str(tmp_path / "kept"), profile="paper")
    for k in tests:
        for x, y in zip((*plain.interval[k], plain.pvalue[k]), (*again.interval[k], again.pvalue[k])):
            assert np.array_equal(x, y, equal_nan=True)


@pytest.mark.parametrize("fields", [{}, {"loss": "squared"}, {"share_designs": False}])
def test_a_chunk_scored_together_equals_each_repetition_alone(fields):
    """run_chunk scores its fitted repetitions in one batch; every statistic,
    p-value and interval is the number that repetition gives alone."""
    from pybcv.engine.repetition import run_chunk, run_repetition
    cfg = RunConfig("simple", "table5", n=120, backend="python", seed=5, **fields)
    together = run_chunk(cfg, [0, 1, 2, 3])
    for rec in together:
        alone = run_repetition(cfg, rec.rep)
        assert rec.results == alone.results and rec.results
        np.testing.assert_array_equal(np.asarray(list(rec.intervals.values())),
                                      np.asarray(list(alone.intervals.values())))


def test_coverage_counts_an_empty_interval_as_a_miss(tmp_path):
    """An outside review: the F tests' interval is empty (NaN) exactly where
    they reject at every shift, and coverage left those repetitions out of
    its denominator (simple, 100 repetitions: the combined F's type-I error
    0.090 beside a coverage of 0.929).  An empty set misses the truth: on a
    null run, where each interval excludes 0 exactly when its test rejects,
    coverage is 1 - type-I error for every test that gives intervals; the
    naive K-fold McNemar (no interval) has none."""
    from pybcv.engine import RunConfig, simulate
    from pybcv.stats import TESTS
    keys = ["combined_f_5x2cv", "calibrated_f_5x2bcv", "t_5x2cv", "mcnemar_5x2bcv"]
    res = simulate(RunConfig("simple", keys, backend="python", seed=7), reps=100,
                   out=str(tmp_path / "s"), progress=False)
    cov = res.coverage()
    empty = {k: int(np.isnan(lo).sum()) for k, (lo, hi) in res.interval.items()}
    assert empty["combined_f_5x2cv"] > 0 and empty["calibrated_f_5x2bcv"] > 0   # the case at hand
    for k in keys:
        assert cov[k] == pytest.approx(1 - float(np.mean(res.pvalue[k] < 0.05))), k
    assert not TESTS["mcnemar_kfold_naive"].gives_interval()
    assert not TESTS["mcnemar_ho"].gives_interval(exact=True)
    assert TESTS["calibrated_f_5x2bcv"].gives_interval()
