"""Ctrl-C from a terminal (SIGINT to the whole process group) while the
command line imports its modules or starts its worker processes (issue 22:
KeyboardInterrupt tracebacks in 6 of 21 presses): exit code 130,
"pybcv: interrupted", no traceback from the command or from a worker
(pybcv/interrupts.py), and the finished repetitions of a simulation kept.

The moment is found, not waited for: the command's own modules being
imported (numpy mapped into the process, pybcv.cli not yet running), or its
first worker process existing."""
import glob
import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="watches the processes under /proc")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _start(args):
    return subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "pybcv", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)      # its own group, as a terminal job


def _wait(p, ready, limit=120.0):
    end = time.monotonic() + limit
    while p.poll() is None and time.monotonic() < end:
        if ready():
            return True
        time.sleep(0.01)
    return False


def _children(pid):
    out = []
    for f in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(f) as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(f.split("/")[2]))
    return out


def _ctrl_c(p):
    os.killpg(p.pid, signal.SIGINT)
    try:
        return p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGABRT)                # its threads' stacks (faulthandler)
        out, err = p.communicate(timeout=120)
        pytest.fail("still running 120 s after Ctrl-C:\n" + err[-6000:])
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)


def _quiet_interrupt(p, out_err):
    out, err = out_err
    assert p.returncode == 130, (p.returncode, err[-3000:])
    assert "pybcv: interrupted" in err, err[-3000:]
    assert "Traceback" not in err and "Exception ignored" not in err \
        and "Fatal Python error" not in err, err[-3000:]


def test_ctrl_c_while_the_command_imports_its_modules():
    p = _start(["compare", "--n", "60", "--quiet"])

    def importing():
        try:
            with open(f"/proc/{p.pid}/maps") as fh:
                return "_multiarray_umath" in fh.read()     # numpy: pybcv/__init__ is running
        except OSError:
            return False

    assert _wait(p, importing), p.communicate()
    _quiet_interrupt(p, _ctrl_c(p))


def test_ctrl_c_while_simulate_starts_its_workers_keeps_finished_repetitions(tmp_path):
    from pybcv.engine import load_result, simulate
    out = str(tmp_path / "run")
    kw = dict(reps=40, n=200, tests=["mcnemar_5x2bcv"], backend="python", seed=0)
    simulate("simple", out=out, stop_after=3, **kw)              # 3 finished repetitions
    p = _start(["simulate", "--dataset", "simple", "--reps", "40", "--n", "200", "--tests",
                "mcnemar_5x2bcv", "--backend", "python", "--seed", "0", "--jobs", "2",
                "--out", out, "--resume", "--quiet"])
    # both workers exist (and import their modules); two resource trackers too
    assert _wait(p, lambda: len(_children(p.pid)) >= 4), p.communicate()
    _quiet_interrupt(p, _ctrl_c(p))
    assert len(load_result(out).reps) >= 3
