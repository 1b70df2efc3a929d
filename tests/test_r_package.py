"""The R package in R/: install it into a temporary library and run its
testthat suite with Rscript (worked examples, identity with Python, bad and
hostile input, J48 against kknn on iris through compare_learners).

Skipped, with the reason, only when Rscript or an R package the suite needs
(reticulate, testthat) is missing on this machine; under CI (CI=true) that
is a failure, because CI has R.
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PKG = REPO / "R"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
NEEDED = ("reticulate", "testthat")


@functools.lru_cache(maxsize=None)
def _problem() -> str | None:
    rscript = shutil.which("Rscript")
    if rscript is None or shutil.which("R") is None:
        return "R (Rscript) is not installed (run: bash scripts/setup.sh)"
    code = ("p <- commandArgs(TRUE); "
            "cat(p[!vapply(p, requireNamespace, TRUE, quietly = TRUE)], sep = ' ')")
    try:
        out = subprocess.run([rscript, "-e", code, *NEEDED], capture_output=True, text=True,
                             timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:  # pragma: no cover
        return f"Rscript does not run: {e}"
    if out.returncode != 0:
        return f"Rscript failed: {out.stderr.strip()[-500:]}"
    missing = out.stdout.split()
    if missing:
        return ("R package(s) missing: " + ", ".join(missing)
                + " (run: bash scripts/setup.sh; Debian: r-cran-reticulate r-cran-testthat)")
    return None


def _require_r():
    problem = _problem()
    if problem is None:
        return
    if IN_CI:
        pytest.fail("CI must run the R package tests, but: " + problem)
    pytest.skip(problem)


def _env() -> dict:
    env = dict(os.environ)
    # The package finds <repo>/.venv by searching upward from the working
    # directory (Rscript runs in the repo).  Without a .venv, use the Python
    # running pytest.  The repo goes on PYTHONPATH so pybcv imports either way.
    if not env.get("PYBCV_PYTHON") and not (REPO / ".venv" / "bin" / "python").exists():
        env["PYBCV_PYTHON"] = sys.executable
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    # here Python certainly exists: a suite that cannot reach it must fail, not skip
    env["PYBCV_REQUIRE_PYTHON"] = "true"
    return env


@functools.lru_cache(maxsize=None)
def _install() -> str:
    lib = tempfile.mkdtemp(prefix="pybcv-rlib-")
    inst = subprocess.run(["R", "CMD", "INSTALL", f"--library={lib}", str(PKG)], cwd=REPO,
                          capture_output=True, text=True, env=_env(), timeout=600)
    assert inst.returncode == 0, "R CMD INSTALL failed:\n" + inst.stdout[-3000:] + inst.stderr[-3000:]
    return lib


def installed_lib_for(_tmp=None) -> str:
    """The package installed (R CMD INSTALL) once per test process into a
    temporary library; skips (fails in CI) when R cannot run it."""
    _require_r()
    return _install()


@pytest.fixture(scope="module")
def installed_lib():
    return installed_lib_for()


RUNNER = r"""
args <- commandArgs(TRUE)
lib <- args[1]; dir <- args[2]
.libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages({ library(testthat); library(pybcv, lib.loc = lib) })
cat("pybcv loaded from", find.package("pybcv"), "\n")
res <- testthat::test_dir(dir, reporter = testthat::ProgressReporter$new(show_praise = FALSE),
                          stop_on_failure = FALSE, load_package = "none")
df <- as.data.frame(res)
skips <- unique(unlist(lapply(res, function(t) vapply(t$results, function(r)
  if (inherits(r, "expectation_skip")) conditionMessage(r) else NA_character_, ""))))
skips <- skips[!is.na(skips)]
cat(sprintf("PYBCV_R_RESULT tests=%d failed=%d errors=%d skipped=%d passed=%d\n",
            nrow(df), sum(df$failed), sum(df$error), sum(df$skipped), sum(df$passed)))
for (s in skips) cat("PYBCV_R_SKIP", s, "\n")
for (t in res) for (r in t$results)
  if (inherits(r, "expectation_failure") || inherits(r, "expectation_error"))
    cat("PYBCV_R_FAIL", t$file, "::", t$test, ":", conditionMessage(r), "\n")
