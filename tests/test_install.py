"""Installed = checkout.

* The editable install of scripts/setup.sh imports from a folder that holds
  a folder named ``pybcv`` (the parent of a clone named pybcv), where an
  import-hook editable install loses to a namespace package.
* ``bash scripts/build.sh`` builds the sdist and the wheel (metadata checked
  by twine); the wheel carries the R learners and the Weka helper jar; it
  is installed into a fresh virtual environment (Debian's Python, system
  site packages for numpy/scipy/pandas/rpy2, nothing of the checkout on the
  path) and, run from a folder holding a ``pybcv`` folder, compares J48
  with kknn through R: the same tables and p-values as the checkout, with
  J48 run inside the JVM (``r_bridge.weka_jvm_runs()``).

Not marked slow (about a minute): CI (.ci/run -> scripts/test.sh) runs it.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import IN_CI, _r_problem

REPO = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = "/usr/bin/python3"


def _clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(extra)
    return env


def test_editable_import_from_a_folder_holding_pybcv(tmp_path):
    """``from pybcv import compare`` with a folder ``pybcv`` in the working
    directory (no __init__.py: a namespace package candidate)."""
    (tmp_path / "pybcv" / "pybcv").mkdir(parents=True)
    run = subprocess.run([sys.executable, "-c",
                          "import pybcv, r_bridge; from pybcv import compare; print(pybcv.__file__)"],
                         cwd=tmp_path, capture_output=True, text=True, env=_clean_env())
    assert run.returncode == 0, run.stderr[-2000:]
    assert Path(run.stdout.strip()).resolve() == (REPO / "pybcv" / "__init__.py").resolve()


SCRIPT = r"""
import json, sys
import numpy as np
import pybcv, r_bridge
from pybcv import compare
rng = np.random.default_rng(7)
X = rng.normal(size=(120, 3))
y = np.where(X[:, 0] + 0.5 * rng.normal(size=120) > 0, "yes", "no")
res = compare(X, y, "J48", "kknn", backend="r", seed=3)
r = res.results["mcnemar_5x2bcv"]
print(json.dumps({"pybcv": pybcv.__file__, "batch_R": r_bridge.r_file("batch.R"),
                  "jar": r_bridge.weka_jar(), "jvm_runs": r_bridge.weka_jvm_runs(),
                  "tables": np.asarray(res.tables["bcv5x2"]).tolist(),
                  "statistic": r.statistic, "pvalue": r.pvalue}))
"""


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory):
    problem = _r_problem(("RWeka", "kknn"))
    if problem:
        if IN_CI:
            pytest.fail("CI must run the wheel test, but: " + problem)
        pytest.skip(problem)
    if shutil.which("twine") is None and not IN_CI:
        pytest.skip("twine missing (run: bash scripts/setup.sh)")
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    build = subprocess.run(["bash", "scripts/build.sh", str(dist)], cwd=REPO, capture_output=True,
                           text=True, env=_clean_env(), timeout=600)
    assert build.returncode == 0, "scripts/build.sh failed:\n" + build.stdout[-3000:] + build.stderr[-3000:]
    assert "PASSED" in build.stdout, build.stdout
    wheels = list(dist.glob("pybcv-*.whl"))
    assert len(wheels) == 1 and list(dist.glob("pybcv-*.tar.gz")), sorted(dist.iterdir())
    venv = tmp / "venv"
    subprocess.run([SYSTEM_PYTHON, "-m", "venv", "--system-site-packages", str(venv)], check=True,
                   env=_clean_env(), cwd=tmp)
    inst = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps",
                           "--no-index", str(wheels[0])], capture_output=True, text=True,
                          env=_clean_env(), cwd=tmp)
    assert inst.returncode == 0, inst.stderr[-3000:]
    return venv


def test_wheel_in_a_fresh_venv_runs_r_learners_and_the_jvm_path(wheel_venv, tmp_path):
    work = tmp_path / "projects"
    (work / "pybcv" / "pybcv").mkdir(parents=True)       # a clone named pybcv beside
    run = subprocess.run([str(wheel_venv / "bin" / "python"), "-c", SCRIPT], cwd=work,
                         capture_output=True, text=True, env=_clean_env(), timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    got = json.loads(run.stdout.strip().splitlines()[-1])
    site = str(wheel_venv)
    assert got["pybcv"].startswith(site) and got["batch_R"].startswith(site), got
    assert got["jar"] and got["jar"].startswith(site), "the wheel lacks the Weka helper jar"
    assert got["jvm_runs"].get("J48", 0) >= 1, f"J48 did not run inside the JVM: {got}"
    assert "missing" not in run.stderr, run.stderr

    import numpy as np
    from pybcv import compare
    rng = np.random.default_rng(7)
    X = rng.normal(size=(120, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=120) > 0, "yes", "no")
    res = compare(X, y, "J48", "kknn", backend="r", seed=3)
    assert got["tables"] == np.asarray(res.tables["bcv5x2"]).tolist()
    r = res.results["mcnemar_5x2bcv"]
    assert (got["statistic"], got["pvalue"]) == (r.statistic, r.pvalue)


def test_wheel_cli_runs_from_anywhere(wheel_venv, tmp_path):
    (tmp_path / "pybcv").mkdir()
    run = subprocess.run([str(wheel_venv / "bin" / "pybcv"), "folds", "--n", "20", "--seed", "0"],
                         cwd=tmp_path, capture_output=True, text=True, env=_clean_env(), timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("fold,row"), run.stdout[:200]


def test_missing_data_names_pybcv_data(tmp_path):
    """Data the package does not ship (MNIST): the message says how to point at it."""
    from pybcv.datasets import population_raw
    with pytest.raises(FileNotFoundError, match="set PYBCV_DATA to a folder holding mnist/mnist.npz"):
        population_raw(str(tmp_path / "nowhere.npz"))
