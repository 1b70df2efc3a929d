"""Ctrl-C while R is inside a long C routine (kknn's neighbour search on
60,000 records): the command line ends within its grace period
(pybcv.cli.INTERRUPT_GRACE_S) with exit code 130 and says so, instead of
waiting for the routine to finish (issue 22: 160 s on 200,000 rows)."""
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from conftest import requires_r


@pytest.mark.slow
@requires_r("kknn")
def test_ctrl_c_during_a_long_kknn_fit_ends_the_cli(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60000, 3))
    p = tmp_path / "big.csv"
    with open(p, "w") as f:
        f.write("x1,x2,x3,class\n")
        for r in X:
            f.write(f"{r[0]:.4f},{r[1]:.4f},{r[2]:.4f},{'ab'[int(r[0] > 0)]}\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "-m", "pybcv", "compare", "--csv", str(p), "--a", "kknn",
                             "--b", "majority", "--backend", "r", "--quiet"], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(15)                       # R started, kknn searching its first fold
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "pybcv: interrupted" in err and "Traceback" not in err
