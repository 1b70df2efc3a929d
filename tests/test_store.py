"""The results store checks its own integrity: lost rows are never scored
(the repetition is recomputed on --resume), a damaged file, a dropped table
or a bad blob is a clear StoreError naming the file, finished runs read on
read-only media, a full disk says so, and failed repetitions are recorded as
failures, never as numbers."""
import os
import sqlite3

import numpy as np
import pytest

from pybcv.engine import load_result, simulate
from pybcv.engine import store as S

TESTS = ["mcnemar_5x2bcv", "cv10_t", "mcnemar"]
CONFIG = {"dataset": "simple", "tests": TESTS, "learner_a": {"name": "glm"}}


def _row(r, tables=True):
    rng = np.random.default_rng(r)
    return {"rep": r, "results": {k: (float(rng.normal()), float(rng.random())) for k in TESTS},
            "seconds": 0.01, "fits_a": 3, "fits_b": 3, "backend": "python/python",
            "tables": {"bcv5x2": rng.integers(0, 50, (10, 2, 2))} if tables else None}


def _store(folder, reps=5):
    st = S.Store(str(folder))
    st.init_config(CONFIG, resume=False, reps_target=reps)
    st.write([_row(r) for r in range(reps)])
    return st


def _sql(folder, *statements):
    con = sqlite3.connect(os.path.join(str(folder), S.DB_NAME))
    for s in statements:
        con.execute(s)
    con.commit()
    con.close()


def test_lost_result_rows_make_the_repetition_incomplete(tmp_path):
    _store(tmp_path).close()
    _sql(tmp_path, "DELETE FROM results WHERE rep=2 AND test='cv10_t'",
         "UPDATE reps SET tables=NULL WHERE rep=4")
    st = S.Store(str(tmp_path))
    assert st.incomplete() == {2: "result rows of 1 test(s) missing (cv10_t)",
                               4: "fold tables missing"}
    assert st.done() == {0, 1, 3}
    reps, res = st.results()
    assert reps.tolist() == [0, 1, 3] and not np.isnan(res["cv10_t"][1]).any()
    assert st.tables()[0].tolist() == [0, 1, 3]
    st.write([_row(2), _row(4)])                 # --resume recomputes them
    assert st.done() == set(range(5)) and st.incomplete() == {}
    st.close()


def test_resume_recomputes_a_repetition_whose_rows_were_lost(tmp_path):
    kw = dict(tests="table5", reps=6, seed=3, backend="python", n=200)
    out = str(tmp_path / "run")
    full = simulate("simple", out=out, **kw)
    _sql(out, "DELETE FROM results WHERE rep=1 AND test='kfold_t'",
         "DELETE FROM results WHERE rep=4")
    lost = load_result(out)                        # lost rows are not "not rejected"
    assert lost.reps.tolist() == [0, 2, 3, 5]
    again = simulate("simple", out=out, resume=True, **kw)
    assert again.reps.tolist() == list(range(6))
    for k in full.pvalue:
        assert np.array_equal(full.pvalue[k], again.pvalue[k], equal_nan=True)


