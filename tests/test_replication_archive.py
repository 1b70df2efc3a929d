"""The compact run archive (pybcv.engine.archive) and the committed replication in
docs/replication, which is stored in it.

* the archive reads back exactly what was written (NaN included), and
  rejects what it cannot store exactly;
* today's code, re-drawing chosen repetitions from each committed run's seed,
  gets the archived statistics, p-values and fold tables bit for bit;
* the archived fold tables, re-scored under the "default" and the "paper"
  profile, give the rejection rates of summary.csv / power.csv and of the
  committed reports.
"""
import csv
import glob
import json
import os
import re

import numpy as np
import pytest

from conftest import requires_r
from pybcv.engine import archive
from pybcv.partitions import DESIGNS
from pybcv.stats import TESTS, profile_options
from pybcv.stats._common import admit_withdrawn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPL = os.path.join(ROOT, "docs", "replication")
RUNS = os.path.join(REPL, "runs")
ALPHA = 0.05


def _bits(a):
    return np.asarray(a, np.float64).view(np.uint64)


# ------------------------------------------------------------------ the format
def test_module_examples_run():
    import doctest
    assert doctest.testmod(archive).attempted > 0 and doctest.testmod(archive).failed == 0


def _toy_run(R=5, seed=0):
    rng = np.random.default_rng(seed)
    reps = np.array(sorted(rng.choice(50, R, replace=False)), np.int64)
    stat = rng.normal(size=R)
    stat[1] = np.nan
    p = rng.random(R)
    p[[1, 3]] = np.nan
    p[0] = 1.0
    # a design with large counts (uint16) and one with small ones (uint8)
    big = rng.multinomial(1000, [0.5, 0.05, 0.05, 0.4], size=(R, 2)).reshape(R, 2, 2, 2)
    small = rng.multinomial(30, [0.1, 0.2, 0.2, 0.5], size=(R, 10)).reshape(R, 10, 2, 2)
    info = [(int(r), float(rng.random()), 167, 52, "r/r" if r % 2 else "python/python") for r in reps]
    return reps, {"t": (stat, p), "u": (-stat, p[::-1].copy())}, {"bigdesign": big, "cv10": small}, info


def test_archive_round_trips_exactly(tmp_path):
    reps, res, tabs, info = _toy_run()
    cfg = {"dataset": "simple", "seed": 7, "data_params": {"delta": 0.1}, "tests": ["t", "u"]}
    path = archive.write_run(str(tmp_path), cfg, reps, res, tabs, info, reps_target=50)
    assert path == str(tmp_path / "run.npz") and archive.is_run(str(tmp_path))
    run = archive.read_run(str(tmp_path))
    assert run["config"] == cfg and run["reps_target"] == 50
    assert run["reps"].dtype == np.int64 and np.array_equal(run["reps"], reps)
    assert list(run["results"]) == ["t", "u"]
    for k, (s, p) in res.items():
        assert np.array_equal(_bits(run["results"][k][0]), _bits(s))     # NaN positions and bits
        assert np.array_equal(_bits(run["results"][k][1]), _bits(p))
    assert set(run["tables"]) == set(tabs)
    for d, T in tabs.items():
        assert run["tables"][d].dtype == np.int32 and np.array_equal(run["tables"][d], T)
    assert run["rep_info"] == info
    assert archive.differences(run, {**run, "reps_target": None}) == []


def test_archive_is_deterministic_and_compact(tmp_path):
    """Same run, same bytes (fixed zip timestamps); three of four cells stored,
    in the smallest unsigned type."""
    reps, res, tabs, info = _toy_run()
    a = archive.write_run(str(tmp_path / "a"), {"x": 1}, reps, res, tabs, info)
    b = archive.write_run(str(tmp_path / "b"), {"x": 1}, reps, res, dict(reversed(list(tabs.items()))), info)
    assert open(a, "rb").read() == open(b, "rb").read()
    with np.load(a) as z:
        assert z["tables/cv10"].shape == (3, len(reps), 10) and z["tables/cv10"].dtype == np.uint8
        assert z["tables/bigdesign"].dtype == np.uint16
        meta = json.loads(z["meta"].tobytes().decode())
    assert meta["tables"]["bigdesign"]["dropped_cell"] == "n00"      # the largest cell
    assert meta["tables"]["cv10"]["dropped_cell"] == "n11"
    assert meta["tables"]["cv10"]["fold_sizes"] == [30] * 10