"""


def test_r_package_testthat(tmp_path, installed_lib):
    lib = installed_lib
    env = _env()
    runner = tmp_path / "run_testthat.R"
    runner.write_text(RUNNER)
    run = subprocess.run(["Rscript", str(runner), str(lib), str(PKG / "tests" / "testthat")],
                         cwd=REPO, capture_output=True, text=True, env=env, timeout=1800)
    log = run.stdout + "\n" + run.stderr
    m = re.search(r"PYBCV_R_RESULT tests=(\d+) failed=(\d+) errors=(\d+) skipped=(\d+) passed=(\d+)",
                  run.stdout)
    assert run.returncode == 0 and m, "the testthat run did not finish:\n" + log[-6000:]
    tests, failed, errors, skipped, passed = map(int, m.groups())
    fails = "\n".join(line for line in log.splitlines() if line.startswith("PYBCV_R_FAIL"))
    assert failed == 0 and errors == 0, f"testthat: {failed} failed, {errors} errors:\n{fails}\n" + log[-4000:]
    assert passed > 0, "testthat ran no expectation:\n" + log[-4000:]
    if skipped:
        reasons = re.findall(r"PYBCV_R_SKIP (.*)", run.stdout)
        msg = f"testthat skipped {skipped} test(s): " + "; ".join(reasons)
        if IN_CI:
            pytest.fail("CI must run every R test, but " + msg)
        pytest.skip(msg + f" ({passed} expectations passed)")


XCHECK = r"""
args <- commandArgs(TRUE)
lib <- args[1]; out <- args[2]; tests <- args[3]
suppressPackageStartupMessages(library(pybcv, lib.loc = lib))
utils::write.csv(iris, file.path(out, "iris.csv"), row.names = FALSE)
df <- utils::read.csv(file.path(out, "iris.csv"))   # an R user's data: Species a character column
res <- compare_learners("J48-unpruned", "kknn", df, "Species", tests = strsplit(tests, ",")[[1]])
r <- res$results
writeLines(sprintf("%s,%.17g,%.17g", r$test, r$statistic, r$p.value), file.path(out, "results.csv"))
for (d in names(res$tables))
  utils::write.csv(res$tables[[d]], file.path(out, paste0("tables_", d, ".csv")), row.names = FALSE)
"""

XTESTS = ("mcnemar_5x2bcv,calibrated_f_5x2bcv,kfold_t,cvci_z,mcnemar_kfold_naive,t_5x2cv,"
          "combined_t_5x2cv,blocked_t_3x2bcv,mcnemar_ho,proportion_z")


def test_r_compare_learners_equals_python_engine(tmp_path, installed_lib):
    """J48-unpruned against kknn on iris read by read.csv, default seed on
    both sides: R's compare_learners (learners run by the package's copy of
    batch.R, partitions and statistics from Python) gives exactly the tables
    and p-values of Python's pybcv.compare with the R backend."""
    _require_r()
    from conftest import _r_problem  # the project's R check (rpy2, R, packages)
    problem = _r_problem(("RWeka", "kknn"))
    if problem:
        if IN_CI:
            pytest.fail("CI must run the R package tests, but: " + problem)
        pytest.skip(problem)
    import numpy as np
    import pandas as pd
    from pybcv.comparison import compare

    lib = installed_lib
    env = _env()
    script = tmp_path / "xcheck.R"
    script.write_text(XCHECK)
    run = subprocess.run(["Rscript", str(script), str(lib), str(tmp_path), XTESTS], cwd=REPO,
                         capture_output=True, text=True, env=env, timeout=900)
    assert run.returncode == 0, "R compare_learners failed:\n" + run.stdout[-3000:] + run.stderr[-3000:]

    iris = pd.read_csv(tmp_path / "iris.csv")
    X, y = iris.drop(columns="Species"), iris["Species"].astype(str)
    cmp = compare(X, y, "J48-unpruned", "kknn", tests=XTESTS, backend="r")
    for d in cmp.tables:
        f = tmp_path / f"tables_{d}.csv"
        if not f.exists():
            continue
        r_tab = pd.read_csv(f)[["n00", "n01", "n10", "n11"]].to_numpy()
        np.testing.assert_array_equal(r_tab, np.asarray(cmp.tables[d]).reshape(-1, 4), err_msg=d)
    rows = [line.split(",") for line in (tmp_path / "results.csv").read_text().split()]
    assert [r[0] for r in rows] == XTESTS.split(",")
    for key, stat, p in rows:
        res = cmp.results[key]
        assert float(stat) == res.statistic, key
        assert float(p) == res.pvalue, key


@pytest.mark.slow
def test_r_cmd_check_as_cran_of_the_tarball(tmp_path):
    """bash scripts/build_r.sh: the tarball (jar in inst/java, the vignette
    built) passes R CMD check --as-cran offline with no ERROR or WARNING
    (about 8 minutes; --runslow)."""
    _require_r()
    env = _env()
    env.setdefault("PYBCV_PYTHON", str(REPO / ".venv" / "bin" / "python"))
    run = subprocess.run(["bash", "scripts/build_r.sh", str(tmp_path)], cwd=REPO,
                         capture_output=True, text=True, env=env, timeout=1800)
    assert run.returncode == 0, (run.stdout + run.stderr)[-6000:]
    assert "Status: OK" in run.stdout or "NOTE" in run.stdout, run.stdout
    tar = subprocess.run(["tar", "tzf", next(str(p) for p in tmp_path.glob("pybcv_*.tar.gz"))],
                         capture_output=True, text=True, check=True).stdout
    assert "pybcv/inst/java/pybcv-weka.jar" in tar and "pybcv/inst/doc/pybcv.html" in tar
