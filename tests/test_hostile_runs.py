"""Archives, stores and names that become paths, held to the input contract
(issue 22): a damaged or crafted file, a name or an option gets a clear
error naming it -- never a number, a traceback or a write outside the output
folder; reading a run keeps memory bounded in its repetitions; one writer
per run folder."""
import json
import os

import numpy as np
import pandas as pd
import pytest

from pybcv import rq1
from pybcv.cli import main
from pybcv.engine import archive, load_result, simulate
from pybcv.engine import simulation as simulation_module
from pybcv.engine import store as S
from test_rq1 import write_sets


# ------------------------------------------------------------------ engine archives
def _archive(folder, reps=4, tests=("t", "u")):
    rng = np.random.default_rng(0)
    res = {k: (rng.normal(size=reps), rng.random(reps)) for k in tests}
    tabs = {"cv2": rng.multinomial(3, [0.25] * 4, size=(reps, 2)).reshape(reps, 2, 2, 2)}
    info = [(r, 0.1, 2, 2, "python/python") for r in range(reps)]
    archive.write_run(str(folder), {"dataset": "simple", "seed": 0}, list(range(reps)), res,
                      tabs, info)
    return str(folder)


def _tamper(folder, **members):
    """Rewrite run.npz with some members replaced (None: removed)."""
    path = os.path.join(folder, archive.FILE_NAME)
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    for k, v in members.items():
        k = k.replace("__", "/")
        if v is None:
            arrays.pop(k)
        else:
            arrays[k] = v
    archive._write_npz(path, arrays)


def _meta(folder):
    with np.load(os.path.join(folder, archive.FILE_NAME)) as z:
        return json.loads(z["meta"].tobytes().decode())


def _meta_array(meta):
    return np.frombuffer(json.dumps(meta).encode(), np.uint8)


def test_a_genuine_archive_reads(tmp_path):
    run = archive.read_run(_archive(tmp_path / "a"))
    assert len(run["reps"]) == 4 and run["tables"]["cv2"].shape == (4, 2, 2, 2)


@pytest.mark.parametrize("change, member", [
    (lambda d: {"pvalue": np.full((2, 4), np.nan)}, "pvalue"),          # all NaN
    (lambda d: {"pvalue": np.full((2, 4), 7.0)}, "pvalue"),             # p = 7
    (lambda d: {"reps": np.arange(3)}, "statistic"),                     # reps shorter
    (lambda d: {"tables__cv2": np.ones((3, 4, 2), np.float64)}, "tables/cv2"),   # floats
    (lambda d: {"tables__cv2": np.full((3, 4, 2), 200, np.uint8)}, "tables/cv2"),  # > fold size
    (lambda d: {"fits": -np.ones((2, 4), np.int64)}, "fits"),
    (lambda d: {"backend": np.full(4, 9, np.uint8)}, "backend"),
    (lambda d: {"seconds": None}, "seconds"),
    (lambda d: {"meta": _meta_array({**_meta(d), "tests": "t"})}, "meta"),
    (lambda d: {"meta": np.frombuffer(b"\xff\xfe", np.uint8)}, "meta"),
])
def test_a_damaged_archive_is_refused_naming_the_member(tmp_path, change, member):
    d = _archive(tmp_path / "a")
    _tamper(d, **change(d))
    with pytest.raises(ValueError, match=f"member '{member}'"):
        archive.read_run(d)
    # the command line says it in one line, exit 2, no traceback
    assert main(["archive", "show", d]) == 2


def test_an_archive_that_inflates_beyond_the_bound_is_not_read(tmp_path, monkeypatch):
    d = _archive(tmp_path / "a")
    _tamper(d, pad=np.zeros(20 * 2 ** 20, np.uint8))        # 20 MiB of zeros: ~20 KB on disk
    monkeypatch.setattr(archive, "MIN_INFLATE_LIMIT", 2 ** 20, raising=False)
    with pytest.raises(ValueError, match="inflate to"):
        archive.read_run(d)


def test_the_archive_command_line_gives_plain_messages(tmp_path, capsys):
    assert main(["archive", "show", str(tmp_path / "nothing")]) == 2
    d = _archive(tmp_path / "a")
    meta = _meta(d)
    del meta["tables"]                                      # a KeyError before
    _tamper(d, meta=_meta_array(meta))
    assert main(["archive", "show", d]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "'tables' must be a JSON object" in err


# ------------------------------------------------------------------ engine store
def test_a_second_writer_of_a_run_folder_is_refused(tmp_path):
    from pybcv.engine import RunConfig
    first = S.Store(str(tmp_path))
    first.init_config(RunConfig("epsilon", ["mcnemar_ho"]).identity(), False, 2)
    with pytest.raises(S.StoreError, match="being written by another pybcv process"):
        simulate("epsilon", tests=["mcnemar_ho"], reps=2, out=str(tmp_path), resume=True)
    first.close()
    res = simulate("epsilon", tests=["mcnemar_ho"], reps=2, out=str(tmp_path), resume=True)
    assert len(res.reps) == 2
    assert not os.path.exists(os.path.join(str(tmp_path), S.LOCK_NAME))


def test_out_starting_with_file_colon_is_a_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--dataset", "epsilon", "--tests", "mcnemar_ho", "--reps", "2",
                 "--out", "file:run?mode=memory", "--quiet"]) == 0
    assert os.path.isfile(os.path.join("file:run?mode=memory", S.DB_NAME))
    assert len(load_result("file:run?mode=memory").reps) == 2


