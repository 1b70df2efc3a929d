"""RQ1 (pybcv.rq1): the rho estimator against known correlations, one
repetition's bookkeeping (each learner fitted once, 21 pairs), and a tiny run
that resumes, survives a torn store line and splits into jobs with identical
results.  Python learners only (no R needed)."""
from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

from conftest import requires_r
from pybcv import rq1


def equicorrelated(R, rho1, rho2, seed=0):
    """(R, 10) normal draws with the 5x2 BCV correlation structure."""
    C = np.full((10, 10), rho2)
    for j in range(5):
        C[2 * j, 2 * j + 1] = C[2 * j + 1, 2 * j] = rho1
    np.fill_diagonal(C, 1.0)
    return np.random.default_rng(seed).multivariate_normal(np.full(10, 0.3), 0.01 * C, size=R)


@pytest.mark.parametrize("rho1,rho2", [(0.0, 0.5), (-0.2, 0.3), (0.4, 0.1)])
def test_rho_estimates_recover_known_correlations(rho1, rho2):
    r1, r2, s2 = rq1.rho_estimates(equicorrelated(20000, rho1, rho2, seed=1))
    # standard errors at R = 20000 are below 0.01 for these pooled estimates
    assert abs(r1 - rho1) < 0.03 and abs(r2 - rho2) < 0.03
    assert abs(s2 - 0.01) < 0.0005


def test_rho_estimates_bad_shape_and_constant():
    with pytest.raises(ValueError, match=r"\(R, 10\)"):
        rq1.rho_estimates(np.zeros((5, 8)))
    r1, r2, s2 = rq1.rho_estimates(np.ones((4, 10)))
    assert np.isnan(r1) and np.isnan(r2) and s2 == 0


def write_sets(folder):
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(0)
    n = 120
    x = rng.normal(size=(n, 3))
    y = np.where(x[:, 0] + rng.normal(size=n) > 0, "p", "q")
    df = pd.DataFrame(x, columns=["a", "b", "c"])
    df["class"] = y
    df.to_csv(os.path.join(folder, "num.csv.gz"), index=False)
    f = rng.choice(["u", "v", "w"], size=n)
    df2 = pd.DataFrame({"f": f, "z": rng.normal(size=n),
                        "class": np.where((f == "u") ^ (rng.random(n) < 0.2), "A", "B")})
    df2.loc[3, "z"] = np.nan                       # an empty field and a "?" are dropped
    df2.to_csv(os.path.join(folder, "fac.csv.gz"), index=False)
    return folder


def test_load_uci_drops_missing(tmp_path):
    p = tmp_path / "m.csv"
    p.write_text("a,b,class\n1,x,c1\n?,y,c2\n3,,c1\n4,y,c2\n")
    X, y, dropped = rq1.load_uci(str(p))
    assert dropped == 2 and list(y) == ["c1", "c2"] and list(X["b"]) == ["x", "y"]


def test_each_learner_fitted_once_per_repetition(tmp_path):
    write_sets(str(tmp_path))
    X, y, _ = rq1.load_uci(str(tmp_path / "num.csv.gz"))
    calls = []
    base = rq1.make_learners("python")

    class Counting:
        def __init__(self, name):
            self.name = name

        def predict_splits(self, X, y, splits):
            calls.append((self.name, len(splits)))
            return base[self.name].predict_splits(X, y, splits)

    row = rq1.run_rep(X, y, 0, "num", 0, n_sample=40, backend="python",
                      learners={k: Counting(k) for k in rq1.LEARNERS})
    assert calls == [(k, 10) for k in rq1.LEARNERS]
    T = row["tables"]
    assert T.shape == (21, 10, 2, 2) and (T.sum(axis=(2, 3)) == 20).all()
    # pair (majority, mean) is pair 0; A's errors per fold agree across its pairs
    err_major = T[:6, :, 0, :].sum(axis=2)
    assert (err_major == err_major[0]).all()


def store_rows(out, name):
    return {r: v["tables"] for r, v in rq1.Store(out).read(name).items()}