def test_archive_of_a_learner_free_run_and_of_no_repetitions(tmp_path):
    reps, res, _, info = _toy_run()
    archive.write_run(str(tmp_path / "eps"), {"dataset": "epsilon"}, reps, res, {}, info)
    assert archive.read_run(str(tmp_path / "eps"))["tables"] == {}
    archive.write_run(str(tmp_path / "none"), {"dataset": "epsilon"}, [], {"t": ([], [])}, None, [])
    run = archive.read_run(str(tmp_path / "none"))
    assert len(run["reps"]) == 0 and run["results"]["t"][0].shape == (0,) and run["rep_info"] == []


def test_archive_refuses_what_it_cannot_store_exactly(tmp_path):
    reps, res, tabs, info = _toy_run()
    d = str(tmp_path)
    uneven = {"cv10": tabs["cv10"].copy()}
    uneven["cv10"][2, 4, 0, 0] += 1
    with pytest.raises(ValueError, match=r"tables\['cv10'\]: fold 4 has 31 records in repetition index 2"):
        archive.write_run(d, {}, reps, res, uneven, info)
    negative = {"cv10": -tabs["cv10"]}
    with pytest.raises(ValueError, match="negative count"):
        archive.write_run(d, {}, reps, res, negative, info)
    with pytest.raises(TypeError, match=r"tables\['cv10'\] must hold integers"):
        archive.write_run(d, {}, reps, res, {"cv10": tabs["cv10"] * 1.0}, info)
    with pytest.raises(ValueError, match=r"results\['t'\]"):
        archive.write_run(d, {}, reps, {"t": (res["t"][0][:2], res["t"][1])}, tabs, info)
    with pytest.raises(ValueError, match="rep_info"):
        archive.write_run(d, {}, reps, res, tabs, info[::-1])
    with pytest.raises(ValueError, match="ascending"):
        archive.write_run(d, {}, reps[::-1], res, tabs, info)
    assert not archive.is_run(d)
    with pytest.raises(FileNotFoundError, match="run.npz missing"):
        archive.read_run(d)
    np.savez(os.path.join(d, "run.npz"), meta=np.frombuffer(b'{"format": "other-2"}', np.uint8))
    with pytest.raises(ValueError, match="archive format 'other-2'"):
        archive.read_run(d)


def test_sqlite_store_converts_and_unpacks_exactly(tmp_path):
    """from_sqlite (store -> archive, checked) and to_sqlite (archive -> store,
    to resume a run) keep every number."""
    from pybcv.engine import simulate
    src = str(tmp_path / "run")
    simulate("simple", tests=["mcnemar_5x2bcv", "cvci_z"], reps=3, seed=5, n=60, backend="python",
             out=src, data_params={"delta": 0.5})
    archive.from_sqlite(src, str(tmp_path / "archived"))
    stored = archive.read_sqlite(src)
    assert stored["tables"] and archive.differences(stored, archive.read_run(str(tmp_path / "archived"))) == []
    archive.to_sqlite(str(tmp_path / "archived"), str(tmp_path / "back"))
    assert archive.differences(stored, archive.read_sqlite(str(tmp_path / "back"))) == []
    with pytest.raises(FileExistsError):
        archive.to_sqlite(str(tmp_path / "archived"), str(tmp_path / "back"))
    # ArchivedStore reads an archive as Store reads the store
    from pybcv.engine.store import Store
    st, view = Store(src), archive.ArchivedStore(str(tmp_path / "archived"))
    assert view.config() == st.config() and view.rep_info() == st.rep_info() and view.done() == st.done()
    (r1, res1), (r2, res2) = st.results(), view.results()
    assert np.array_equal(r1, r2) and list(res1) == list(res2)
    assert all(np.array_equal(_bits(res1[k][j]), _bits(res2[k][j])) for k in res1 for j in (0, 1))
    (r1, t1), (r2, t2) = st.tables(), view.tables()
    assert np.array_equal(r1, r2) and set(t1) == set(t2)
    assert all(t1[d].dtype == t2[d].dtype and np.array_equal(t1[d], t2[d]) for d in t1)
    st.close()


def test_cli_converts_verifies_and_reports_errors(tmp_path, capsys):
    from pybcv.cli import main as cli_main
    from pybcv.engine import simulate
    src = str(tmp_path / "eps")
    simulate("epsilon", tests=["mcnemar_ho"], reps=2, seed=1, out=src)
    assert cli_main(["archive", "convert", str(tmp_path)]) == 0
    assert cli_main(["archive", "verify", str(tmp_path)]) == 0
    assert "identical" in capsys.readouterr().out
    assert cli_main(["archive", "convert", "--delete-sqlite", str(tmp_path)]) == 0
    assert archive.is_run(src) and not os.path.exists(os.path.join(src, "results.sqlite"))
    assert cli_main(["archive", "show", str(tmp_path / "nothing")]) == 2
    assert "run.npz missing" in capsys.readouterr().err


