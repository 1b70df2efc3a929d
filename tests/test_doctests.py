"""The examples in the docstrings of every module of pybcv run as doctests
(the worked examples of the tests, the partitions, the learners, the engine
...), collected from the whole package."""
import doctest
import importlib
import pkgutil

import pytest

import pybcv

#: every module of the package (``python -m pybcv`` is the command line, not a module to import)
MODULES = sorted(m.name for m in pkgutil.walk_packages(pybcv.__path__, "pybcv.")
                 if not m.name.endswith("__main__"))


def test_every_module_is_collected():
    assert {"pybcv.stats.mcnemar_tests", "pybcv.comparison", "pybcv.partitions.blocks",
            "pybcv.learners.spec", "pybcv.engine.config", "pybcv.datasets"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    mod = importlib.import_module(name)
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0, f"{res.failed} doctest(s) failed in {name}"


def test_every_public_test_function_has_returns_and_examples():
    from pybcv.stats import TESTS
    for key, spec in TESTS.items():
        doc = spec.function.__doc__
        assert spec.function.__name__ == key, key
        assert "Returns\n" in doc and "Examples\n" in doc and ">>> " in doc, key