def test_reading_a_learner_free_run_redraws_its_tables_in_chunks(tmp_path, monkeypatch):
    out = str(tmp_path / "eps")
    simulate("epsilon", tests=["mcnemar_ho", "mcnemar_5x2bcv"], reps=20, seed=2, out=out)
    whole = load_result(out)
    sizes = []
    real = simulation_module.learner_free_batch

    def counting(cfg, reps):
        sizes.append(len(reps))
        return real(cfg, reps)
    monkeypatch.setattr(simulation_module, "learner_free_batch", counting)
    monkeypatch.setattr(simulation_module, "RESCORE_CHUNK", 7, raising=False)
    chunked = load_result(out, profile="paper")
    assert sizes and max(sizes) <= 7 and sum(sizes) == 20
    again = load_result(out)
    for k in whole.config.tests:
        for a, b in ((whole.interval[k][0], again.interval[k][0]),
                     (whole.pvalue[k], again.pvalue[k])):
            assert np.array_equal(a, b, equal_nan=True)
    assert set(chunked.pvalue) == set(whole.pvalue)


def test_reading_a_run_with_stored_tables_takes_them_in_chunks(tmp_path, monkeypatch):
    """A learner run's tables are read from the store RESCORE_CHUNK
    repetitions at a time (memory bounded in the repetitions), with the
    numbers of reading them at once."""
    out = str(tmp_path / "simple")
    simulate("simple", tests=["mcnemar_5x2bcv", "kfold_t"], n=40, reps=5, seed=2,
             backend="python", out=out)
    whole, paper = load_result(out), load_result(out, profile="paper")
    sizes, real = [], S.Store.tables

    def spy(self, reps=None):
        sizes.append(None if reps is None else len(reps))
        return real(self, reps)
    monkeypatch.setattr(S.Store, "tables", spy)
    monkeypatch.setattr(simulation_module, "RESCORE_CHUNK", 2)
    for a, b in ((whole, load_result(out)), (paper, load_result(out, profile="paper"))):
        for k in a.config.tests:
            for x, y in zip((*a.interval[k], a.pvalue[k]), (*b.interval[k], b.pvalue[k])):
                assert np.array_equal(x, y, equal_nan=True)
    assert sizes == [2, 2, 1] * 2


def test_a_run_whose_repetitions_all_failed_reports_plainly(tmp_path, monkeypatch, capsys):
    from pybcv.engine import repetition as repetition_module
    from pybcv.learners import PredictionError

    class Fails:
        def predict_splits(self, X, y, splits):
            raise PredictionError("glm", 0, len(splits), "predicted 0.7")
    monkeypatch.setattr(repetition_module, "learner_from_spec", lambda spec, backend="auto": Fails())
    out = str(tmp_path / "run")
    res = simulate("simple", tests="table5", n=60, reps=2, backend="python", out=out)
    s = res.summary()
    assert len(res.reps) == 0 and len(res.failures) == 2 and (s["failed_reps"] == 2).all()
    assert s["rejection_rate"].isna().all()
    assert main(["report", out]) == 0
    assert "no finished repetition" in capsys.readouterr().out


