"""The R package's test wrappers (R/R/tests_generated.R) are what
scripts/gen_r_tests.py writes from the registry: a changed test, option or
default in Python fails here until the file is regenerated."""
from __future__ import annotations

import importlib.util
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
