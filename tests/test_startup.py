"""Start-up and the engine's fast paths (issue 23, item 3): pandas is
imported only where used, the summary CSV is pandas' own format without
pandas, and the one-call permutation draws are the sequential ones."""
import io
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from pybcv import partitions as P
from pybcv._deferred import deferred
from pybcv.engine.simulation import write_rows
from pybcv.partitions.splitters import _perms

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _python(code, tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_import_leaves_pandas_and_scipy_stats_unimported(tmp_path):
    out = _python("import sys, pybcv, pybcv.cli\n"
                  "print('pandas' in sys.modules, 'scipy.stats' in sys.modules)", tmp_path)
    assert out == "False False"


def test_learner_free_simulate_runs_without_pandas(tmp_path):
    out = _python(
        "import sys, contextlib, io, pybcv.cli\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    rc = pybcv.cli.main(['simulate', '--dataset', 'epsilon', '--tests', 'table5',\n"
        "                         '--reps', '20', '--out', 'run', '--quiet'])\n"
        "print(rc, 'pandas' in sys.modules, 'scipy.stats' in sys.modules)", tmp_path)
    assert out == "0 False False"
    # the summary it wrote is the one pandas reads back, one row per test
    assert len(pd.read_csv(tmp_path / "run" / "summary.csv")) == 14


def test_deferred_module_imports_on_first_attribute():
    m = deferred("json")
    assert "not imported yet" in repr(m)
    assert m.dumps([1]) == "[1]"
    assert "imported" in repr(m) and "not" not in repr(m)
    assert "dumps" in dir(m)
    with pytest.raises(AttributeError):
        m.no_such_name
    with pytest.raises(ModuleNotFoundError):
        deferred("pybcv_no_such_module").anything


def test_rows_are_written_as_pandas_writes_them(tmp_path):
    rows = [{"test": "a,b", "rate": 0.015755506973753653, "n": 3, "cov": float("nan"),
             "none": None, "text": 'say "x"\nnext', "small": 1e-05, "big": 1e22, "neg": -0.0,
             "flag": True, "json": '{"a": 1, "b": [2, 3]}'},
            {"test": "plain", "rate": 0.5, "n": 0, "cov": 1.0, "none": "", "text": "",
             "small": 2.5e-300, "big": float("inf"), "neg": -1.5, "flag": False, "json": "{}"}]
    path = str(tmp_path / "s.csv")
    write_rows(rows, path)
    buf = io.StringIO()
    pd.DataFrame(rows).to_csv(buf, index=False)
    with open(path, newline="") as fh:
        assert fh.read() == buf.getvalue()
    assert not os.path.exists(path + ".tmp")


@pytest.mark.parametrize("n", [1, 2, 7, 300, 301])
@pytest.mark.parametrize("k", [1, 3, 15])
def test_perms_are_k_sequential_permutations(n, k):
    g1, g2 = np.random.default_rng(n * 100 + k), np.random.default_rng(n * 100 + k)
    want = np.stack([g1.permutation(n) for _ in range(k)])
    got = _perms(n, g2, k)
    assert got.shape == (k, n) and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    assert g1.integers(2 ** 62) == g2.integers(2 ** 62)      # the stream left where it was
    np.testing.assert_array_equal(_perms(n, None, k), np.tile(np.arange(n), (k, 1)))


@pytest.mark.parametrize("splitter", [P.RepeatedHoldOut(15, 2 / 3), P.HoldOut(), P.KFoldCV(10),
                                      P.RepeatedKFoldCV(10, 10), P.RandomMx2CV(5),
                                      P.PseudoBootstrapSplit()])
@pytest.mark.parametrize("n", [40, 301])
def test_test_order_is_the_spec_drawn_one_permutation_at_a_time(splitter, n):
    """Independent of the classes' code: each draw a fresh ``permutation(n)``
    of the design's generator, cut as the spec says."""
    g = np.random.default_rng(7)
    draws = {P.RepeatedHoldOut: lambda s: s.n_repeats, P.HoldOut: lambda s: 1,
             P.PseudoBootstrapSplit: lambda s: (s.n_replicates + 1) * s.n_repeats,
             P.KFoldCV: lambda s: 1, P.RepeatedKFoldCV: lambda s: s.n_repeats,
             P.RandomMx2CV: lambda s: s.m}[type(splitter)](splitter)
    perms = [g.permutation(n) for _ in range(draws)]
    if isinstance(splitter, P.RepeatedHoldOut):
        n1 = n - len(splitter.test_sets(n, 0)[0])     # the size only; the records from perms
        want = [p[n1:] for p in perms]
    elif isinstance(splitter, P.RandomMx2CV):
        want = [t for p in perms for t in (p[n // 2:], p[:n // 2])]
    else:
        k = splitter.k
        size = [n // k + (i < n % k) for i in range(k)]
        cut = np.cumsum([0] + size)
        want = [p[cut[i]:cut[i + 1]] for p in perms for i in range(k)]
    got = splitter.test_sets(n, np.random.default_rng(7))
    assert len(got) == len(want)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
    order = splitter.test_orders(n, [np.random.default_rng(7)])
    np.testing.assert_array_equal(order[0], np.concatenate(want))


def test_index_range_is_the_min_and_max_of_all_indices():
    """_check_splits' range check, gathered a block at a time, finds what one
    concatenation finds (empty arrays skipped; none at all: (0, -1))."""
    from pybcv.learners.fallbacks import _index_range
    rng = np.random.default_rng(3)
    assert _index_range([]) == (0, -1) and _index_range([np.array([], int)]) == (0, -1)
    for _ in range(50):
        arrays = [rng.integers(-5, 10 ** 6, size=rng.integers(0, 9000))
                  for _ in range(rng.integers(1, 40))]
        every = np.concatenate(arrays)
        want = (int(every.min()), int(every.max())) if every.size else (0, -1)
        assert _index_range(arrays) == want