def test_an_empty_results_file_is_reported_in_words_and_left_alone(tmp_path, capsys):
    open(tmp_path / S.DB_NAME, "w").close()
    assert main(["report", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "is empty" in err and "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == [S.DB_NAME] and os.path.getsize(tmp_path / S.DB_NAME) == 0


def test_report_title_and_folder_html_is_shown_not_rendered(tmp_path, capsys):
    out = str(tmp_path / "eps")
    simulate("epsilon", tests=["mcnemar_ho"], reps=2, out=out)
    assert main(["report", out, "--title", "<img src=x onerror=alert(1)>"]) == 0
    text = capsys.readouterr().out
    assert "<img" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text


# ------------------------------------------------------------------ RQ1
def rq1_run(out, dataset="alpha", reps=3, seed=0):
    """A small RQ1 run archived under ``out/runs/<dataset>`` (tables that
    seven learners' predictions give; the 21 pairs scored)."""
    from pybcv.engine import RunConfig
    from pybcv.engine.config import score
    cfg = RunConfig("rq1", "mcnemar_5x2bcv", data_params={"file": dataset})
    rng = np.random.default_rng(seed)
    wrong = rng.random((7, reps, 10, 30)) < rng.uniform(0.1, 0.5, size=(7, 1, 1, 1))
    tables = {}
    for i, j, p in cfg.pairs():
        a, b = wrong[i], wrong[j]
        tables[f"bcv5x2@{p}"] = np.stack([np.stack([(a & b).sum(-1), (a & ~b).sum(-1)], -1),
                                          np.stack([(~a & b).sum(-1), (~a & ~b).sum(-1)], -1)], -2)
    res, _ = score(cfg, tables)
    archive.write_run(os.path.join(str(out), "runs", dataset), cfg.identity(), list(range(reps)),
                      res, tables, [(r, 1.0, 70, 0, "python") for r in range(reps)])
    return str(out)


def _rq1_arrays(out, dataset="alpha"):
    return archive.read_npz(os.path.join(out, "runs", dataset, archive.FILE_NAME))


def _rq1_rewrite(out, arrays, dataset="alpha"):
    archive._write_npz(os.path.join(out, "runs", dataset, archive.FILE_NAME), arrays)


def test_an_rq1_archive_cannot_name_a_path(tmp_path, capsys):
    out = rq1_run(tmp_path / "src")
    arrays = _rq1_arrays(out)
    meta = json.loads(arrays["meta"].tobytes().decode())
    meta["config"]["data_params"]["file"] = "../../escaped"
    arrays["meta"] = _meta_array(meta)
    _rq1_rewrite(out, arrays)
    with pytest.raises(ValueError, match="data-set name '../../escaped' is not a plain name"):
        rq1.report(out, str(tmp_path / "rep"))
    assert main(["rq1", "report", "--out", out]) == 2
    assert "escaped" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "rep" / "rho.csv")


def test_rq1_datasets_option_cannot_name_a_path(tmp_path, capsys):
    data = write_sets(str(tmp_path / "data"))
    os.replace(os.path.join(data, "num.csv.gz"), str(tmp_path / "x.csv.gz"))   # data/../x
    out = tmp_path / "out"
    assert main(["rq1", "run", "--data", data, "--out", str(out), "--datasets", "../x",
                 "--reps", "1", "--n-sample", "40", "--backend", "python"]) == 2
    assert "--datasets: data-set name '../x'" in capsys.readouterr().err
    assert not os.path.exists(out)


def test_rq1_report_refuses_negative_counts(tmp_path):
    out = rq1_run(tmp_path / "src")
    arrays = _rq1_arrays(out)
    gap = arrays["pairs/bcv5x2/gap"].astype(np.int64)
    gap[0, 0, 0] += 200                    # n00 = min(errA, errB) - gap < 0
    arrays["pairs/bcv5x2/gap"] = gap.astype(np.uint16)
    _rq1_rewrite(out, arrays)
    with pytest.raises(ValueError, match="negative table cell"):
        rq1.rho_table(out)
    assert main(["rq1", "report", "--out", out]) == 2
    assert not os.path.exists(os.path.join(out, "rho.csv"))


@pytest.mark.parametrize("change, says", [
    (lambda m: m["pair_tables"]["bcv5x2"].update(fold_sizes=[30] * 9), "pairs/bcv5x2/wrong"),
    (lambda m: m["config"].pop("learners"), "needs the config's learners"),
    (lambda m: m.pop("pair_tables"), "'scored' without 'pair_tables'"),
])
def test_rq1_archive_meta_must_agree_with_the_arrays(tmp_path, change, says):
    out = rq1_run(tmp_path / "src")
    arrays = _rq1_arrays(out)
    meta = json.loads(arrays["meta"].tobytes().decode())
    change(meta)
    arrays["meta"] = _meta_array(meta)
    _rq1_rewrite(out, arrays)
    with pytest.raises(archive.ArchiveError, match=says):
        rq1.pair_tables(out)


def test_rq1_report_of_an_empty_run_is_a_message(tmp_path, capsys):
    from pybcv.engine import RunConfig
    folder = tmp_path / "runs" / "cmc"
    os.makedirs(folder)
    st = S.Store(str(folder))
    st.init_config(RunConfig("rq1", "mcnemar_5x2bcv", data_params={"file": "cmc"}).identity(),
                   False, 10)
    st.close()
    assert main(["rq1", "report", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "nothing to report" in err and "Traceback" not in err


def test_rq1_run_folder_named_as_a_formula_never_reaches_rho_csv(tmp_path):
    out = rq1_run(tmp_path / "src")
    runs = os.path.join(out, "runs")
    os.replace(os.path.join(runs, "alpha"), os.path.join(runs, "=1+2"))
    with pytest.raises(ValueError, match=r"data-set name '=1\+2'"):
        rq1.report(out, str(tmp_path / "rep"))
    assert not os.path.exists(tmp_path / "rep" / "rho.csv")
    safe = rq1.csv_safe(pd.DataFrame({"dataset": ["=1+2", "@x", "ok"], "rho1": [-0.5, 0.1, 0.2]}))
    assert safe["dataset"].tolist() == ["'=1+2", "'@x", "ok"] and safe["rho1"].tolist()[0] == -0.5


def test_an_rq1_run_of_another_data_set_is_refused(tmp_path):
    out = rq1_run(tmp_path / "src")
    os.replace(os.path.join(out, "runs", "alpha"), os.path.join(out, "runs", "beta"))
    with pytest.raises(ValueError, match="not the RQ1 run of data set 'beta'"):
        rq1.pair_tables(out)
