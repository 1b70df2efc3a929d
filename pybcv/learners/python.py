"""Old name of :mod:`pybcv.learners.fallbacks` (the Python backend of the
registry learners), kept so that ``import pybcv.learners.python`` keeps
working: this module IS that module."""
import sys

from . import fallbacks as _fallbacks

sys.modules[__name__] = _fallbacks
