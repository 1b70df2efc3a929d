"""The Weka learners' JVM path (java/src/pybcv/WekaBatch.java through
R/inst/weka_jvm.R): it is the path the bridge takes, and its predictions
equal those of RWeka's own interface, fun(y ~ ., data = d[tr, ]) +
predict(m, d[te, ]) (``fast = False``), on several data sets, split kinds and
options.  Needs R/inst/java/pybcv-weka.jar (bash scripts/setup.sh builds it)."""
from __future__ import annotations

import sys

import numpy as np
import pytest

from conftest import requires_r, terminal_sigint
from pybcv.partitions import bcv_mx2, random_mx2

pytestmark = requires_r("RWeka", "mlbench")

WEKA = [("J48", []), ("J48", ["-U"]), ("J48", ["-C", "0.1", "-M", "5"]), ("JRip", []),
        ("JRip", ["-N", "3", "-O", "1"]), ("SMO", []),
        ("SMO", ["-C", "0.5", "-N", "1"]),
        ("SMO", ["-K", "weka.classifiers.functions.supportVector.RBFKernel"]),
        ("Logistic", []), ("Logistic", ["-R", "0.1"])]


def r_eval(expr):
    import rpy2.rinterface as ri
    import r_bridge.bridge as rb
    env = rb._r_env()["env"]
    return ri.baseenv["eval"](ri.parse(expr), env)


def numeric_six(n=240, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] > 0).astype(int) + 2 * (X[:, 1] + 0.5 * rng.normal(size=n) > 0.4) \
        + (X[:, 2] > 1.2)
    return X, y


def mixed(n=200, seed=4):
    """Factor and numeric predictors; class "rare" has 3 records, so some
    training folds lack it (droplevels in RWeka's interface)."""
    import pandas as pd
    rng = np.random.default_rng(seed)
    f1 = rng.choice(["a", "b", "c", "d"], size=n)
    f2 = rng.choice(["x", "y"], size=n)
    x = rng.normal(size=n)
    y = np.where((f1 == "a") | ((f2 == "x") & (x > 0)), "yes", "no").astype(object)
    flip = rng.random(n) < 0.15
    y[flip] = np.where(y[flip] == "yes", "no", "yes")
    y[[5, 77, 150]] = "rare"
    return pd.DataFrame({"f1": f1, "num": x, "f2": f2}), y.astype(str)


@pytest.fixture(scope="module")
def letter(r_session):
    ro = r_session
    ro.r("suppressMessages(data('LetterRecognition', package = 'mlbench'))")
    m = ro.r("as.matrix(LetterRecognition[1:400, -1])")
    X = np.array(list(m), dtype=float).reshape(16, 400).T
    y = np.array(list(ro.r("as.character(LetterRecognition$lettr[1:400])")))
    return X, y


