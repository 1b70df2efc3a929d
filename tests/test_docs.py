"""The documentation site builds with warnings as errors (bash scripts/docs.sh):
the user guide, the API reference from the docstrings and the gallery,
whose examples run during the build and draw their figures.

Not marked slow (about a minute): CI (.ci/run -> scripts/test.sh) runs it.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

from conftest import IN_CI

REPO = Path(__file__).resolve().parents[1]
NEEDED = ("sphinx", "myst_parser", "numpydoc", "sphinx_gallery", "furo")


def test_docs_site_builds_without_warnings(tmp_path):
    missing = [m for m in NEEDED if importlib.util.find_spec(m) is None]
    if missing:
        msg = "documentation tools missing: " + ", ".join(missing) + " (run: bash scripts/setup.sh)"
        if IN_CI:
            pytest.fail("CI must build the documentation, but " + msg)
        pytest.skip(msg)
    out = tmp_path / "html"
    env = {k: v for k, v in os.environ.items() if k != "PYBCV_DOCS_MATHJAX"}
    run = subprocess.run(["bash", "scripts/docs.sh", str(out)], cwd=REPO, capture_output=True,
                         text=True, env=env, timeout=900)
    assert run.returncode == 0, "the docs build failed:\n" + (run.stdout + run.stderr)[-6000:]
    for page in ("index.html", "getting_started.html", "guide/bcv_mcnemar.html",
                 "guide/which_test.html", "api/generated/pybcv.compare.html",
                 "api/generated/pybcv.stats.html", "conventions.html", "replication/README.html",
                 "changelog.html", "auto_examples/index.html"):
        assert (out / page).is_file(), page
    figures = sorted(p.name for p in (out / "_images").glob("sphx_glr_plot_*_001.png"))
    assert len(figures) >= 3, figures
    api = (out / "api/generated/pybcv.compare.html").read_text()
    assert "Compare learners A and B" in api          # the docstring made it in
