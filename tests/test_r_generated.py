"""The R package's test wrappers (R/R/tests_generated.R) and their Rd pages
(R/man/<key>_test.Rd) are what scripts/gen_r_tests.py writes from the
registry: a changed test, option, default or docstring in Python fails here
until the files are regenerated."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def gen():
    spec = importlib.util.spec_from_file_location("gen_r_tests", REPO / "scripts" / "gen_r_tests.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_committed_r_wrappers_are_what_the_generator_writes(gen):
    committed = (REPO / "R" / "R" / "tests_generated.R").read_text()
    assert committed == gen.generate(), "R/R/tests_generated.R is stale: run scripts/gen_r_tests.py"


def test_committed_rd_pages_are_what_the_generator_writes(gen):
    has_roxygen = shutil.which("Rscript") and subprocess.run(
        ["Rscript", "-e", "quit(status = !requireNamespace('roxygen2', quietly = TRUE))"],
        capture_output=True).returncode == 0
    if not has_roxygen:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("CI must check the R docs, but R with roxygen2 is missing")
        pytest.skip("R with roxygen2 is not installed (bash scripts/setup.sh)")
    pages = gen.rd_pages()
    from pybcv.stats import TESTS
    assert sorted(pages) == sorted(f"{k}_test.Rd" for k in TESTS)
    for name, text in pages.items():
        committed = (REPO / "R" / "man" / name).read_text()
        assert committed == text, f"R/man/{name} is stale: run scripts/gen_r_tests.py"
        assert committed.startswith(gen.RD_HEAD)     # roxygenise() leaves it alone


def test_only_the_docs_leave_the_wrappers_file(gen):
    """The roxygen form (what roxygen2 turns into R/man) defines the same
    functions as the committed file, with the same code."""
    def code(text):
        return [l for l in text.splitlines() if l and not l.startswith(("#", "##"))]
    assert code(gen.generate(docs=True)) == code(gen.generate())


def test_every_registry_test_has_its_wrapper_with_python_options(gen):
    from pybcv.stats import TESTS
    text = gen.generate()
    for key, spec in TESTS.items():
        head = f'\n{key}_test <- registry_wrapper("{key}",'
        assert head in text, key
        formals = text.split(head)[1].split("\n\n")[0]
        for opt, default in spec.defaults.items():
            choices = gen.r_choices([default]) if isinstance(default, str) else [default]
            assert f"{opt} = " + ("c(" if isinstance(default, str) else gen.r_value(default)) in formals
            assert gen.r_value(choices[0]) in formals, (key, opt)


def test_the_generator_stops_on_an_input_it_cannot_convert(gen, monkeypatch):
    from pybcv.stats import TESTS
    monkeypatch.delitem(gen.INPUTS, "diffs")
    with pytest.raises(SystemExit, match="diffs"):
        gen.wrapper(TESTS["kfold_t"], {"alternative": ("two-sided", "less", "greater")})