def splits_for(n, seed):
    rng = np.random.default_rng(seed)
    sp = bcv_mx2(n, seed, m=5)[:4]                                 # unsorted block indices
    sp.append((rng.permutation(n)[: n // 2], rng.permutation(n)[: n // 3]))   # overlap, unsorted
    return sp


def jvm_and_rweka(name, X, y, splits, options):
    import r_bridge
    jvm = r_bridge.predict_splits(name, X, y, splits, {"options": options}, ("RWeka",))
    ref = r_bridge.predict_splits(name, X, y, splits, {"options": options, "fast": False},
                                  ("RWeka",))
    return jvm, ref


def test_the_bridge_takes_the_jvm_path():
    import r_bridge
    X, y = numeric_six()
    r_bridge.predict_splits("J48", X, y, random_mx2(len(y), 1, m=1), {"options": []}, ("RWeka",))
    assert r_eval("isTRUE(weka_jvm$jvm_state$ok)")[0], \
        "the JVM path is not usable: run bash scripts/setup.sh (it compiles java/src)"
    assert r_eval("weka_jvm$jvm_usable('SMO', list())")[0]
    assert not r_eval("weka_jvm$jvm_usable('SMO', list(fast = FALSE))")[0]
    assert not r_eval("weka_jvm$jvm_usable('kknn', list())")[0]


@pytest.mark.parametrize("name,options", WEKA)
def test_jvm_equals_rweka_numeric(name, options):
    X, y = numeric_six()
    jvm, ref = jvm_and_rweka(name, X, y, splits_for(len(y), 11), options)
    for a, b in zip(jvm, ref):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name,options", [w for w in WEKA if not w[1] or w[0] == "J48"])
def test_jvm_equals_rweka_factors_and_missing_classes(name, options):
    X, y = mixed()
    splits = splits_for(len(y), 12)
    # a training set without the rare class, test set with it
    rare = np.flatnonzero(y == "rare")
    splits.append((np.setdiff1d(np.arange(len(y)), rare)[::2], np.arange(len(y))))
    jvm, ref = jvm_and_rweka(name, X, y, splits, options)
    for a, b in zip(jvm, ref):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", ["J48", "JRip", "SMO", "Logistic"])
def test_jvm_equals_rweka_many_classes(letter, name):
    X, y = letter
    jvm, ref = jvm_and_rweka(name, X, y, splits_for(len(y), 13)[:3], [])
    for a, b in zip(jvm, ref):
        np.testing.assert_array_equal(a, b)


def test_j48_unpruned_passes_minus_u():
    """batch.R's "J48-unpruned" (no options) is J48 -U on the JVM path."""
    import r_bridge
    X, y = numeric_six(n=300, seed=8)
    y = np.where(np.random.default_rng(9).random(300) < 0.25, (y + 1) % 6, y)   # noise: pruning matters
    splits = splits_for(len(y), 14)
    unpruned = r_bridge.predict_splits("J48-unpruned", X, y, splits, {}, ("RWeka",))
    ref_u = r_bridge.predict_splits("J48", X, y, splits, {"options": ["-U"], "fast": False},
                                    ("RWeka",))
    ref_p = r_bridge.predict_splits("J48", X, y, splits, {"options": [], "fast": False},
                                    ("RWeka",))
    for a, b in zip(unpruned, ref_u):
        np.testing.assert_array_equal(a, b)
    assert any((a != b).any() for a, b in zip(unpruned, ref_p))


def test_jvm_errors_name_the_fold():
    import r_bridge
    X, y = numeric_six()
    splits = random_mx2(len(y), 2, m=2)
    splits[2] = (np.flatnonzero(y == 0), splits[2][1])          # one class: SMO refuses
    with pytest.raises(r_bridge.RLearnerError, match=r"'SMO'.*fold 3 of 4") as ei:
        r_bridge.predict_splits("SMO", X, y, splits, {"options": []}, ("RWeka",))
    assert ei.value.fold == 3
    with pytest.raises(r_bridge.RLearnerError, match=r"fold 1.*NumberFormatException"):
        r_bridge.predict_splits("J48", X, y, splits, {"options": ["-C", "x"]}, ("RWeka",))


linux_proc = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="finds the JVM's worker thread under /proc")


def wait_for_design_thread(p, limit=300.0):
    """True once process p runs a Weka design in the JVM: its worker thread
    (WekaJob's "pybcv-weka-design", as Linux shows it) exists; False when p
    ends first (or after ``limit`` s)."""
    import glob
    import time
    end = time.monotonic() + limit
    while p.poll() is None and time.monotonic() < end:
        for comm in glob.glob(f"/proc/{p.pid}/task/*/comm"):
            try:
                with open(comm) as fh:
                    if fh.read().startswith("pybcv-weka-desi"):
                        return True
            except OSError:
                pass
        time.sleep(0.05)
    return False


# in a child: wait until the warm-up design's worker thread has ended, so
# that the thread wait_for_design_thread() finds is the long design's
NO_DESIGN_THREAD = r"""
import glob, time
def _design_threads():
    n = 0
    for c in glob.glob("/proc/self/task/*/comm"):
        try:
            with open(c) as fh:
                n += fh.read().startswith("pybcv-weka-desi")
        except OSError:
            pass
    return n
while _design_threads():
    time.sleep(0.01)
"""


CTRL_C_CHILD = r"""
import sys, numpy as np
import pybcv
rng = np.random.default_rng(0)
X = rng.normal(size=(20000, 10))
y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=20000) > 0).astype(int)
pybcv.compare(X[:200], y[:200], "J48", "majority", backend="r")   # R, RWeka, the JVM started
WAIT_FOR_NO_DESIGN_THREAD
print("started", flush=True)
try:
    # one design of 100 folds (the 10x10 CV): whatever moment the signal comes, it is inside
    # that design (with tests="all" a loaded machine could end a short design first)
    pybcv.compare(X, y, "J48", "majority", tests="corrected_10x10cv_t", backend="r")
    print("finished without interruption", flush=True)
except KeyboardInterrupt:
    import rpy2.robjects as ro
    print("interrupted; stopped at fold",
          ro.r('rJava::.jcall("pybcv/WekaBatch", "S", "lastStop")')[0], flush=True)
    print("usable:", type(pybcv.compare(X[:200], y[:200], "J48", "majority", backend="r")).__name__,
          flush=True)
    sys.exit(42)
"""


def _interrupt_child(tmp_path, template, wait):
    """Run the child script ``template`` (its wait for a clean JVM filled in),
    send SIGINT once it printed "started" and ``wait(p)`` returned; return
    (process, what wait returned, stdout, stderr)."""
    import os
    import signal
    import subprocess
    import sys
    script = tmp_path / "child.py"
    script.write_text(template.replace("WAIT_FOR_NO_DESIGN_THREAD", NO_DESIGN_THREAD))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = subprocess.Popen([sys.executable, str(script)], cwd=root, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=terminal_sigint)
    try:
        assert p.stdout.readline().strip() == "started", p.communicate()
        waited = wait(p)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=300)
    finally:
        if p.poll() is None:
            p.kill()
    return p, waited, out, err


@linux_proc
def test_ctrl_c_stops_a_weka_design_inside_the_jvm(tmp_path):
    """Issue 21: Ctrl-C during a Python compare() whose J48 design runs inside
    the JVM (one Java call for all its folds, ~2 min here) creates the stop
    file, on which WekaBatch stops before its next fold: KeyboardInterrupt
    after a fold, not after the design (before: 124 s from SIGINT to the
    end), and a second compare works."""
    import time

    def folds_running(p):
        assert wait_for_design_thread(p), "no Weka design ran in the JVM"
        time.sleep(1.0)                  # the first design's folds running in the JVM
        return True

    p, _, out, err = _interrupt_child(tmp_path, CTRL_C_CHILD, folds_running)
    assert p.returncode == 42 and "usable: Comparison" in out, (out, err[-2000:])
    stop = out.split("stopped at fold ")[1].split()[0]          # "done/total"
    done, total = map(int, stop.split("/"))
    assert total >= 10 and done < total, out
    assert "Exception ignored" not in err


def test_java_loop_anchor_trains_without_absent_classes(tmp_path):
    """benchmarks/table5_rep.py asserts that the bridge predicts what the plain
    Java loop (pybcv.WekaLoop) predicts.  On a fold whose training rows lack a
    class (EXP6 repetition 3, fold 3 of its random 5x2 design: no class 2) the
    loop must train as RWeka does after droplevels(), else JRip's rules differ."""
    import subprocess
    from pathlib import Path
    import r_bridge
    from pybcv.engine import RunConfig
    from pybcv.pipeline import draw_splits
    cfg = RunConfig("exp6", "table5")
    d = cfg.dataset_for(3)
    X, y = np.asarray(d.X, float), np.asarray(d.y)
    tr, te = draw_splits(len(y), {"rcv5x2": "rcv5x2"}, {"rcv5x2": cfg.unit_rng(3, "rcv5x2")})["rcv5x2"][2]
    assert len(np.unique(y[tr])) < len(np.unique(y))
    lev = [str(v) for v in np.unique(y)]
    for i in range(2):          # set 0: the loop's warm-up set (run 0 times), set 1: timed
        with open(tmp_path / f"set_{i:04d}.arff", "w") as fh:
            fh.write("@relation R_data_frame\n@attribute y {" + ",".join(lev) + "}\n")
            fh.write("".join(f"@attribute x{j + 1} numeric\n" for j in range(X.shape[1])) + "@data\n")
            fh.writelines(f"{yi}," + ",".join(f"{v:.17g}" for v in row) + "\n"
                          for yi, row in zip(y, X))
        with open(tmp_path / f"set_{i:04d}.splits", "w") as fh:
            fh.write(" ".join(map(str, tr)) + "\n" + " ".join(map(str, te)) + "\n")
    weka_jar = subprocess.run(["Rscript", "-e", 'cat(system.file("java", "weka.jar", package = '
                               '"RWekajars"))'], capture_output=True, text=True).stdout.strip()
    jar = Path(__file__).resolve().parents[1] / "R" / "inst" / "java" / "pybcv-weka.jar"
    subprocess.run(["java", "-cp", f"{weka_jar}:{jar}", "pybcv.WekaLoop", str(tmp_path), "0",
                    "weka.classifiers.rules.JRip"], check=True, capture_output=True)
    loop = np.array((tmp_path / "pred_JRip.txt").read_text().split(), dtype=int)
    bridge = r_bridge.predict_splits("JRip", X, y, [(tr, te)], {"options": []}, ("RWeka",))[0]
    np.testing.assert_array_equal(np.asarray(lev)[loop], bridge.astype(str))


def _long_fit_data(n, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 10))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=n) > 0).astype(int)
    return X, y