@pytest.mark.parametrize("damage,msg", [
    ("truncate", r"damaged|not an SQLite database"),
    ("overwrite", r"not an SQLite database"),
    ("drop", r"table\(s\) results missing"),
    ("empty", r"is empty"),
])
def test_damaged_file_is_a_clear_error_naming_it(tmp_path, damage, msg):
    _store(tmp_path, reps=40).close()
    path = os.path.join(str(tmp_path), S.DB_NAME)
    if damage == "truncate":
        size = os.path.getsize(path)
        with open(path, "r+b") as f:
            f.truncate(size // 3)
    elif damage == "overwrite":
        with open(path, "w") as f:
            f.write("rep,test,p\n1,cv10_t,0.3\n" * 100)
    elif damage == "drop":
        _sql(tmp_path, "DROP TABLE results")
    else:
        open(path, "w").close()
    for readonly in (False, True):
        if damage == "empty" and not readonly:
            continue                    # an empty file is a new store for a writer
        with pytest.raises(S.StoreError, match=msg) as e:
            st = S.Store(str(tmp_path), readonly=readonly)
            st.results()
            st.tables()
        assert path in str(e.value)
    if damage in ("drop", "overwrite"):
        with pytest.raises(S.StoreError, match=msg):
            load_result(str(tmp_path))


def test_bad_blob_names_the_repetition(tmp_path):
    _store(tmp_path).close()
    _sql(tmp_path, "UPDATE reps SET tables=X'00112233' WHERE rep=3")
    st = S.Store(str(tmp_path), readonly=True)
    with pytest.raises(S.StoreError, match=r"fold tables of repetition 3 cannot be read"):
        st.tables()
    st.close()


def test_tables_blob_round_trip_and_stores_written_as_npz_still_read(tmp_path):
    import io
    import zlib
    tabs = {"bcv5x2": np.arange(40).reshape(10, 2, 2), "cv10": np.linspace(0, 1, 40).reshape(10, 4)}
    back = S.unpack_tables(S.pack_tables(tabs))
    assert list(back) == list(tabs) and back["bcv5x2"].dtype == np.int32
    assert all(np.array_equal(back[k], v) for k, v in tabs.items())
    # a repetition stored before the blob format (an npz of the same arrays)
    buf = io.BytesIO()
    np.savez(buf, bcv5x2=tabs["bcv5x2"].astype(np.int32), cv10=tabs["cv10"])
    old = S.unpack_tables(zlib.compress(buf.getvalue()))
    assert all(np.array_equal(old[k], v) for k, v in tabs.items())
    # a blob cut short is refused, never read as other numbers
    raw = zlib.decompress(S.pack_tables(tabs))
    with pytest.raises(ValueError):
        S.unpack_tables(zlib.compress(raw[:-8]))


def test_finished_run_reads_read_only_and_leaves_nothing(tmp_path, monkeypatch):
    out = str(tmp_path / "run")
    simulate("epsilon", tests="table5", reps=20, seed=1, out=out)
    before = sorted(os.listdir(out))
    assert before == ["results.sqlite", "summary.csv"]     # no -wal/-shm left by the writer
    with open(os.path.join(out, "results.sqlite"), "rb") as f:
        assert f.read(20)[18:20] == b"\x01\x01"            # rollback-journal mode, not WAL
    # a folder that cannot be written (a read-only mount): read-only automatically
    real_access = os.access
    monkeypatch.setattr(S.os, "access",
                        lambda p, mode: False if mode & os.W_OK else real_access(p, mode))
    st = S.Store(out)
    assert st.readonly and len(st.done()) == 20
    with pytest.raises(S.StoreError, match="read-only"):
        st.write([_row(0)])
    st.close()
    res = load_result(out)
    assert len(res.reps) == 20
    assert sorted(os.listdir(out)) == before
    # a writer's log beside the file cannot be read on a read-only folder: said in words
    open(os.path.join(out, "results.sqlite-wal"), "w").close()
    with pytest.raises(S.StoreError, match=r"-wal file .* read-only folder"):
        S.Store(out)


def test_full_disk_says_disk_is_full(tmp_path):
    st = _store(tmp_path, reps=2)
    pages = st.con.execute("PRAGMA page_count").fetchone()[0]
    st.con.execute(f"PRAGMA max_page_count={pages}")
    big = {"rep": 9, "results": {f"t{i}": (1.0, 0.5) for i in range(5000)}}
    with pytest.raises(S.StoreError, match=r"disk is full while storing repetition 9") as e:
        st.write([big])
    assert S.DB_NAME in str(e.value) and "cannot rollback" not in str(e.value)
    assert st.done() == {0, 1}                   # nothing half-written, the store still works
    st.con.execute("PRAGMA max_page_count=1073741823")
    st.write([_row(2)])
    assert st.done() == {0, 1, 2}
    st.close()


def test_failed_repetition_is_recorded_never_scored(tmp_path):
    st = _store(tmp_path, reps=3)
    st.record_failure(1, "R learner 'kknn' failed on fold 4 of 10: boom", learner="kknn",
                      design="cv10", fold=4)
    assert st.done() == {0, 2}
    assert st.settled() == {0, 1, 2}
    assert st.failures() == [{"rep": 1, "learner": "kknn", "design": "cv10", "fold": 4,
                              "message": "R learner 'kknn' failed on fold 4 of 10: boom"}]
    assert st.results()[0].tolist() == [0, 2]
    st.write([_row(1)])                       # a later success replaces the record
    assert st.failures() == [] and st.done() == {0, 1, 2}
    st.close()


def test_reading_a_run_never_changes_its_file(tmp_path):
    """load_result (the report) opens the file read-only: the bytes stay the
    same and no -wal/-shm files appear; a resume reopens it for writing."""
    out = str(tmp_path / "run")
    simulate("epsilon", tests="table5", reps=10, seed=2, out=out)
    path = os.path.join(out, S.DB_NAME)
    before = open(path, "rb").read()
    st = S.Store(out)
    assert st.readonly and st.done() == set(range(10))
    st.close()
    load_result(out, profile="paper")
    assert open(path, "rb").read() == before and sorted(os.listdir(out)) == [S.DB_NAME, "summary.csv"]
    again = simulate("epsilon", tests="table5", reps=12, seed=2, out=out, resume=True)
    assert again.reps.tolist() == list(range(12))


def test_results_are_the_stored_rows_of_complete_repetitions(tmp_path):
    """results() puts every stored value at its repetition's place, a stored
    NaN (NULL) back as nan and the tests in the configuration's order, and
    leaves out a repetition that lost a row (repetitions written out of
    order, with a gap in their numbers)."""
    st = S.Store(str(tmp_path))
    st.init_config(CONFIG, resume=False, reps_target=9)
    rows = [_row(r) for r in (7, 0, 3, 8, 1)]
    rows[2]["results"]["cv10_t"] = (float("nan"), 0.5)
    st.write(rows)
    st.close()
    _sql(tmp_path, "DELETE FROM results WHERE rep=8 AND test='mcnemar'")
    st = S.Store(str(tmp_path), readonly=True)
    reps, res = st.results()
    st.close()
    assert reps.tolist() == [0, 1, 3, 7]
    assert list(res) == TESTS            # the configuration's order, not the key's
    want = {r["rep"]: r["results"] for r in rows}
    for k in TESTS:
        for j in (0, 1):
            np.testing.assert_array_equal(res[k][j], [want[r][k][j] for r in (0, 1, 3, 7)])
    assert np.isnan(res["cv10_t"][0][2]) and res["cv10_t"][1][2] == 0.5
