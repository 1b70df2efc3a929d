"""A required dependency imported when first used, not when pybcv is.

pandas takes about 0.2 s to import, more than pybcv's own modules together,
and most commands never touch it: a learner-free ``pybcv simulate`` runs
numpy and scipy only, and its start-up is most of a short run (issue 23,
``benchmarks/engine_anchor.py``).  ``pd = deferred("pandas")`` stands for
the module: the first attribute read (``pd.DataFrame``) imports it, under
Python's import lock, and every later read goes straight to the module.

Unlike ``importlib.util.LazyLoader`` this puts nothing in ``sys.modules``
before the import really happens, so other libraries that look for pandas
there (scikit-learn, scipy) see it only once it is loaded, and it is safe
with threads on Python 3.11 (the stdlib loader is not before 3.12).
"""
from __future__ import annotations

import importlib
import types


class _Deferred(types.ModuleType):
    """The module ``name``, imported on the first attribute read."""

    def __init__(self, name: str):
        super().__init__(name)
        self.__dict__["_loaded"] = None

    def _module(self) -> types.ModuleType:
        mod = self.__dict__["_loaded"]
        if mod is None:
            mod = importlib.import_module(self.__name__)
            self.__dict__["_loaded"] = mod
        return mod

    def __getattr__(self, attr: str):          # only for names not in __dict__
        return getattr(self._module(), attr)

    def __dir__(self):
        return dir(self._module())

    def __repr__(self) -> str:
        state = "imported" if self.__dict__["_loaded"] is not None else "not imported yet"
        return f"<deferred module {self.__name__!r} ({state})>"


def deferred(name: str) -> types.ModuleType:
    """A stand-in for ``import name``: the module is imported when one of its
    attributes is first read.

    >>> pd = deferred("pandas")
    >>> pd.DataFrame({"a": [1]}).shape
    (1, 1)
    """
    return _Deferred(name)
