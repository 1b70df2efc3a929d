"""The calibrated t was withdrawn (issue 18; docs/conventions.md, "The
calibrated t (withdrawn)"): every front end refuses it with a message that
names the withdrawal, and no profile sets a t."""
import subprocess
import sys

import numpy as np
import pytest

from pybcv.stats import PROFILES, mcnemar_5x2bcv

TABLES = [[3, 12, 7, 128], [2, 10, 8, 130], [4, 14, 6, 126], [3, 9, 9, 129], [2, 11, 5, 132],
          [3, 13, 8, 126], [4, 10, 7, 129], [2, 12, 6, 130], [3, 15, 9, 123], [2, 11, 6, 131]]


def test_t_calibrated_is_refused_naming_the_withdrawal():
    with pytest.raises(ValueError, match="withdrawn"):
        mcnemar_5x2bcv(TABLES, t="calibrated")
    with pytest.raises(ValueError, match="positive finite number"):
        mcnemar_5x2bcv(TABLES, t="2")


def test_no_profile_changes_the_bcv_t():
    assert "calibrated" not in PROFILES
    for name, opts in PROFILES.items():
        assert "t" not in opts.get("mcnemar_5x2bcv", {}), name
    assert mcnemar_5x2bcv(TABLES).t == 20 / 11


def test_cli_refuses_the_calibrated_profile():
    r = subprocess.run([sys.executable, "-m", "pybcv", "compare", "--profile", "calibrated",
                        "--tests", "mcnemar_5x2bcv"], capture_output=True, text=True)
    assert r.returncode == 2
    assert "withdrawn" in r.stderr and "Traceback" not in r.stderr
