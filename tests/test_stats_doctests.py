"""The worked examples in the docstrings of pybcv.stats run as doctests."""
import doctest
import importlib

import pytest

MODULES = ["pybcv.stats", "pybcv.stats._common", "pybcv.stats.t_tests", "pybcv.stats.z_tests",
           "pybcv.stats.f_tests", "pybcv.stats.mcnemar_tests", "pybcv.stats.registry",
           "pybcv.outcomes"]


@pytest.mark.parametrize("name", MODULES)
def test_stats_doctests(name):
    mod = importlib.import_module(name)
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0, f"{res.failed} doctest(s) failed in {name}"


def test_every_public_test_function_has_returns_and_examples():
    from pybcv.stats import TESTS
    for key, spec in TESTS.items():
        doc = spec.function.__doc__
        assert spec.function.__name__ == key, key
        assert "Returns\n" in doc and "Examples\n" in doc and ">>> " in doc, key
