"""``python -m pybcv`` = the ``pybcv`` command."""
import sys

from .cli import main

sys.exit(main())