# ------------------------------------------------------------------ the committed replication
def _committed_runs():
    found = [os.path.dirname(p) for p in glob.glob(os.path.join(REPL, "**", "run.npz"), recursive=True)]
    return sorted(os.path.relpath(d, REPL) for d in found)


def test_every_committed_run_is_archived():
    runs = set(_committed_runs())
    assert {"runs/epsilon_default", "runs/epsilon_paper", "runs/simple_r", "runs/simple_python",
            "runs/exp6_typeI", "runs/letter_typeI", "analysis/sim_exp6_python_n150",
            "analysis/sim_exp6_python_n300"} <= runs
    for curve, points in (("simple_power", 11), ("exp6_power", 11), ("letter_power", 11)):
        assert sum(r.startswith(f"runs/{curve}/param=") for r in runs) == points, curve


def test_committed_archive_survives_store_round_trip_byte_for_byte(tmp_path):
    """archive -> results.sqlite (unpack, to resume a run) -> archive gives the
    committed file byte for byte, so regenerating an unchanged run changes
    nothing in git."""
    folder = os.path.join(RUNS, "exp6_power", "param=0.294")
    archive.to_sqlite(folder, str(tmp_path))
    archive.from_sqlite(str(tmp_path))
    assert open(os.path.join(tmp_path, "run.npz"), "rb").read() == open(os.path.join(folder, "run.npz"), "rb").read()


@pytest.mark.parametrize("run,reps", [
    ("epsilon_paper", [0, 1, 999]),
    ("simple_python", [0, 1, 777]),
    pytest.param("exp6_typeI", [0, 999], marks=requires_r("RWeka")),
    pytest.param("letter_typeI", [3], marks=requires_r("tree", "mlbench")),
])
def test_committed_replication_is_reproduced_exactly(run, reps):
    """Today's code re-draws the data and partitions of archived repetitions
    from the run's seed and gets the same fold tables and the same statistics
    and p-values, bit for bit: the replication in docs/ is the code's output."""
    from pybcv.engine import run_chunk
    stored = archive.read_run(os.path.join(RUNS, run))
    pos = {int(r): i for i, r in enumerate(stored["reps"])}
    rows = run_chunk(stored["config"], reps)
    assert [row.rep for row in rows] == reps
    for row in rows:
        i = pos[row.rep]
        assert list(row.results) == list(stored["results"])
        for k, (s, p) in row.results.items():
            s0, p0 = stored["results"][k][0][i], stored["results"][k][1][i]
            assert _bits(s) == _bits(s0) and _bits(p) == _bits(p0), (run, row.rep, k)
        if stored["config"]["dataset"] == "epsilon":     # learner-free: tables redrawn, not stored
            continue
        assert set(row.tables) == set(stored["tables"])
        for u, T in stored["tables"].items():
            np.testing.assert_array_equal(row.tables[u], T[i])


def rescore(run: dict, profile: str):
    """{test: (statistic[R], pvalue[R])} of an archived learner run re-scored
    from its fold tables under ``profile`` (as pybcv.engine scores a run)."""
    cfg = run["config"]
    opts = profile_options(profile)
    out = {}
    for k in run["results"]:
        unit = TESTS[k].design if cfg.get("share_designs", True) else k
        ntr, nte = DESIGNS[TESTS[k].design].sizes(cfg["n"])
        with admit_withdrawn():         # the paper profile's one-sided CV-CI z, as the engine
            out[k] = TESTS[k].batch(run["tables"][unit], ntr, nte, **opts.get(k, {}))
    return out


def _rates(results):
    return {k: float(np.mean(p < ALPHA)) for k, (s, p) in results.items()}


def _report_table(report: str, folder: str) -> dict:
    """{test name: [cells]} of the first table after the heading that names
    ``folder``; key "test" holds the column heads."""
    text = open(os.path.join(REPL, report)).read()
    at = text.index(f"(docs/replication/runs/{folder})")
    rows = {}
    for line in text[at:].splitlines()[1:]:
        if line.startswith("### "):
            break
        m = re.match(r"\| ([^|]+?) \| (.*)\|$", line)
        if m and m.group(1) == "test":
            rows["test"] = [c.strip() for c in m.group(2).split("|")]
        elif m:
            rows[m.group(1)] = [c.strip() for c in m.group(2).split("|")]
        elif rows and not line.startswith("|"):
            break
    return rows