def test_tiny_run_resumes_to_identical_results(tmp_path):
    data = write_sets(str(tmp_path / "data"))
    kw = dict(reps=4, seed=3, datasets=["num", "fac"], n_sample=40, backend="python", chunk=2)
    full = str(tmp_path / "full")
    rq1.run(data, full, **kw)
    part = str(tmp_path / "part")
    done = rq1.run(data, part, max_reps_this_call=3, **kw)
    assert sum(done.values()) == 3
    with open(os.path.join(part, "store", "num.tsv"), "a") as fh:
        fh.write("3\t0.1\tpython\t\tAAAA")        # a torn line, as after a kill
    assert rq1.run(data, part, **kw) == {"num": 4, "fac": 4}
    for name in ("num", "fac"):
        a, b = store_rows(full, name), store_rows(part, name)
        assert sorted(a) == sorted(b) == [0, 1, 2, 3]
        for r in a:
            np.testing.assert_array_equal(a[r], b[r])
    df, obs = rq1.report(full, str(tmp_path / "rep"))
    assert {"dataset", "learner_a", "learner_b", "rho1", "rho2", "reps"} <= set(df.columns)
    assert len(df) == 42 and (df["reps"] == 4).all()
    assert os.path.getsize(tmp_path / "rep" / "rho_scatter.png") > 1000
    with pytest.raises(ValueError, match="another configuration.*seed"):
        rq1.run(data, full, **{**kw, "seed": 4})


def test_jobs_give_the_same_results(tmp_path):
    data = write_sets(str(tmp_path / "data"))
    kw = dict(reps=2, seed=5, datasets=["num", "fac"], n_sample=40, backend="python", chunk=1)
    rq1.run(data, str(tmp_path / "one"), **kw)
    rq1.run(data, str(tmp_path / "two"), jobs=2, **kw)
    for name in ("num", "fac"):
        a, b = store_rows(str(tmp_path / "one"), name), store_rows(str(tmp_path / "two"), name)
        assert sorted(a) == sorted(b)
        for r in a:
            np.testing.assert_array_equal(a[r], b[r])


def test_cli_errors_are_messages(tmp_path, capsys):
    assert rq1.main(["run", "--data", str(tmp_path), "--out", str(tmp_path / "o"),
                     "--datasets", "nosuch"]) == 2
    assert "nosuch" in capsys.readouterr().err
    assert rq1.main(["run", "--data", str(tmp_path), "--out", str(tmp_path / "o"),
                     "--reps", "0"]) == 2


@requires_r("RWeka", "kknn")
def test_one_repetition_with_the_r_learners():
    """The paper's learners through R (Weka on the JVM path, kknn), factors
    included, one of them constant in the sample (dropped: kknn refuses it)."""
    rng = np.random.default_rng(2)
    n = 80
    f = rng.choice(["u", "v", "w"], size=n)
    X = pd.DataFrame({"f": f, "z": rng.normal(size=n), "const": ["k"] * n})
    y = np.where((f == "u") ^ (rng.random(n) < 0.2), "A", "B")
    row = rq1.run_rep(X, y, 0, "mixed", 0, n_sample=64, backend="r")
    assert row["error"] == "", row["error"]
    assert row["backend"] == "python/python/r/r/r/r/r"
    assert row["tables"].shape == (21, 10, 2, 2) and (row["tables"].sum(axis=(2, 3)) == 32).all()


def test_dask_gives_the_same_results(tmp_path):
    distributed = pytest.importorskip("distributed")
    data = write_sets(str(tmp_path / "data"))
    kw = dict(reps=2, seed=6, datasets=["num", "fac"], n_sample=40, backend="python", chunk=1)
    rq1.run(data, str(tmp_path / "one"), **kw)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        rq1.run(data, str(tmp_path / "dask"), scheduler=cluster.scheduler_address, **kw)
    for name in ("num", "fac"):
        a, b = store_rows(str(tmp_path / "one"), name), store_rows(str(tmp_path / "dask"), name)
        assert sorted(a) == sorted(b) == [0, 1]
        for r in a:
            np.testing.assert_array_equal(a[r], b[r])
