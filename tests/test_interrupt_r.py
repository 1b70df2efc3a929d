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


_START_SCRIPT = r"""
import os, signal, sys, threading, time
delay = float(sys.argv[1])
from r_bridge import session
def fire():
    time.sleep(delay)
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=fire, daemon=True).start()
try:
    session.require_r(["RWeka"], what="J48")      # R, then RWeka's namespace: the JVM
    time.sleep(delay + 5)                        # a Ctrl-C during the start-up is not lost
    print("SURVIVED", flush=True)
except KeyboardInterrupt as e:
    print("INTERRUPTED", e, flush=True)
"""


@requires_r("RWeka")
@pytest.mark.parametrize("delay", [0.05, 0.3, 0.6, 0.9, 1.2, 1.6])
def test_ctrl_c_while_r_and_the_jvm_start_is_not_lost(tmp_path, delay):
    """rpy2's SIGINT handler raises inside R's callbacks during the start-up,
    where the exception is dropped ("Exception ignored from cffi callback")
    and the job ran to its end (walk28 item 27); now a Ctrl-C at any moment
    of the start-up is raised once it returns."""
    script = tmp_path / "start.py"
    script.write_text(_START_SCRIPT)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    run = subprocess.run([sys.executable, str(script), str(delay)], cwd=root, capture_output=True,
                         text=True, timeout=120,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert "INTERRUPTED" in run.stdout and "SURVIVED" not in run.stdout, (run.stdout, run.stderr)