LEARNER_RUNS = ["simple_r", "simple_python", "exp6_typeI", "letter_typeI"] + sorted(
    os.path.relpath(d, RUNS) for p in ("simple", "exp6", "letter")
    for d in glob.glob(os.path.join(RUNS, f"{p}_power", "param=*")))


@pytest.mark.parametrize("run", LEARNER_RUNS)
def test_archived_tables_rescore_to_the_stored_results(run):
    """Scored under the run's own profile, the archived fold tables give the
    archived statistics and p-values bit for bit (so the tables are the run's),
    and the rejection rates of its summary.csv."""
    folder = os.path.join(RUNS, run)
    stored = archive.read_run(folder)
    assert stored["tables"]
    again = rescore(stored, stored["config"]["profile"])
    for k, (s, p) in stored["results"].items():
        assert np.array_equal(_bits(again[k][0]), _bits(s)), k
        assert np.array_equal(_bits(again[k][1]), _bits(p)), k
    with open(os.path.join(folder, "summary.csv")) as f:
        summary = {row["test"]: float(row["rejection_rate"]) for row in csv.DictReader(f)}
    assert summary == _rates(stored["results"])


@pytest.mark.parametrize("profile", ["default", "paper"])
@pytest.mark.parametrize("run", ["simple_r", "exp6_typeI", "letter_typeI"])
def test_rescored_type1_rates_equal_the_committed_reports(run, profile):
    """Table 5's learner columns of report_<profile>.md, from the archives alone."""
    rates = _rates(rescore(archive.read_run(os.path.join(RUNS, run)), profile))
    table = _report_table(f"report_{profile}.md", run)
    assert len(table) - 1 == len(rates) == 14
    for k, r in rates.items():
        assert table[TESTS[k].name][0] == f"{r:.3f}", (run, profile, k)


@pytest.mark.parametrize("run,profile", [("simple_r", "paper"), ("letter_typeI", "default"),
                                         ("epsilon_paper", "paper")])
def test_engine_reads_an_archive_through_archived_store(run, profile):
    """pybcv.engine.load_result, handed the archive's read-only store, gives the
    report's numbers (re-scored from the fold tables where the profile differs)."""
    from pybcv.engine import load_result
    folder = os.path.join(RUNS, run)
    res = load_result(folder, store=archive.ArchivedStore(folder), profile=profile)
    assert res.config.profile == profile and len(res.reps) == 1000
    table = _report_table(f"report_{profile}.md", run)
    assert {TESTS[k].name: f"{r:.3f}" for k, r in res.rejection_rate(ALPHA).items()} == {
        n: c[0] for n, c in table.items() if n != "test"}


def test_epsilon_rates_equal_the_committed_reports():
    """The learner-free runs store no tables: each profile is its own run."""
    for profile in ("default", "paper"):
        rates = _rates(archive.read_run(os.path.join(RUNS, f"epsilon_{profile}"))["results"])
        table = _report_table(f"report_{profile}.md", f"epsilon_{profile}")
        assert {TESTS[k].name: f"{r:.3f}" for k, r in rates.items()} == {
            n: c[0] for n, c in table.items() if n != "test"}


@pytest.mark.parametrize("profile", ["default", "paper"])
@pytest.mark.parametrize("curve", ["simple_power", "exp6_power", "letter_power"])
def test_rescored_power_curves_equal_the_committed_reports(curve, profile):
    points = sorted(glob.glob(os.path.join(RUNS, curve, "param=*")),
                    key=lambda d: float(d.rsplit("=", 1)[1]))
    columns = [_rates(rescore(archive.read_run(d), profile)) for d in points]
    table = _report_table(f"report_{profile}.md", curve)
    # column heads "omega=0.294 (λ=0.0)": the report orders the points along lambda
    heads = [float(re.match(r"\w+=([0-9.e+-]+)", h).group(1)) for h in table["test"]]
    values = [float(d.rsplit("=", 1)[1]) for d in points]
    assert sorted(heads) == values
    columns = [columns[values.index(v)] for v in heads]
    for k in columns[0]:
        assert table[TESTS[k].name] == [f"{c[k]:.3f}" for c in columns], (curve, profile, k)
    with open(os.path.join(RUNS, curve, "power.csv")) as f:
        stored = {(float(row["param_value"]), row["test"]): float(row["rejection_rate"])
                  for row in csv.DictReader(f)}
    if profile == "default":    # the runs were made with the default profile
        for v, c in zip(heads, columns):
            assert all(stored[(v, k)] == r for k, r in c.items()), (curve, v)