def test_the_time_limit_cuts_a_weka_fit_inside_the_jvm_short():
    """Issue 22: timeout= reaches the Weka learners' design inside the JVM
    (WekaJob gives up on the fit at the limit and names its fold); before,
    a design in one Java call ran all its fits whatever the limit."""
    import pybcv
    X, y = _long_fit_data(20000)          # J48 on 10,000 records: mostly over 0.05 s
    # which fold is the first over the limit depends on the machine's speed at the time
    with pytest.raises(RuntimeError, match=r"R learner 'J48' failed on fold \d+ of 10, design "
                                           r"'bcv5x2': the fit took longer than the time limit of "
                                           r"0.05 s \(timeout\)"):
        pybcv.compare(X, y, "J48", "majority", backend="r", timeout=0.05)
    ok = pybcv.compare(X[:200], y[:200], "J48", "majority", backend="r", timeout=60)
    assert ok.backends[0] == "r"


CTRL_C_ONE_FIT = r"""
import numpy as np
import r_bridge
rng = np.random.default_rng(0)
X = rng.normal(size=(80000, 10))
y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=80000) > 0).astype(int)
split = [(np.arange(0, 80000, 2), np.arange(1, 80000, 2))]         # ONE fit on 40,000 records
r_bridge.predict_splits("J48", X[:200], y[:200], [(np.arange(100), np.arange(100, 200))],
                        {"options": []}, ("RWeka",))
WAIT_FOR_NO_DESIGN_THREAD
print("started", flush=True)
try:
    r_bridge.predict_splits("J48", X, y, split, {"options": []}, ("RWeka",))
    print("finished without interruption", flush=True)
except KeyboardInterrupt:
    import rpy2.robjects as ro
    print("interrupted; stopped at fold",
          ro.r('rJava::.jcall("pybcv/WekaBatch", "S", "lastStop")')[0], flush=True)
"""


@linux_proc
def test_ctrl_c_stops_a_single_weka_fit_inside_the_jvm(tmp_path):
    """Ctrl-C during the one fit of a design inside the JVM: the stop reaches
    Java during the fit (WekaJob abandons it), not after it; before, the stop
    file was checked between folds only, so a design of one long fit ran to
    its end."""
    _, running, out, err = _interrupt_child(tmp_path, CTRL_C_ONE_FIT, wait_for_design_thread)
    assert running, ("no Weka design thread", out, err[-2000:])
    assert "stopped at fold 0/1 during the fit of fold 1" in out, (out, err[-2000:])
