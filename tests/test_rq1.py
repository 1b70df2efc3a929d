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
from pybcv.cli import main as cli_main


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
    assert cli_main(["rq1", "run", "--data", str(tmp_path), "--out", str(tmp_path / "o"),
                     "--datasets", "nosuch"]) == 2
    assert "nosuch" in capsys.readouterr().err
    assert cli_main(["rq1", "run", "--data", str(tmp_path), "--out", str(tmp_path / "o"),
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


# ----------------------------------------------------------------- archive
def consistent_tables(rng, n_test=150, folds=10):
    """(21, folds, 2, 2) tables of 7 learners' random correctness vectors
    (learner i wrong with its own rate), in the orientation of
    pybcv.outcomes: [[both wrong, A wrong only], [B wrong only, both right]]."""
    rates = rng.uniform(0.05, 0.6, size=7)
    base = rng.random((folds, n_test))
    wrong = [(0.6 * base + 0.4 * rng.random((folds, n_test))) < r for r in rates]
    T = np.empty((21, folds, 2, 2), dtype=np.int64)
    for p, (a, b) in enumerate(rq1.PAIRS):
        wa, wb = wrong[a], wrong[b]
        T[p, :, 0, 0], T[p, :, 0, 1] = (wa & wb).sum(1), (wa & ~wb).sum(1)
        T[p, :, 1, 0], T[p, :, 1, 1] = (~wa & wb).sum(1), (~wa & ~wb).sum(1)
    return T


CONFIG = {"version": 1, "seed": 0, "n_sample": 300, "design": "bcv5x2", "backend": "r"}


def synthetic_store(out, reps=(1, 0, 3, 2), datasets=("alpha", "beta", "gamma"), seed=0):
    """A store written through Store.write: out-of-order repetitions, one
    failed repetition (alpha 3: empty tables) and one whose tables no 7
    learners produce (beta 2)."""
    store = rq1.Store(str(out))
    store.init_config(CONFIG)
    for i, d in enumerate(datasets):
        for r in reps:
            rng = np.random.default_rng([seed, i, r])     # a row depends on (seed, d, r) only
            row = {"dataset": d, "rep": r, "seconds": float(rng.uniform(0.5, 30)),
                   "backend": "python/python/r/r/r/r/r", "error": "",
                   "tables": consistent_tables(rng)}
            if (d, r) == ("alpha", 3):
                row.update(tables=None, backend="", error="learner 'SMO': RuntimeError: boom")
            if (d, r) == ("beta", 2):
                row["tables"][5, 3, 0, 1] += 1       # a cell moves: still 150 records,
                row["tables"][5, 3, 1, 1] -= 1       # but A's errors disagree with its pairs
            store.write([row])
    store.close()
    return str(out)


def store_files(out):
    folder = os.path.join(out, "store")
    return {f: open(os.path.join(folder, f), "rb").read() for f in sorted(os.listdir(folder))}


def test_tables_from_counts_reproduce_learner_tables():
    rng = np.random.default_rng(4)
    T = np.stack([consistent_tables(rng, n_test=20, folds=3) for _ in range(5)])
    wrong = rq1.learner_errors(T).transpose(1, 0, 2)
    gap = np.minimum(wrong[[a for a, _ in rq1.PAIRS]], wrong[[b for _, b in rq1.PAIRS]]) \
        - T[..., 0, 0].transpose(1, 0, 2)
    assert (gap >= 0).all()
    np.testing.assert_array_equal(rq1.tables_from_counts(wrong, gap, T[:, 0].sum((-1, -2))), T)


def test_pack_unpack_round_trip_is_byte_identical(tmp_path):
    src = synthetic_store(tmp_path / "src")
    res = rq1.pack(src)
    assert res["repetitions"] == {"alpha": 4, "beta": 4, "gamma": 4}
    assert res["full_tables"] == 1                          # beta 2 keeps its tables
    with np.load(rq1.archive_path(src), allow_pickle=False) as z:
        assert z["wrong"].dtype == np.uint8 and z["wrong"].shape == (7, 12, 10)
        assert z["full_tables"].shape == (1, 21, 10, 2, 2)
    dst = str(tmp_path / "dst")
    os.makedirs(dst)
    with open(rq1.archive_path(src), "rb") as a, open(rq1.archive_path(dst), "wb") as b:
        b.write(a.read())
    assert rq1.unpack(dst) == {"alpha": 4, "beta": 4, "gamma": 4}
    assert store_files(dst) == store_files(src)
    # packing is deterministic: the rebuilt store packs to the same bytes
    again = str(tmp_path / "again.npz")
    rq1.pack(dst, again)
    assert open(again, "rb").read() == open(rq1.archive_path(src), "rb").read()


def test_unpack_into_existing_store(tmp_path):
    src = synthetic_store(tmp_path / "src")
    rq1.pack(src)
    assert rq1.unpack(src) == {"alpha": 0, "beta": 0, "gamma": 0}   # the store is the archive
    part = synthetic_store(tmp_path / "part", reps=(1, 0))            # a subset: completed
    os.replace(rq1.archive_path(src), rq1.archive_path(part))
    assert rq1.unpack(part) == {"alpha": 2, "beta": 2, "gamma": 2}
    for d in ("alpha", "beta", "gamma"):
        assert rq1.same_rows(dict(sorted(rq1.Store(part).read(d).items())),
                             dict(sorted(rq1.Store(src).read(d).items())))
    other = synthetic_store(tmp_path / "other", reps=(0,), seed=9)    # other numbers: refused
    os.replace(rq1.archive_path(part), rq1.archive_path(other))
    before = store_files(other)
    with pytest.raises(ValueError, match="differ from it; refusing"):
        rq1.unpack(other)
    assert store_files(other) == before


def test_pack_refuses_a_round_trip_that_differs(tmp_path, monkeypatch):
    src = synthetic_store(tmp_path / "src")
    real = rq1.tables_from_counts
    monkeypatch.setattr(rq1, "_decode_tables", lambda arrays, a, b: np.ascontiguousarray(real(
        arrays["wrong"][:, a:b], arrays["gap"][:, a:b], arrays["n_test"][a:b])) + 0)
    with pytest.raises(ValueError, match="does not reproduce the store.*beta"):
        rq1.pack(src)                      # the full tables of beta 2 are lost on the way
    assert os.listdir(src) == ["store"]    # no archive, no temporary file left


def test_pack_refuses_to_drop_archived_repetitions(tmp_path):
    src = synthetic_store(tmp_path / "src")
    rq1.pack(src)
    part = synthetic_store(tmp_path / "part", reps=(1, 0))
    os.replace(rq1.archive_path(src), rq1.archive_path(part))
    with pytest.raises(ValueError, match="holds repetitions that the store lacks"):
        rq1.pack(part)
    rq1.unpack(part)
    assert rq1.pack(part)["repetitions"]["alpha"] == 4


def test_report_from_archive_equals_report_from_store(tmp_path):
    src = synthetic_store(tmp_path / "src")
    rq1.pack(src)
    only = str(tmp_path / "only")
    os.makedirs(only)
    os.replace(rq1.archive_path(src), rq1.archive_path(only))
    df_store, obs_store = rq1.report(src, str(tmp_path / "r1"))
    df_arch, obs_arch = rq1.report(only, str(tmp_path / "r2"))
    pd.testing.assert_frame_equal(df_store, df_arch)
    assert obs_store == obs_arch and len(df_arch) == 63
    assert (df_arch.loc[df_arch["dataset"] == "alpha", "failed_reps"] == 1).all()
    assert open(tmp_path / "r1" / "rho.csv").read() == open(tmp_path / "r2" / "rho.csv").read()
    assert not os.path.exists(os.path.join(only, "store"))     # reading creates no store


def test_run_with_only_an_archive_unpacks_first(tmp_path, capsys):
    data = write_sets(str(tmp_path / "data"))
    kw = dict(seed=3, datasets=["num", "fac"], n_sample=40, backend="python", chunk=2)
    full = str(tmp_path / "full")
    rq1.run(data, full, reps=3, **kw)
    rq1.pack(full)
    fresh = str(tmp_path / "fresh")
    os.makedirs(fresh)
    os.replace(rq1.archive_path(full), rq1.archive_path(fresh))
    capsys.readouterr()
    assert rq1.run(data, fresh, reps=3, **kw) == {"num": 3, "fac": 3}
    assert "unpacking" in capsys.readouterr().err
    assert store_files(fresh) == store_files(full)            # nothing recomputed
    assert rq1.run(data, fresh, reps=4, **kw) == {"num": 4, "fac": 4}   # resumes from there


def test_cli_pack_unpack_report(tmp_path, capsys):
    src = synthetic_store(tmp_path / "src")
    assert cli_main(["rq1", "pack", "--out", src]) == 0
    assert '"full_tables": 1' in capsys.readouterr().out
    dst = str(tmp_path / "dst")
    assert cli_main(["rq1", "unpack", "--out", dst]) == 2
    assert "no archive" in capsys.readouterr().err
    os.makedirs(dst)
    os.replace(rq1.archive_path(src), rq1.archive_path(dst))
    assert cli_main(["rq1", "report", "--out", dst, "--report", str(tmp_path / "rep")]) == 0
    assert cli_main(["rq1", "unpack", "--out", dst]) == 0
    assert store_files(dst) == store_files(src)
    assert cli_main(["rq1", "pack"]) == 2                             # argparse: --out missing
    assert cli_main(["rq1", "report", "--out", str(tmp_path / "none")]) == 2
    assert "nothing to report" in capsys.readouterr().err


def test_sigint_stops_a_parallel_run_within_seconds_keeping_finished_work(tmp_path):
    """SIGINT to the command alone (as `kill -INT`): queued chunks are dropped,
    the workers stopped, exit 130; what finished is stored and resumes."""
    import signal
    import subprocess
    import sys
    import time
    data = write_sets(str(tmp_path / "data"))
    out = str(tmp_path / "out")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root)
    proc = subprocess.Popen([sys.executable, "-m", "pybcv", "rq1", "run", "--data", data, "--out", out,
                             "--reps", "400", "--datasets", "num,fac", "--n-sample", "40",
                             "--backend", "python", "--jobs", "2", "--chunk", "1"],
                            cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    store = os.path.join(out, "store", "num.tsv")
    deadline = time.time() + 120
    while time.time() < deadline and not (os.path.exists(store) and
                                          sum(1 for _ in open(store)) > 3):
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    t0 = time.time()
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("pybcv rq1 run did not stop within 30 s of SIGINT")
    stopped = time.time() - t0
    assert proc.returncode == 130 and "interrupted" in err, err
    assert stopped < 15
    kept = rq1.Store(out).read("num")
    assert 3 <= len(kept) < 400
